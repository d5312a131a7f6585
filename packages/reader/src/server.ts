import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isLoopbackHost, normaliseOrigin, originAllowed } from './origin.js';
import { createKeyboardSource } from './sources/keyboard.js';
import { createPcscSource, type PcscModule } from './sources/pcsc.js';
import { createSimulatedSource, type SimulatedSource } from './sources/simulated.js';
import type { CardSource, Log, ReadOutcome } from './sources/source.js';
import type { WedgeFormat } from './uid.js';

export type ReaderMode = 'simulated' | 'keyboard' | 'pcsc';
export const readerModes: readonly ReaderMode[] = ['simulated', 'keyboard', 'pcsc'];

/** The console asks `{type:'read'}` (optionally with how long it will wait); see DESIGN.md §9. */
export type ReaderRequest = { type: 'read'; timeoutMs?: number };
export type ReaderReply = { type: 'card'; uid: string } | { type: 'error'; code: 'noDriver' | 'noCard' | 'badRequest'; detail?: string };

export const DEFAULT_PORT = 8989;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The longest a request may ask the companion to wait for a card. */
export const MAX_TIMEOUT_MS = 120_000;

export interface SourceOptions {
  /** simulated: the UIDs to answer with in turn; `'random'` (default) makes one up per read; `[]` answers noCard. */
  uids?: readonly string[] | 'random';
  /** simulated: a file of UIDs, one a line, read again on every request. */
  uidFile?: string;
  /** keyboard: where the wedge's lines come from (default: stdin). */
  input?: Readable;
  /** keyboard: how the wedge prints UIDs (default hex). */
  wedgeFormat?: WedgeFormat;
  /** pcsc: how nfc-pcsc is loaded (tests replace it). */
  loadPcsc?: () => Promise<PcscModule>;
}

export interface ReaderServerOptions extends SourceOptions {
  mode: ReaderMode;
  /** Default 8989; 0 picks a free port. */
  port?: number;
  /** A loopback address; default 127.0.0.1. */
  host?: string;
  /** Longest wait for a card in keyboard and pcsc modes (default 10 s); a request may ask for less. */
  timeoutMs?: number;
  /** Origins allowed besides this computer's own (see origin.ts); `'*'` allows every page. */
  origins?: readonly string[];
  log?: Log;
}

export interface ReaderServer {
  readonly port: number;
  readonly url: string;
  readonly mode: ReaderMode;
  /** Switches the card source; the previous one is closed (pending reads answer noCard). */
  setMode(mode: ReaderMode, options?: SourceOptions): Promise<void>;
  /** simulated mode only: the UIDs to answer with from now on. */
  setUids(uids: readonly string[] | 'random'): void;
  close(): Promise<void>;
}

export function createSource(mode: ReaderMode, options: SourceOptions, log: Log): CardSource {
  if (mode === 'simulated') return createSimulatedSource({ uids: options.uids, file: options.uidFile, log });
  if (mode === 'keyboard') return createKeyboardSource({ input: options.input ?? process.stdin, format: options.wedgeFormat, log });
  return createPcscSource({ load: options.loadPcsc, log });
}

/** Parses one frame; a string says what is wrong with it. */
export function parseRequest(data: RawData, isBinary: boolean): ReaderRequest | string {
  if (isBinary) return 'binary frames are not understood; send JSON text';
  let value: unknown;
  try {
    value = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object';
  const { type, timeoutMs } = value as Record<string, unknown>;
  if (type !== 'read') return `unknown message type ${JSON.stringify(type ?? null)}; expected "read"`;
  if (timeoutMs === undefined) return { type };
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    return `timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS}`;
  }
  return { type, timeoutMs };
}

function reply(outcome: ReadOutcome): ReaderReply {
  return 'uid' in outcome ? { type: 'card', uid: outcome.uid } : { type: 'error', code: outcome.error, detail: outcome.detail };
}

/** Starts the companion: a WebSocket server on loopback that answers each `read` from the card source. */
export async function startReaderServer(options: ReaderServerOptions): Promise<ReaderServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`the companion listens on this computer only; "${host}" is not a loopback address`);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const origins = (options.origins ?? []).map(normaliseOrigin);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let mode = options.mode;
  let source = createSource(mode, options, log);

  const wss = new WebSocketServer({
    host,
    port: options.port ?? DEFAULT_PORT,
    maxPayload: 4096,
    verifyClient: (info, done) => {
      const origin = info.origin || info.req.headers.origin || undefined;
      if (originAllowed(origin, origins)) return done(true);
      log(`refused a connection from ${origin}: start the companion with --origin ${origin} to allow it`);
      done(false, 403, 'Origin not allowed');
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
  } catch (err) {
    await source.close();
    throw err;
  }
  // After start-up, a server error (rare) is reported, never thrown.
  wss.on('error', (err) => log(`server error: ${err.message}`));

  wss.on('connection', (ws: WebSocket) => {
    const pending = new Set<AbortController>();
    const send = (message: ReaderReply) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    ws.on('message', (data, isBinary) => {
      const request = parseRequest(data, isBinary);
      if (typeof request === 'string') return send({ type: 'error', code: 'badRequest', detail: request });
      const controller = new AbortController();
      pending.add(controller);
      const wait = Math.min(request.timeoutMs ?? timeoutMs, timeoutMs);
      source
        .read(wait, controller.signal)
        .catch((err: Error): ReadOutcome => ({ error: 'noDriver', detail: `reader failure: ${err.message}` }))
        .then((outcome) => {
          pending.delete(controller);
          if ('uid' in outcome) log(`read ${outcome.uid}`);
          send(reply(outcome));
        });
    });
    ws.on('close', () => pending.forEach((c) => c.abort()));
    ws.on('error', (err) => log(`connection error: ${err.message}`));
  });

  const port = (wss.address() as AddressInfo).port;
  return {
    port,
    url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}`,
    get mode() {
      return mode;
    },
    async setMode(next, sourceOptions = {}) {
      const previous = source;
      source = createSource(next, { ...options, ...sourceOptions }, log);
      mode = next;
      await previous.close();
    },
    setUids(uids) {
      if (mode !== 'simulated') throw new Error('setUids works in simulated mode only');
      (source as SimulatedSource).setUids(uids);
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await source.close();
    },
  };
}
