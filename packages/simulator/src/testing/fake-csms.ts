import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A small central system for the simulator's tests: a `ws` server on 127.0.0.1 that speaks
 * OCPP-J 1.6, answers what charge points send, sends commands, records every frame, and
 * checks every payload against OCA's JSON schemas (ocpp-rpc's copy).
 */

type Payload = Record<string, unknown>;
export interface Received {
  serial: string;
  action: string;
  payload: Payload;
  messageId: string;
}

export interface FakeCsmsOptions {
  /** Answer to BootNotification (default Accepted, interval 300). */
  boot?: (serial: string, n: number) => { status: 'Accepted' | 'Pending' | 'Rejected'; interval: number };
  /** Authorization status of an idTag (default Accepted). */
  authorize?: (idTag: string) => string;
  /** Replaces the default answer of an action; throw `{ code }` to answer with a CALLERROR, return null to stay silent. */
  answers?: Record<string, (payload: Payload, serial: string) => Payload | null>;
}

const require = createRequire(import.meta.url);
const schemas = require('ocpp-rpc/lib/schemas/ocpp1_6.json') as { $id: string }[];
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
// multipleOf checked to 6 decimals, as the server does: 0.3 / 0.1 is not an integer in binary floating point.
const ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 6 });
addFormats(ajv);
// Registered by name: ajv's URI library cannot serialise OCA's `urn:Action.req` ids.
for (const { $id, ...schema } of schemas) ajv.addSchema(schema, $id.replace(/^urn:/, ''));
const validators = new Map<string, ValidateFunction>();
/** Errors of `payload` against OCA's `<Action>.req|conf`, or null when valid. */
export function schemaErrors(id: string, payload: unknown): string | null {
  let v = validators.get(id);
  if (!v) {
    v = ajv.getSchema(id);
    if (!v) return `no schema ${id}`;
    validators.set(id, v);
  }
  return v(payload) ? null : ajv.errorsText(v.errors);
}

export async function startFakeCsms(options: FakeCsmsOptions = {}) {
  const received: Received[] = [];
  const invalid: string[] = [];
  const sockets = new Map<string, WebSocket>();
  const authHeaders = new Map<string, string | undefined>();
  const pending = new Map<string, { action: string; resolve: (r: { result?: Payload; error?: string }) => void }>();
  const boots = new Map<string, number>();
  let listeners: (() => void)[] = [];
  let seq = 0;
  let txSeq = 100;

  const defaults: Record<string, (payload: Payload, serial: string) => Payload> = {
    BootNotification: (_p, serial) => {
      const n = (boots.get(serial) ?? 0) + 1;
      boots.set(serial, n);
      return { ...(options.boot?.(serial, n) ?? { status: 'Accepted', interval: 300 }), currentTime: new Date().toISOString() };
    },
    Heartbeat: () => ({ currentTime: new Date().toISOString() }),
    Authorize: (p) => ({ idTagInfo: { status: options.authorize?.(p.idTag as string) ?? 'Accepted' } }),
    StartTransaction: (p) => ({ transactionId: ++txSeq, idTagInfo: { status: options.authorize?.(p.idTag as string) ?? 'Accepted' } }),
    StopTransaction: () => ({ idTagInfo: { status: 'Accepted' } }),
    DataTransfer: () => ({ status: 'Accepted' }),
  };

  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (protocols) => (protocols.has('ocpp1.6') ? 'ocpp1.6' : false),
  });
  wss.on('connection', (ws, req) => {
    const serial = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    sockets.set(serial, ws);
    authHeaders.set(serial, req.headers.authorization);
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as unknown[];
      const [type, messageId] = frame as [number, string];
      if (type === 2) {
        const action = frame[2] as string;
        const payload = frame[3] as Payload;
        const err = schemaErrors(`${action}.req`, payload);
        if (err) invalid.push(`${serial} ${action}.req: ${err}`);
        received.push({ serial, action, payload, messageId });
        try {
          const answer = (options.answers?.[action] ?? defaults[action] ?? (() => ({})))(payload, serial);
          if (answer !== null) ws.send(JSON.stringify([3, messageId, answer]));
        } catch (e) {
          ws.send(JSON.stringify([4, messageId, (e as { code?: string }).code ?? 'InternalError', String(e), {}]));
        }
        const current = listeners;
        listeners = [];
        current.forEach((l) => l());
      } else {
        const call = pending.get(messageId);
        if (!call) return;
        pending.delete(messageId);
        if (type === 3) {
          const err = schemaErrors(`${call.action}.conf`, frame[2]);
          if (err) invalid.push(`${serial} ${call.action}.conf: ${err}`);
          call.resolve({ result: frame[2] as Payload });
        } else call.resolve({ error: frame[2] as string });
      }
    });
    ws.on('close', () => {
      if (sockets.get(serial) === ws) sockets.delete(serial);
    });
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as AddressInfo).port;

  const find = (serial: string, action: string, match?: (p: Payload) => boolean, from = 0) =>
    received.slice(from).find((r) => r.serial === serial && r.action === action && (!match || match(r.payload)));

  return {
    url: `ws://127.0.0.1:${port}/ocpp`,
    received,
    /** Schema violations seen so far (requests from points and their answers to our calls). */
    invalid,
    authHeaders,
    isConnected: (serial: string) => sockets.has(serial),
    of: (serial: string, action?: string) => received.filter((r) => r.serial === serial && (!action || r.action === action)),
    /** Resolves with the first message (at or after index `from`) that matches. */
    waitFor(serial: string, action: string, match?: (p: Payload) => boolean, from = 0): Promise<Received> {
      return new Promise((resolve) => {
        const check = () => {
          const hit = find(serial, action, match, from);
          if (hit) resolve(hit);
          else listeners.push(check);
        };
        check();
      });
    },
    /** Sends a CALL to a point; resolves with its CALLRESULT payload or CALLERROR code. */
    call(serial: string, action: string, payload: Payload): Promise<{ result?: Payload; error?: string }> {
      const ws = sockets.get(serial);
      if (!ws) throw new Error(`${serial} is not connected`);
      const messageId = `csms-${++seq}`;
      return new Promise((resolve) => {
        pending.set(messageId, { action, resolve });
        ws.send(JSON.stringify([2, messageId, action, payload]));
      });
    },
    /** Sends a raw frame to a point. */
    raw(serial: string, text: string) {
      sockets.get(serial)?.send(text);
    },
    /** Drops a point's socket from the server side. */
    drop(serial: string) {
      sockets.get(serial)?.terminate();
    },
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

export type FakeCsms = Awaited<ReturnType<typeof startFakeCsms>>;
