import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import { WebSocket, type ClientOptions } from 'ws';
import type { Db } from '../../src/db/client.js';
import { chargePoint, connector, station } from '../../src/db/schema.js';
import { generateOcppKey, hashOcppKey } from '../../src/ocpp/keys.js';

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

/** A station and a point with connectors 1..`connectors` and an OCPP key (returned in clear). */
export async function createPoint(
  db: Db,
  opts: {
    providerId?: number;
    stationId?: number;
    connectors?: number;
    key?: boolean;
    enabled?: boolean;
    ratedPowerW?: number;
    timeZone?: string;
  } = {},
) {
  const providerId = opts.providerId ?? 1;
  let stationId = opts.stationId;
  if (stationId === undefined) {
    const [s] = await db
      .insert(station)
      .values({
        providerId,
        name: uniq('station'),
        country: 'CN',
        address: 'x',
        longitude: 121.47,
        latitude: 31.23,
        timeZone: opts.timeZone ?? 'Asia/Shanghai',
      })
      .returning();
    stationId = s!.id;
  }
  const key = opts.key === false ? null : generateOcppKey();
  const serialNumber = uniq('CP');
  const [p] = await db
    .insert(chargePoint)
    .values({
      providerId,
      stationId,
      serialNumber,
      name: serialNumber,
      equipmentType: 'dc',
      ratedPowerW: opts.ratedPowerW ?? 60_000,
      ocppKeyHash: key ? hashOcppKey(key) : null,
      enabled: opts.enabled ?? true,
    })
    .returning();
  const count = opts.connectors ?? 2;
  if (count > 0) {
    await db
      .insert(connector)
      .values(
        Array.from({ length: count }, (_, i) => ({ chargePointId: p!.id, connectorNo: i + 1, standard: 'dc' as const, type: 'CCS2' })),
      );
  }
  return { point: p!, stationId, providerId, serialNumber, key };
}

export type Message = [number, string, ...unknown[]];

/** A bare OCPP-J client over `ws`: enough to speak to the server, nothing like the simulator. */
export class TestCharger {
  private seq = 0;
  private waiting = new Map<string, (m: Message) => void>();
  readonly received: Message[] = [];
  readonly raw: string[] = [];
  private rawWaiters: ((t: string) => void)[] = [];
  /** Answers the server's CALLs; by default `{ status: 'Accepted' }`. */
  onCall: (action: string, payload: Record<string, unknown>, id: string) => unknown = () => ({ status: 'Accepted' });
  closeCode: number | undefined;
  readonly closed: Promise<number>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = String(data);
      this.raw.push(text);
      this.rawWaiters.shift()?.(text);
      let m: Message;
      try {
        m = JSON.parse(text) as Message;
      } catch {
        return;
      }
      this.received.push(m);
      if (m[0] === 2) {
        const reply = this.onCall(m[2] as string, m[3] as Record<string, unknown>, m[1]);
        if (reply !== undefined) ws.send(JSON.stringify(Array.isArray(reply) ? reply : [3, m[1], reply]));
        return;
      }
      this.waiting.get(m[1])?.(m);
      this.waiting.delete(m[1]);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve((this.closeCode = code))));
  }

  static url(base: string, serialNumber: string) {
    return `${base.replace(/^http/, 'ws')}/ocpp/${encodeURIComponent(serialNumber)}`;
  }

  /** Opens a connection; rejects with the HTTP status when the server refuses the upgrade. */
  static connect(
    base: string,
    serialNumber: string,
    opts: { key?: string | null; user?: string; protocols?: string[]; options?: ClientOptions; path?: string } = {},
  ): Promise<TestCharger> {
    const headers: Record<string, string> = {};
    if (opts.key) headers.authorization = `Basic ${Buffer.from(`${opts.user ?? serialNumber}:${opts.key}`).toString('base64')}`;
    const url = opts.path ? `${base.replace(/^http/, 'ws')}${opts.path}` : TestCharger.url(base, serialNumber);
    const ws = new WebSocket(url, opts.protocols ?? ['ocpp1.6'], { headers, ...opts.options });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestCharger(ws)));
      ws.once('unexpected-response', (_req, res) => {
        reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
        ws.terminate();
      });
      ws.once('error', (err) => reject(err));
    });
  }

  /** A CALL; resolves with the CALLRESULT or CALLERROR frame. */
  call(action: string, payload: unknown, id = `t${++this.seq}`): Promise<Message> {
    return this.sendRaw(JSON.stringify([2, id, action, payload]), id);
  }

  /** Sends any text; resolves with the response carrying `id`, or (no id) with the next message. */
  sendRaw(text: string, id?: string): Promise<Message> {
    const p = id
      ? new Promise<Message>((resolve) => this.waiting.set(id, resolve))
      : new Promise<Message>((resolve) => this.rawWaiters.push((t) => resolve(JSON.parse(t) as Message)));
    this.ws.send(text);
    return p;
  }

  /** The CALLRESULT payload; fails the test on a CALLERROR. */
  async ok<T = Record<string, unknown>>(action: string, payload: unknown): Promise<T> {
    const m = await this.call(action, payload);
    if (m[0] !== 3) throw new Error(`${action} answered ${JSON.stringify(m)}`);
    return m[2] as T;
  }

  close(code = 1000): Promise<number> {
    this.ws.close(code);
    return this.closed;
  }
}

/** The same OCA schemas, compiled independently of the server's validator, to check its replies. */
export function replySchemas(file: 'ocpp1_6' | 'ocpp2_0_1' = 'ocpp1_6'): (action: string, payload: unknown) => boolean {
  const require = createRequire(import.meta.url);
  const schemas = require(`ocpp-rpc/lib/schemas/${file}.json`) as { $id: string }[];
  const ajv = new Ajv({ strict: false });
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)) && /T.*(Z|[+-]\d\d:?\d\d)$/.test(s));
  ajv.addFormat('uri', () => true);
  const fns = new Map<string, ValidateFunction>();
  for (const { $id, ...s } of schemas) fns.set($id, ajv.compile(s));
  return (action, payload) => {
    const fn = fns.get(`urn:${action}.conf`);
    if (!fn) throw new Error(`no schema for ${action}`);
    return fn(payload) as boolean;
  };
}

/**
 * Polls until `fn` returns a truthy value (the log and last-seen writes are batched). The limit is
 * time, not a number of tries: on a busy machine each try takes longer, and a condition that
 * never comes still fails, after `timeoutMs`.
 */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (performance.now() > deadline) throw new Error(`condition not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const iso = (d = new Date()) => d.toISOString();
