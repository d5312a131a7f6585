import WebSocket from 'ws';
import { CallTimeoutError, OcppError, OfflineError, type Payload } from './ocpp.js';
import type { WireTranslator } from './ocpp201.js';
import type { Scheduler, Task } from './scheduler.js';

/**
 * OCPP-J framing on `ws` for one charge point: message ids, one outstanding call at a time
 * (later calls wait in a queue), a call timeout, CALLRESULT / CALLERROR matching, and answers
 * to the CSMS's calls. One link serves every socket the point opens over its life.
 */

/** Events of our own calls name the action sent; `of`, on the OCPP 2.0.1 wire, the 1.6 call it stands for (StartTransaction for a TransactionEvent Started). */
export type TrafficEvent =
  | { type: 'callSent'; action: string; of?: string; messageId: string; payload: Payload }
  | { type: 'callResult'; action: string; of?: string; messageId: string; payload: Payload; latencyMs: number }
  | { type: 'callError'; action: string; of?: string; messageId: string; code: string; description: string; latencyMs: number }
  | { type: 'callTimeout'; action: string; of?: string; messageId: string }
  | { type: 'callReceived'; action: string; messageId: string; payload: Payload }
  | { type: 'replySent'; action: string; messageId: string; payload: Payload }
  | { type: 'errorSent'; action: string; messageId: string; code: string; description: string }
  | { type: 'protocolError'; description: string };

export interface LinkOptions {
  scheduler: Scheduler;
  callTimeoutMs: number;
  /** Answers a CSMS call: the CALLRESULT, or throw an OcppError for a CALLERROR; `undefined` sends nothing. */
  /** `translated`: the call is the 2.0.1 translation's (ocpp201.ts), not one the CSMS sent as it is. */
  onCall(action: string, payload: Payload, translated: boolean): Reply | undefined | Promise<Reply | undefined>;
  onOpen(): void;
  onClose(info: { code: number; reason: string; error?: Error }): void;
  onTraffic?(event: TrafficEvent): void;
  /** OCPP 2.0.1 on the wire: the point's 1.6 calls and answers translated both ways. */
  translator?: WireTranslator;
}

export interface OpenOptions {
  url: string;
  protocol: string;
  headers?: Record<string, string>;
  handshakeTimeoutMs?: number;
  /** For wss:// (security profile 2): the CA to trust, or no verification at all. */
  tls?: TlsOptions;
}

export interface TlsOptions {
  ca?: string | Buffer;
  rejectUnauthorized?: boolean;
}

/** Largest frame accepted from the CSMS; OCPP messages are a few KB. */
const MAX_FRAME_BYTES = 1024 * 1024;

/** A CALLRESULT payload, and what to do once it is on the wire (e.g. start the transaction a remote start accepted). */
export interface Reply {
  payload: Payload;
  afterwards?: () => void;
}

interface PendingCall {
  action: string;
  /** The 1.6 call a translated one stands for. */
  of?: string;
  payload: Payload;
  resolve(payload: Payload): void;
  reject(err: Error): void;
  messageId?: string;
  sentAt?: number;
  timeout?: Task;
}

export interface Link {
  readonly isOpen: boolean;
  /** A socket exists (connecting, open or closing). */
  readonly hasSocket: boolean;
  open(options: OpenOptions): void;
  /** Sends a CALL; resolves with the CALLRESULT payload, rejects with OcppError, OfflineError or CallTimeoutError. */
  call(action: string, payload: Payload): Promise<Payload>;
  /** Closes cleanly (close handshake). */
  close(code?: number, reason?: string): void;
  /** Drops the socket at once, as a network failure would. */
  terminate(): void;
  /** Calls waiting or in flight. */
  pendingCalls(): number;
}

const now = () => performance.now();

export function createLink(options: LinkOptions): Link {
  const { scheduler, callTimeoutMs, onTraffic } = options;
  let ws: WebSocket | undefined;
  let opened = false;
  let nextId = 0;
  const queue: PendingCall[] = [];

  const send = (frame: unknown[]) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  };

  const sendNext = () => {
    const head = queue[0];
    if (!head || head.messageId !== undefined) return;
    if (!opened) return;
    head.messageId = (++nextId).toString(36);
    head.sentAt = now();
    head.timeout = scheduler.after(callTimeoutMs, () => {
      if (queue[0] !== head) return;
      queue.shift();
      onTraffic?.({ type: 'callTimeout', action: head.action, ...(head.of ? { of: head.of } : {}), messageId: head.messageId! });
      head.reject(new CallTimeoutError(head.action, callTimeoutMs));
      sendNext();
    });
    onTraffic?.({
      type: 'callSent',
      action: head.action,
      ...(head.of ? { of: head.of } : {}),
      messageId: head.messageId,
      payload: head.payload,
    });
    send([2, head.messageId, head.action, head.payload]);
  };

  const settle = (messageId: string, ok: (call: PendingCall) => void) => {
    const head = queue[0];
    if (!head || head.messageId !== messageId) return; // late answer to a call that timed out
    queue.shift();
    head.timeout?.cancel();
    ok(head);
    sendNext();
  };

  const answer = async (messageId: string, action: string, payload: Payload) => {
    let reply: Reply | undefined;
    try {
      const t = options.translator?.incoming(action, payload);
      if (t && 'reply' in t) reply = { payload: t.reply };
      else {
        reply = await options.onCall(t ? t.action : action, t ? t.payload : payload, t !== undefined);
        if (t && reply) {
          const answered = reply;
          const calls = t.then?.(answered.payload) ?? [];
          reply = {
            payload: t.back(answered.payload),
            afterwards: () => {
              answered.afterwards?.();
              // Already in the wire's version: sent as they are, after the answer, in order.
              for (const c of calls) queue.push({ action: c.action, payload: c.payload, resolve: () => {}, reject: () => {} });
              if (calls.length) sendNext();
            },
          };
        }
      }
    } catch (err) {
      const e = err instanceof OcppError ? err : new OcppError('InternalError', err instanceof Error ? err.message : String(err));
      if (send([4, messageId, e.code, e.message, e.details]))
        onTraffic?.({ type: 'errorSent', action, messageId, code: e.code, description: e.message });
      return;
    }
    if (reply === undefined) return;
    if (send([3, messageId, reply.payload])) onTraffic?.({ type: 'replySent', action, messageId, payload: reply.payload });
    reply.afterwards?.();
  };

  const onMessage = (data: WebSocket.RawData) => {
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      onTraffic?.({ type: 'protocolError', description: 'frame is not JSON' });
      return;
    }
    if (!Array.isArray(frame) || typeof frame[1] !== 'string') {
      onTraffic?.({ type: 'protocolError', description: 'frame is not an OCPP-J message' });
      return;
    }
    const [type, messageId] = frame as [unknown, string];
    if (type === 2 && typeof frame[2] === 'string') {
      const action = frame[2];
      const payload = (frame[3] ?? {}) as Payload;
      onTraffic?.({ type: 'callReceived', action, messageId, payload });
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
        if (send([4, messageId, 'FormationViolation', 'payload is not an object', {}]))
          onTraffic?.({ type: 'errorSent', action, messageId, code: 'FormationViolation', description: 'payload is not an object' });
        return;
      }
      void answer(messageId, action, payload);
    } else if (type === 3) {
      settle(messageId, (call) => {
        const payload = (frame[2] ?? {}) as Payload;
        onTraffic?.({
          type: 'callResult',
          action: call.action,
          ...(call.of ? { of: call.of } : {}),
          messageId,
          payload,
          latencyMs: now() - call.sentAt!,
        });
        call.resolve(payload);
      });
    } else if (type === 4) {
      settle(messageId, (call) => {
        const code = String(frame[2] ?? 'GenericError');
        const description = String(frame[3] ?? '');
        onTraffic?.({
          type: 'callError',
          action: call.action,
          ...(call.of ? { of: call.of } : {}),
          messageId,
          code,
          description,
          latencyMs: now() - call.sentAt!,
        });
        call.reject(new OcppError(code, description, (frame[4] ?? {}) as Payload));
      });
    } else {
      onTraffic?.({ type: 'protocolError', description: `unknown message type ${String(type)}` });
    }
  };

  const failAll = () => {
    const calls = queue.splice(0);
    for (const call of calls) {
      call.timeout?.cancel();
      call.reject(new OfflineError(call.action));
    }
  };

  return {
    get isOpen() {
      return opened;
    },
    get hasSocket() {
      return ws !== undefined;
    },
    open({ url, protocol, headers, handshakeTimeoutMs, tls }) {
      if (ws) throw new Error('link already has a socket');
      let error: Error | undefined;
      const socket = new WebSocket(url, [protocol], {
        headers,
        perMessageDeflate: false,
        handshakeTimeout: handshakeTimeoutMs,
        maxPayload: MAX_FRAME_BYTES,
        ...tls,
      });
      ws = socket;
      socket.on('open', () => {
        if (socket.protocol !== protocol) {
          error = new Error(`server chose subprotocol "${socket.protocol}", not ${protocol}`);
          socket.close(1002, 'unsupported subprotocol');
          return;
        }
        opened = true;
        options.onOpen();
        sendNext();
      });
      socket.on('message', onMessage);
      socket.on('error', (err) => {
        error ??= err;
      });
      socket.on('close', (code, reason) => {
        if (ws === socket) ws = undefined;
        opened = false;
        failAll();
        options.onClose({ code, reason: reason.toString(), ...(error ? { error } : {}) });
      });
    },
    call(action, payload) {
      if (!opened) return Promise.reject(new OfflineError(action));
      const t = options.translator?.outgoing(action, payload);
      return new Promise<Payload>((resolve, reject) => {
        if (t) queue.push({ action: t.action, of: action, payload: t.payload, resolve: (p) => resolve(t.back(p)), reject });
        else queue.push({ action, payload, resolve, reject });
        sendNext();
      });
    },
    close(code = 1000, reason = '') {
      opened = false;
      failAll();
      ws?.close(code, reason);
    },
    terminate() {
      opened = false;
      failAll();
      ws?.terminate();
    },
    pendingCalls: () => queue.length,
  };
}
