import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { serverRoot } from '../config.js';
import { installJobSchema } from '../lib/jobs.js';
import { DEFAULT_PGLITE_CACHE_MB } from './pglite-cache.js';
import { templatePath } from './pglite-template.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The node-postgres pool every query goes through (to PGlite's thread, or to a PostgreSQL server). */
  pool: pg.Pool;
  /** PGlite only: a copy of the whole data directory (test templates). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(serverRoot, 'drizzle');

/** Arbitrary constant: the advisory lock every node takes while it migrates. */
const MIGRATION_LOCK = 7_204_611;

/**
 * node-postgres's pool, except that a statement the database refused does not cost the connection:
 * pg-pool ends a client whose query failed, and PGlite's single connection would then race its own
 * reconnection (and PostgreSQL pay a new connection per refused write). A broken connection is
 * still dropped by the pool (`release` checks it).
 */
function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.query = (async (...args: unknown[]) => {
    const client = await pool.connect();
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      client.release();
    }
  }) as pg.Pool['query'];
  return pool;
}

/**
 * PGlite in a worker thread (src/db/pglite-worker.mjs), reached over a Unix socket in a private
 * directory with node-postgres: the event loop that serves chargers and browsers never runs a
 * query, and PGlite takes the same code path as a PostgreSQL server. One connection, since PGlite
 * is one session: a transaction holds it and other queries wait, as PGlite's own lock made them.
 * A commit is written to its files before its answer leaves the worker, so killing the server (SIGKILL) loses nothing answered.
 * `cacheMb` is PostgreSQL's `shared_buffers` inside PGlite's WebAssembly memory, all of it resident
 * once started; pages beyond it are read from the operating system's file cache.
 */
export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob; cacheMb?: number } = {}): Promise<Database> {
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-pglite-'));
  const loadDataDir = opts.loadDataDir ? await opts.loadDataDir.arrayBuffer() : undefined;
  const worker = new Worker(path.join(serverRoot, 'src/db/pglite-worker.mjs'), {
    workerData: {
      dataDir: opts.dataDir,
      loadDataDir,
      cacheMb: opts.cacheMb ?? DEFAULT_PGLITE_CACHE_MB,
      socketPath: path.join(socketDir, '.s.PGSQL.5432'),
    },
    transferList: loadDataDir ? [loadDataDir] : [],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const started = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PGlite thread ended during start-up (exit ${code})`)));
    worker.once('message', () => resolve());
  });
  try {
    await started;
  } catch (err) {
    fs.rmSync(socketDir, { recursive: true, force: true });
    throw err;
  }
  // Only this start-up's listeners: a Worker keeps its own ('newListener' starts its port).
  worker.removeAllListeners('error').removeAllListeners('exit');
  worker.on('message', (m: { id: number; ok: boolean; value?: unknown; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) p?.resolve(m.value);
    else p?.reject(new Error(m.error));
  });
  worker.on('error', (err) => {
    console.error('PGlite thread failed:', err);
    failAll(err);
  });
  worker.on('exit', () => failAll(new Error('the PGlite thread has ended')));
  const ask = (op: 'dump' | 'close') =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op });
    });

  const pool = createPool({ host: socketDir, port: 5432, user: 'postgres', database: 'postgres', max: 1, idleTimeoutMillis: 0 });
  pool.on('error', (err) => console.warn(`pglite: connection lost: ${err.message}`));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let closed: Promise<void> | undefined;
  return {
    db,
    pool,
    kind: 'pglite',
    dumpDataDir: async () => new Blob([(await ask('dump')) as ArrayBuffer]),
    close: () =>
      (closed ??= (async () => {
        await pool.end();
        await ask('close');
        await worker.terminate();
        fs.rmSync(socketDir, { recursive: true, force: true });
      })()),
  };
}

export function openPostgres(url: string): Database {
  const pool = createPool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server (restart, failover, admin kill) must not crash the
  // process: the pool replaces it on the next query.
  pool.on('error', (err) => console.warn(`postgres: idle connection lost: ${err.message}`));
  // No JIT compilation: our statements are short, and a plan whose estimated cost crosses
  // jit_above_cost (an OCPP-log count, a dashboard sum) spent 20–100 ms compiling before it ran
  // (bench/console-load.ts). Queued before any other statement of the connection; a server without
  // the setting keeps its own.
  pool.on('connect', (client) => void client.query('set jit = off').catch(() => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, pool, kind: 'postgres', close: () => pool.end() };
}

/** Apply the committed migrations, serialised across nodes by an advisory lock. */
export async function migrate(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    // The job queue's own schema (pg-boss), versioned by the installed package.
    await installJobSchema(client);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  template?: string;
  pgliteCacheMb?: number;
}): Promise<Database> {
  const database = opts.databaseUrl
    ? openPostgres(opts.databaseUrl)
    : await openPgliteDir(path.join(opts.dataDir, 'pglite'), opts.template ?? templatePath(), opts.pgliteCacheMb);
  await migrate(database);
  return database;
}

/**
 * PGlite in `dataDir`; a first start copies the build's migrated template there (a data directory,
 * scripts/pglite-template.ts), or creates the database when there is none. Copied file by file with
 * the kernel's copy (`fs.cpSync`): 0.3–1.2 s for its 1,500 files and 45 MB, where unpacking the same
 * files from an archive through streams took 1.5 s (bench/startup.mjs). Loading it through PGlite
 * (`loadDataDir`) held the whole archive and its copies in memory (≈ 150 MB more than a restart).
 */
async function openPgliteDir(dataDir: string, template: string, cacheMb: number | undefined): Promise<Database> {
  const fresh = !fs.existsSync(dataDir) || fs.readdirSync(dataDir).length === 0;
  if (!fresh || !fs.existsSync(template)) return openPglite({ dataDir, cacheMb });
  try {
    await copyDataDir(template, dataDir);
    return await openPglite({ dataDir, cacheMb });
  } catch (err) {
    console.warn(`pglite: the build's template could not be loaded (${(err as Error).message}); creating the database instead`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return openPglite({ dataDir, cacheMb });
  }
}

/**
 * Fills `dir` (absent or empty) with a data directory: `fill` writes it beside `dir`, and it is renamed
 * into place once whole, so a crash halfway leaves no half database for the next start to open.
 */
async function intoPlace(dir: string, fill: (staging: string) => void | Promise<void>): Promise<void> {
  const parent = path.dirname(dir);
  fs.mkdirSync(parent, { recursive: true });
  for (const left of fs.readdirSync(parent)) {
    if (left.startsWith(`${path.basename(dir)}.unpacking-`)) fs.rmSync(path.join(parent, left), { recursive: true, force: true });
  }
  const staging = `${dir}.unpacking-${process.pid}`;
  try {
    await fill(staging);
    if (!fs.existsSync(path.join(staging, 'PG_VERSION'))) throw new Error('not a PostgreSQL data directory');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(staging, dir);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** Copies the data directory `template` into `dir` (see intoPlace). */
export function copyDataDir(template: string, dir: string): Promise<void> {
  return intoPlace(dir, (staging) => {
    if (!fs.statSync(template).isDirectory()) throw new Error(`${template} is not a directory`);
    fs.cpSync(template, staging, { recursive: true, errorOnExist: true, force: false });
    fs.chmodSync(staging, 0o700);
  });
}

/**
 * Creates a migrated database in `dir` as a template for first starts (the build's, see
 * scripts/pglite-template.ts; `fill` adds to it), shut down cleanly. The template was a dump of a
 * running database: each first start then recovered it as after a crash, replaying the WAL of the
 * migrations (4.4 MB) and writing a checkpoint, ≈ 0.3 s of a 0.9–1.2 s start of PGlite.
 */
export function createTemplate(dir: string, fill?: (database: Database) => Promise<void>): Promise<void> {
  return intoPlace(dir, async (staging) => {
    const database = await openPglite({ dataDir: staging });
    try {
      await migrate(database);
      await fill?.(database);
    } finally {
      await database.close();
    }
  });
}
