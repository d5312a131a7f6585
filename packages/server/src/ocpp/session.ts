import type { RawData, WebSocket } from 'ws';
import { findBadText } from '@csms/contract';
import type { ChargerReply } from '../bus/bus.js';
import type { OcppLogWriter } from './log-writer.js';
import type { AuthorizationReason } from '@csms/contract';
import type { PointState } from './registry.js';
import {
  CALL,
  callFrame,
  CALLERROR,
  CALLRESULT,
  errorFrame,
  isBadFrame,
  parseFrame,
  resultFrame,
  RpcError,
  sniffId,
  type Frame,
  type Payload,
  type RpcErrorCode,
} from './rpc.js';
import { mayHoldBadText } from './text.js';
import type { OcppValidator } from './validator.js';
import { maskLocation } from '../lib/secret-location.js';

export type OcppVersion = '1.6' | '2.0.1';

/** Handles one charger-initiated action; returns the CALLRESULT payload or throws an RpcError. */
export type ActionHandler = (session: ChargerSession, payload: Payload, receivedAt: number) => Promise<Payload>;

const refusals = new WeakMap<Payload, AuthorizationReason>();
/** Marks a reply as refusing an idTag for `reason`: the OCPP log keeps the reason beside the reply. */
export function refusing(reply: Payload, reason: AuthorizationReason): Payload {
  refusals.set(reply, reason);
  return reply;
}

export interface SessionDeps {
  /** The OCPP version the connection negotiated; 2.0.1's deps respell error classes (`wireCode`). */
  version: OcppVersion;
  validator: OcppValidator;
  /** The error class as this version spells it on the wire (2.0.1: `ocpp201Code`); 1.6 sends ours as they are. */
  wireCode?: (code: RpcErrorCode) => RpcErrorCode;
  log: OcppLogWriter;
  handlers: Readonly<Record<string, ActionHandler>>;
  maxFrameBytes: number;
  defaultTimeoutMs: number;
  logger: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** After a CALLRESULT to one of our calls (e.g. to remember accepted remote starts). */
  onCallResult?(session: ChargerSession, action: string, request: Payload, conf: Payload): void;
  onClose(session: ChargerSession): void;
}

interface OutgoingCall {
  action: string;
  payload: Payload;
  resolve(reply: ChargerReply): void;
  timer: NodeJS.Timeout;
  id?: string;
  sentAt?: number;
}

/** The charger's password (security profile 1/2 AuthorizationKey) never reaches the OCPP log. */
const SECRET_KEY = /^AuthorizationKey$/i;
/** OCPP 2.0.1's equivalent: SecurityCtrlr.BasicAuthPassword. */
const SECRET_VARIABLE = /^BasicAuthPassword$/i;
/** `payload` with `payload[part][field]` masked (lib/secret-location.ts), when that is a string. */
function withMaskedLocation(payload: Payload, part: string, field: string): Payload {
  const inner = payload[part];
  if (!inner || typeof inner !== 'object') return payload;
  const value = (inner as Record<string, unknown>)[field];
  return typeof value === 'string' ? { ...payload, [part]: { ...inner, [field]: maskLocation(value) } } : payload;
}

/** A frame's payload as the OCPP log keeps it: the secrets it carries masked. */
export function loggable(action: string, payload: Payload): Payload {
  if (action === 'ChangeConfiguration' && typeof payload.key === 'string' && SECRET_KEY.test(payload.key))
    return { ...payload, value: '***' };
  if (action === 'SetVariables' && Array.isArray(payload.setVariableData)) {
    return {
      ...payload,
      setVariableData: (payload.setVariableData as { variable?: { name?: unknown } }[]).map((d) =>
        typeof d?.variable?.name === 'string' && SECRET_VARIABLE.test(d.variable.name) ? { ...d, attributeValue: '***' } : d,
      ),
    };
  }
  // Where a charger uploads its diagnostics or fetches a package (a login's password, a file token):
  // 1.6 `location`; 2.0.1 `log.remoteLocation` and `firmware.location`.
  if ((action === 'GetDiagnostics' || action === 'UpdateFirmware') && typeof payload.location === 'string')
    return { ...payload, location: maskLocation(payload.location) };
  if (action === 'GetLog') return withMaskedLocation(payload, 'log', 'remoteLocation');
  if (action === 'UpdateFirmware') return withMaskedLocation(payload, 'firmware', 'location');
  if (action === 'GetConfiguration' && Array.isArray(payload.configurationKey)) {
    return {
      ...payload,
      configurationKey: (payload.configurationKey as { key?: unknown }[]).map((k) =>
        typeof k?.key === 'string' && SECRET_KEY.test(k.key) ? { ...k, value: '***' } : k,
      ),
    };
  }
  return payload;
}

/** The JSON pointer of the first field holding text no database column can store (the contract's rule), or null. */
function badTextPointer(payload: Payload): string | null {
  const path = findBadText(payload);
  return path ? `/${path.map((k) => k.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}` : null;
}

/**
 * OCPP-J 1.6 §4.2.3: a field whose value is not allowed is a PropertyConstraintViolation. NUL and lone
 * surrogates are such values: no OCPP text field can be stored with them (PostgreSQL text and jsonb refuse them).
 */
function unstorableError(schema: string, path: string): RpcError {
  return new RpcError(
    'PropertyConstraintViolation',
    `${schema} ${path} holds a character that cannot be stored (NUL or a lone surrogate)`,
    {
      errors: [{ instancePath: path, keyword: 'unstorable', message: 'holds a character that cannot be stored', params: {} }],
    },
  );
}

const violationOf = (e: RpcError) => ({ code: e.code, description: e.message, details: e.details as { errors: unknown[] } });

/** Message ids of our calls: unique across connections and restarts, so the log pairs them unambiguously. */
const idPrefix = Date.now().toString(36);
let idCounter = 0;

/**
 * The charger's CALLs a session holds waiting for their turn. OCPP-J allows one outstanding; a
 * charger replaying stored messages after a reconnect still waits for each answer, so more than a
 * few means a charger that does not, whose frames would otherwise pile up in memory.
 */
export const MAX_WAITING_CALLS = 32;

/**
 * One charger's socket: OCPP-J framing, schema checks both ways, in-order handling of its
 * CALLs, and our own CALLs to it, one outstanding at a time (others queue). A class, unlike the
 * factories elsewhere, because thousands live at once and prototype methods keep each one small.
 */
export class ChargerSession {
  lastActivity = Date.now();
  /** The size of the frame being handled, for its log row (the log's memory bound). */
  private frameBytes = 0;
  /** The charger's CALLs received and not yet answered (see MAX_WAITING_CALLS). */
  private waiting = 0;
  closed = false;
  /** Set when a newer connection of the same identity took over. */
  replaced = false;
  /** What its last BootNotification was answered; undefined before one on this connection. */
  registration: 'Accepted' | 'Pending' | undefined;
  /** While Pending: the messages a TriggerMessage it accepted asked for, each allowed once (2.0.1 B02.FR.09). */
  triggered: string[] | undefined;
  /** The tail of this charger's CALL handling; CALLs are answered in the order they came. */
  chain: Promise<void> = Promise.resolve();
  private pending: OutgoingCall | null = null;
  private queue: OutgoingCall[] | null = null;
  /** The last call that timed out, so a late answer is still logged with its action. */
  private expired: { id: string; action: string; sentAt: number } | null = null;

  constructor(
    readonly ws: WebSocket,
    public point: PointState,
    readonly connectedAt: number,
    private readonly deps: SessionDeps,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('pong', () => (this.lastActivity = Date.now()));
    ws.on('close', () => this.onClosed());
    ws.on('error', () => {
      /* a broken socket closes next; nothing to do */
    });
  }

  get version(): OcppVersion {
    return this.deps.version;
  }

  get serialNumber(): string {
    return this.point.serialNumber;
  }

  private logRow(
    direction: 'in' | 'out',
    messageType: number | null,
    action: string | null,
    messageId: string | null,
    payload: unknown,
    latencyMs?: number,
    reason?: AuthorizationReason,
    /** The request's own time and our answer to it, for a row of the whole exchange (`logExchange`). */
    answer?: { requestAt: Date; type: number; payload: unknown; at: Date },
    /** About what the row holds: the charger's frame, and some for our part (the log's memory bound). */
    bytes = this.frameBytes + 512,
  ) {
    this.deps.log.write(
      {
        providerId: this.point.providerId,
        chargePointId: this.point.id,
        serialNumber: this.point.serialNumber.slice(0, 64),
        direction,
        messageType,
        action: action?.slice(0, 48) ?? null,
        messageId: messageId?.slice(0, 64) ?? null,
        payload,
        latencyMs: latencyMs === undefined ? null : Math.max(0, Math.round(latencyMs)),
        reason: reason ?? null,
        ...(answer
          ? { createdAt: answer.requestAt, responseType: answer.type, responsePayload: answer.payload, responseAt: answer.at }
          : {}),
      },
      bytes,
    );
  }

  /**
   * A charger's CALL and our answer, one row of the log (the request's columns and the answer's): half
   * the rows of logging each frame alone, which is most of what the log costs the database. The request
   * is written once it is answered (a charger's CALLs are handled one at a time, in order); a handler that
   * never settled would leave it unlogged, as it leaves the charger unanswered.
   */
  private logExchange(
    request: { action: string | null; id: string; payload: unknown; receivedAt: number; bytes: number },
    type: number,
    answer: unknown,
    reason?: AuthorizationReason,
  ) {
    const at = new Date();
    this.logRow(
      'in',
      CALL,
      request.action,
      request.id,
      request.payload,
      at.getTime() - request.receivedAt,
      reason,
      {
        requestAt: new Date(request.receivedAt),
        type,
        payload: answer,
        at,
      },
      request.bytes + 512,
    );
  }

  private send(text: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(text);
  }

  /** Sends a CALLERROR and gives its body, for the caller's log row. */
  private sendError(id: string, code: RpcErrorCode, description: string, details: Record<string, unknown> = {}) {
    if (this.deps.wireCode) code = this.deps.wireCode(code);
    this.send(errorFrame(id, code, description, details));
    return { errorCode: code, errorDescription: description, errorDetails: details };
  }

  /** A CALLERROR for a frame that never became a CALL we handle: a log row of its own. */
  private refuseFrame(id: string, code: RpcErrorCode, description: string, receivedAt: number): void {
    this.logRow('out', CALLERROR, null, id, this.sendError(id, code, description), Date.now() - receivedAt);
  }

  private onMessage(data: RawData, _isBinary: boolean): void {
    const receivedAt = Date.now();
    this.lastActivity = receivedAt;
    try {
      const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (buf.length > this.deps.maxFrameBytes) return this.onOversized(buf, receivedAt);
      this.frameBytes = buf.length;
      const text = buf.toString('utf8');
      const frame = parseFrame(text);
      if (isBadFrame(frame)) {
        this.logRow('in', sniffId(text).type ?? null, null, frame.id ?? null, { raw: text.slice(0, 2000) });
        const code = frame.unknownType && this.deps.version === '2.0.1' ? 'MessageTypeNotSupported' : frame.code;
        if (frame.answer) this.refuseFrame(frame.id ?? '-1', code, frame.description, receivedAt);
        else if (frame.id !== undefined)
          this.settle(frame.id, { kind: 'error', code: frame.code, description: frame.description }, null, receivedAt);
        return;
      }
      const suspect = mayHoldBadText(text);
      if (frame.type === CALL) {
        // OCPP-J: one CALL at a time. A charger that keeps sending without waiting is answered at once
        // past a few, rather than queueing its frames in memory without limit.
        if (this.waiting >= MAX_WAITING_CALLS)
          return this.refuseFrame(
            frame.id,
            'GenericError',
            `more than ${MAX_WAITING_CALLS} calls wait for an answer: send one at a time`,
            receivedAt,
          );
        this.waiting++;
        const bytes = buf.length;
        this.chain = this.chain.then(() => this.handleCall(frame, receivedAt, suspect, bytes));
      } else {
        this.onResponse(frame, receivedAt, suspect);
      }
    } catch (err) {
      this.deps.logger.error({ err, serialNumber: this.serialNumber }, 'ocpp: message handling failed');
    }
  }

  /** A frame above the limit: answered with a CALLERROR when its id can be read, else the socket closes with 1009. */
  private onOversized(buf: Buffer, receivedAt: number): void {
    const { type, id } = sniffId(buf.subarray(0, 200).toString('utf8'));
    const description = `frame of ${buf.length} bytes exceeds the limit of ${this.deps.maxFrameBytes}`;
    this.logRow('in', type ?? null, null, id ?? null, { oversized: buf.length });
    if (id !== undefined && type === CALL) return this.refuseFrame(id, 'FormationViolation', description, receivedAt);
    if (id !== undefined && (type === CALLRESULT || type === CALLERROR) && this.pending?.id === id) {
      return this.settle(id, { kind: 'error', code: 'FormationViolation', description }, null, receivedAt);
    }
    this.ws.close(1009, 'frame too large');
  }

  private async handleCall(frame: Extract<Frame, { type: typeof CALL }>, receivedAt: number, suspect = false, bytes = 0): Promise<void> {
    const { id, action, payload } = frame;
    const request = { action, id, payload, receivedAt, bytes };
    try {
      const handler = Object.hasOwn(this.deps.handlers, action) ? this.deps.handlers[action] : undefined;
      if (!handler) throw new RpcError('NotImplemented', `action ${action} is not implemented`);
      if (this.registration === 'Pending' && !this.mayWhilePending(action))
        throw new RpcError(
          'SecurityError',
          `${action} is not accepted before the central system accepts the charge point's BootNotification`,
        );
      const violation = this.deps.validator.validate(action, 'req', payload);
      if (violation) throw new RpcError(violation.code, violation.description, violation.details);
      // A value the schema allows but the database cannot store: refused before anything is written.
      const unstorable = suspect ? badTextPointer(payload) : null;
      if (unstorable !== null) throw unstorableError(`${action}.req`, unstorable);
      const conf = await handler(this, payload, receivedAt);
      const bad = this.deps.validator.validate(action, 'conf', conf);
      if (bad) {
        this.deps.logger.error({ action, conf, violation: bad }, 'ocpp: our own reply violates the schema');
        throw new RpcError('InternalError', 'the central system could not build a valid reply');
      }
      this.send(resultFrame(id, conf));
      this.logExchange(request, CALLRESULT, conf, refusals.get(conf));
    } catch (err) {
      if (err instanceof RpcError) return this.logExchange(request, CALLERROR, this.sendError(id, err.code, err.message, err.details));
      this.deps.logger.error({ err, action, serialNumber: this.serialNumber }, 'ocpp: handler failed');
      this.logExchange(request, CALLERROR, this.sendError(id, 'InternalError', 'the central system failed to process the request'));
    } finally {
      this.waiting--;
    }
  }

  /**
   * While its boot is Pending a charger sends nothing but BootNotification, the NotifyReports of a report we asked
   * for, and what a TriggerMessage of ours asked for (OCPP 1.6 §4.2.1, 2.0.1 B02.FR.09).
   */
  private mayWhilePending(action: string): boolean {
    if (action === 'BootNotification' || action === 'NotifyReport') return true;
    const i = this.triggered?.indexOf(action) ?? -1;
    if (i < 0) return false;
    this.triggered!.splice(i, 1);
    return true;
  }

  private onResponse(frame: Exclude<Frame, { type: typeof CALL }>, receivedAt: number, suspect = false): void {
    const reply: ChargerReply =
      frame.type === CALLRESULT
        ? { kind: 'result', payload: frame.payload }
        : { kind: 'error', code: frame.code, description: frame.description, details: frame.details };
    const body =
      frame.type === CALLRESULT
        ? frame.payload
        : { errorCode: frame.code, errorDescription: frame.description, errorDetails: frame.details };
    this.settle(frame.id, reply, body, receivedAt, frame.type, suspect);
  }

  /** Resolves our outstanding call `id` with the charger's answer (validated) and sends the next queued one. */
  private settle(id: string, reply: ChargerReply, body: unknown, receivedAt: number, type: number | null = null, suspect = false): void {
    const call = this.pending;
    if (!call || call.id !== id) {
      const late = this.expired?.id === id ? this.expired : null;
      if (body === null) return;
      const logged = late && reply.kind === 'result' ? loggable(late.action, reply.payload) : body;
      this.logRow('in', type, late?.action ?? null, id, logged, late ? receivedAt - late.sentAt : undefined);
      return;
    }
    if (body !== null) {
      const logged = reply.kind === 'result' ? loggable(call.action, reply.payload) : body;
      this.logRow('in', type, call.action, id, logged, receivedAt - (call.sentAt ?? receivedAt));
    }
    clearTimeout(call.timer);
    this.pending = null;
    let final = reply;
    if (reply.kind === 'result') {
      const unstorable = suspect ? badTextPointer(reply.payload) : null;
      const bad =
        this.deps.validator.validate(call.action, 'conf', reply.payload) ??
        (unstorable === null ? null : violationOf(unstorableError(`${call.action}.conf`, unstorable)));
      if (bad)
        final = {
          kind: 'error',
          code: 'FormationViolation',
          description: bad.description,
          details: { violation: bad.code, ...bad.details },
        };
      else this.deps.onCallResult?.(this, call.action, call.payload, reply.payload);
    }
    call.resolve(final);
    this.sendNext();
  }

  /** How long a CALL waits for its answer unless told otherwise. */
  get defaultTimeoutMs(): number {
    return this.deps.defaultTimeoutMs;
  }

  /** Sends a CALL to the charger and waits for its answer; payloads are checked against `<action>.req` first. */
  call(action: string, payload: Payload, timeoutMs = this.deps.defaultTimeoutMs): Promise<ChargerReply> {
    if (this.closed) return Promise.resolve({ kind: 'offline' });
    const violation = this.deps.validator.validate(action, 'req', payload);
    if (violation)
      return Promise.resolve({ kind: 'error', code: violation.code, description: violation.description, details: violation.details });
    return new Promise<ChargerReply>((resolve) => {
      const call: OutgoingCall = {
        action,
        payload,
        resolve,
        timer: setTimeout(() => this.expire(call), timeoutMs),
      };
      if (this.pending) (this.queue ??= []).push(call);
      else this.transmit(call);
    });
  }

  private transmit(call: OutgoingCall): void {
    call.id = `${idPrefix}-${(++idCounter).toString(36)}`;
    call.sentAt = Date.now();
    this.pending = call;
    // What a TriggerMessage asks for may come while its boot is Pending (some chargers send it before the answer).
    if (call.action === 'TriggerMessage' && this.registration === 'Pending' && typeof call.payload.requestedMessage === 'string')
      (this.triggered ??= []).push(call.payload.requestedMessage);
    this.send(callFrame(call.id, call.action, call.payload));
    this.logRow('out', CALL, call.action, call.id, loggable(call.action, call.payload));
  }

  private sendNext(): void {
    const next = this.queue?.shift();
    if (this.queue?.length === 0) this.queue = null;
    if (next && !this.closed) this.transmit(next);
  }

  private expire(call: OutgoingCall): void {
    if (this.pending === call) {
      this.pending = null;
      this.expired = { id: call.id!, action: call.action, sentAt: call.sentAt! };
      call.resolve({ kind: 'timeout' });
      this.sendNext();
      return;
    }
    const i = this.queue?.indexOf(call) ?? -1;
    if (i >= 0) this.queue!.splice(i, 1);
    call.resolve({ kind: 'timeout' });
  }

  private onClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const call of [...(this.pending ? [this.pending] : []), ...(this.queue ?? [])]) {
      clearTimeout(call.timer);
      call.resolve({ kind: 'offline' });
    }
    this.pending = null;
    this.queue = null;
    this.deps.onClose(this);
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }
}
