/**
 * OCPP-J framing (OCPP-J 1.6 §4): [2, id, action, payload] CALL, [3, id, payload] CALLRESULT,
 * [4, id, errorCode, errorDescription, errorDetails] CALLERROR. Pure functions; the session
 * does the I/O.
 */

/** OCPP-J 1.6 §4.2.3. 1.6 spells "Occurence" with one r; MessageTypeNotSupported is 2.0.1 only. */
export type RpcErrorCode =
  | 'NotImplemented'
  | 'NotSupported'
  | 'InternalError'
  | 'ProtocolError'
  | 'SecurityError'
  | 'FormationViolation'
  | 'PropertyConstraintViolation'
  | 'OccurenceConstraintViolation'
  | 'TypeConstraintViolation'
  | 'GenericError'
  // OCPP-J 2.0.1 §4.3 only: the two classes it respells, and its two new ones.
  | 'FormatViolation'
  | 'OccurrenceConstraintViolation'
  | 'MessageTypeNotSupported'
  | 'RpcFrameworkError';

/**
 * An error class as OCPP-J 2.0.1 §4.3 names it: FormationViolation is FormatViolation there, and
 * OccurenceConstraintViolation gains its second r. The others are the same in both versions.
 */
export function ocpp201Code(code: RpcErrorCode): RpcErrorCode {
  return code === 'FormationViolation'
    ? 'FormatViolation'
    : code === 'OccurenceConstraintViolation'
      ? 'OccurrenceConstraintViolation'
      : code;
}

export const CALL = 2;
export const CALLRESULT = 3;
export const CALLERROR = 4;

export class RpcError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export type Payload = Record<string, unknown>;

export type Frame =
  | { type: typeof CALL; id: string; action: string; payload: Payload }
  | { type: typeof CALLRESULT; id: string; payload: Payload }
  | { type: typeof CALLERROR; id: string; code: string; description: string; details: unknown };

/** A frame that cannot be handled: answered with a CALLERROR when it was (or looked like) a CALL. */
export interface BadFrame {
  /** The message id when one could be read ("-1" is sent otherwise, as OCPP-J 2.0.1 prescribes and 1.6 leaves open). */
  id: string | undefined;
  /** Only CALLs are answered; a broken response is dropped (answering a response is not allowed). */
  answer: boolean;
  code: RpcErrorCode;
  description: string;
  /** A message type id other than 2, 3 or 4: NotImplemented in 1.6, MessageTypeNotSupported in 2.0.1. */
  unknownType?: true;
}

const isObject = (v: unknown): v is Payload => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message id of a frame that does not parse, read from its first bytes when it looks like one. */
export function sniffId(text: string): { type: number | undefined; id: string | undefined } {
  const m = /^\s*\[\s*(\d+)\s*,\s*"((?:[^"\\]|\\.){1,64})"/.exec(text.slice(0, 200));
  return m ? { type: Number(m[1]), id: m[2] } : { type: undefined, id: undefined };
}

export function parseFrame(text: string): Frame | BadFrame {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    const { type, id } = sniffId(text);
    return { id, answer: type === undefined || type === CALL, code: 'FormationViolation', description: 'message is not valid JSON' };
  }
  if (!Array.isArray(msg) || msg.length === 0) {
    return { id: undefined, answer: true, code: 'FormationViolation', description: 'message is not a non-empty JSON array' };
  }
  const [type, id] = msg as unknown[];
  const idOk = typeof id === 'string' && id.length > 0;
  if (typeof type !== 'number' || !Number.isInteger(type)) {
    return { id: idOk ? id : undefined, answer: true, code: 'FormationViolation', description: 'message type id is not an integer' };
  }
  if (type !== CALL && type !== CALLRESULT && type !== CALLERROR) {
    return {
      id: idOk ? id : undefined,
      answer: true,
      code: 'NotImplemented',
      description: `message type ${type} is not supported`,
      unknownType: true,
    };
  }
  if (!idOk) {
    return { id: undefined, answer: type === CALL, code: 'FormationViolation', description: 'message id is not a non-empty string' };
  }
  if (type === CALL) {
    if (msg.length < 4)
      return { id, answer: true, code: 'ProtocolError', description: 'CALL is incomplete: [2, id, action, payload] expected' };
    if (msg.length > 4) return { id, answer: true, code: 'FormationViolation', description: 'CALL has more than 4 elements' };
    const [, , action, payload] = msg as unknown[];
    if (typeof action !== 'string' || action.length === 0) {
      return { id, answer: true, code: 'FormationViolation', description: 'action is not a non-empty string' };
    }
    if (!isObject(payload)) return { id, answer: true, code: 'FormationViolation', description: 'payload is not a JSON object' };
    return { type, id, action, payload };
  }
  if (type === CALLRESULT) {
    const payload = msg[2];
    if (msg.length !== 3 || !isObject(payload)) {
      return { id, answer: false, code: 'FormationViolation', description: 'CALLRESULT must be [3, id, {payload}]' };
    }
    return { type, id, payload };
  }
  const [, , code, description, details] = msg as unknown[];
  if (msg.length < 4 || msg.length > 5 || typeof code !== 'string' || typeof description !== 'string') {
    return { id, answer: false, code: 'FormationViolation', description: 'CALLERROR must be [4, id, code, description, {details}]' };
  }
  return { type, id, code, description, details: details ?? {} };
}

export function isBadFrame(f: Frame | BadFrame): f is BadFrame {
  return !('type' in f);
}

export const callFrame = (id: string, action: string, payload: Payload) => JSON.stringify([CALL, id, action, payload]);
export const resultFrame = (id: string, payload: Payload) => JSON.stringify([CALLRESULT, id, payload]);
export const errorFrame = (id: string, code: RpcErrorCode, description: string, details: Record<string, unknown> = {}) =>
  JSON.stringify([CALLERROR, id, code, description, details]);
