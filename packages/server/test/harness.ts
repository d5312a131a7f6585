import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Code } from '@csms/contract';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { createIpcNode, createIpcRouter, type IpcChannel } from '../src/bus/ipc.js';
import type { Cluster } from '../src/bus/nats.js';
import { loadConfig, type Config } from '../src/config.js';
import { openPglite, openPostgres, type Database } from '../src/db/client.js';
import { seed } from '../src/db/seed.js';

export const ADMIN_PASSWORD = 'admin123';

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  [k: string]: unknown;
}

export interface TestServer {
  url: string;
  app: App;
  database: Database;
  config: Config;
  /** JSON call with the envelope back; `lang` sets X-Language. */
  call<T = unknown>(
    method: 'GET' | 'POST',
    p: string,
    opts?: { token?: string; body?: unknown; lang?: 'zh' | 'en'; headers?: Record<string, string> },
  ): Promise<Envelope<T>>;
  login(username?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  const template = inject('pgTemplate');
  if (url && template) {
    const name = `csms_t_${process.ppid}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = openPostgres(u.toString());
    return {
      database,
      drop: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const file = inject('pgliteTemplate');
  if (!file) throw new Error('global setup did not prepare a database template');
  const database = await openPglite({ loadDataDir: new Blob([fs.readFileSync(file)]) });
  return { database, drop: () => database.close() };
}

/**
 * A real server on a random loopback port with its own database, seeded with admin/admin123; or, with
 * `sharing`, a second node on another server's database (closing it leaves the database to its owner).
 */
export async function startServer(
  overrides: Partial<Config> = {},
  sharing?: TestServer,
  extra: { cluster?: Cluster } = {},
): Promise<TestServer> {
  const { database, drop } = sharing ? { database: sharing.database, drop: async () => {} } : await freshDatabase();
  if (!sharing) await seed(database.db, { adminPassword: ADMIN_PASSWORD });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-test-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      captcha: false,
      logLevel: 'warn',
      webDist: undefined,
      port: 0,
      host: '127.0.0.1',
      // No VACUUM or ANALYZE between a test's statements unless it asks (src/db/pglite-maintenance.test.ts does).
      pgliteVacuumSeconds: 0,
      ...overrides,
    },
  );
  const app = await buildApp({ config, database, cluster: extra.cluster });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const call: TestServer['call'] = async (method, p, opts = {}) => {
    const res = await fetch(url + '/prod-api' + p, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        'x-language': opts.lang ?? 'en',
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : method === 'POST' ? undefined : undefined,
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status} for ${method} ${p}`);
    return (await res.json()) as never;
  };

  return {
    url,
    app,
    database,
    config,
    call,
    async login(username = 'admin', password = ADMIN_PASSWORD) {
      const r = await call<{ token?: string }>('POST', '/web/login', { body: { username, password } });
      if (r.code !== Code.OK || !r.data?.token) throw new Error(`login failed: ${JSON.stringify(r)}`);
      return r.data.token;
    },
    async close() {
      await app.server.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The workers of one machine (CSMS_WORKERS without NATS_URL), in memory: each call is a node's cluster,
 * joined to the others by the primary's router. Nodes on one database need it (or NATS) to reach each
 * other's chargers, as in production.
 */
export function ipcWorkers(): (nodeId: string) => Cluster {
  const router = createIpcRouter();
  let workerId = 0;
  return (nodeId) => {
    const [worker, primary] = channelPair();
    router.attach(++workerId, primary);
    return createIpcNode(worker, { nodeId, commandTimeoutMs: 30_000 });
  };
}

/** Two ends of a channel that, like Node's IPC, deliver JSON copies later, in order. */
function channelPair(): [IpcChannel, IpcChannel] {
  const end = (peer: () => Set<(m: unknown) => void>, own: Set<(m: unknown) => void>): IpcChannel => ({
    send: (m) => {
      const copy = JSON.stringify(m);
      setImmediate(() => peer().forEach((fn) => fn(JSON.parse(copy))));
    },
    onMessage: (fn) => {
      own.add(fn);
      return () => own.delete(fn);
    },
  });
  const a = new Set<(m: unknown) => void>();
  const b = new Set<(m: unknown) => void>();
  return [end(() => b, a), end(() => a, b)];
}
