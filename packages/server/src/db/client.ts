import fs from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { serverRoot } from '../config.js';
import { installJobSchema } from '../lib/jobs.js';
import { intoPlace } from './data-dir.mjs';
import { nameStatements, statementNames } from './named-statements.js';
import { UNNAMED } from './pipeline.js';
import { pgliteDir, startPgliteIn, startPgliteThread, type PgliteThread } from './pglite-thread.js';

/**
 * drizzle without its relational queries (`db.query.*`, which nothing here uses): given the schema, drizzle
 * builds a query builder for each of its 81 tables in every `db.transaction`'s object, a cost every billed
 * Stop paid (perf: 1.8 % of the main thread under billed transactions).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
const orm = (client: pg.Pool | pg.PoolClient): Db => drizzlePg(client) as unknown as Db;
/** The node-postgres pool under `db` (drizzle's `$client`), for what drizzle cannot send (src/db/pipeline.ts). */
export const poolOf = (db: Db): pg.Pool => (db as unknown as { $client: pg.Pool }).$client;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The node-postgres pool every query goes through (to PGlite's thread, or to a PostgreSQL server). */
  pool: pg.Pool;
  /** PGlite only: a copy of the whole data directory (test templates). */
  dumpDataDir?(): Promise<Blob>;
  /**
   * PGlite only: a meter of its thread. Each reading is the share of the time since the one before
   * (the first: since the meter was made) that the thread was busy, from 0 to 1.
   */
  busyMeter?(): () => number;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(serverRoot, 'drizzle');

/** Arbitrary constant: the advisory lock every node takes while it migrates. */
const MIGRATION_LOCK = 7_204_611;

/** How the server talks to its database. */
export interface PoolOptions {
  /**
   * Statements sent again and again are prepared on the server, parsed and planned once per
   * connection (src/db/named-statements.ts; the batch writer's, src/db/pipeline.ts). Default on;
   * `CSMS_DB_NAMED_STATEMENTS=false` for a pooler in transaction mode that does not carry prepared
   * statements between its connections.
   */
  namedStatements?: boolean;
}

/**
 * node-postgres's pool, except that a statement the database refused does not cost the connection:
 * pg-pool ends a client whose query failed, and PGlite's single connection would then race its own
 * reconnection (and PostgreSQL pay a new connection per refused write). A broken connection is
 * still dropped by the pool (`release` checks it).
 */
function createPool(config: pg.PoolConfig, { namedStatements = true }: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool(config);
  if (namedStatements) {
    const names = statementNames();
    pool.on('connect', (client) => nameStatements(client, names));
  } else (pool as unknown as { [UNNAMED]: boolean })[UNNAMED] = true;
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
export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob; cacheMb?: number } & PoolOptions = {}): Promise<Database> {
  const loadDataDir = opts.loadDataDir ? await opts.loadDataDir.arrayBuffer() : undefined;
  const { database, started } = pgliteDatabase(startPgliteThread({ dataDir: opts.dataDir, loadDataDir, cacheMb: opts.cacheMb }), opts);
  await started;
  return database;
}

/**
 * PGlite's thread as a database at once: its pool connects on the first statement, so nothing may be
 * sent before `started` settles. `instead`, when given, replaces a thread that fails to start with
 * another on the same socket (a first start's template that cannot be opened).
 */
function pgliteDatabase(
  first: PgliteThread,
  poolOptions: PoolOptions,
  instead?: (err: Error) => PgliteThread,
): { database: Database; started: Promise<void> } {
  const { socketDir } = first;
  let thread = first;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const started = (async () => {
    try {
      await first.started;
    } catch (err) {
      if (!instead) throw err;
      await first.worker.terminate();
      thread = instead(err as Error);
      await thread.started;
    }
    const { worker } = thread;
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
  })();
  started.catch(() => fs.rmSync(socketDir, { recursive: true, force: true }));
  const ask = (op: 'dump' | 'close') =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, op });
    });

  const pool = createPool(
    { host: socketDir, port: 5432, user: 'postgres', database: 'postgres', max: 1, idleTimeoutMillis: 0 },
    poolOptions,
  );
  pool.on('error', (err) => console.warn(`pglite: connection lost: ${err.message}`));
  // PGlite is one session, which outlives a connection: what a connection that broke left in it
  // (prepared statements, settings, advisory locks) would meet the next one, whose named statements
  // then failed with "prepared statement … already exists" until a restart. Each connection starts clean.
  pool.on('connect', (client) => void client.query('discard all').catch(() => {}));
  const db = orm(pool);
  let closed: Promise<void> | undefined;
  const database: Database = {
    db,
    pool,
    kind: 'pglite',
    dumpDataDir: async () => new Blob([(await ask('dump')) as ArrayBuffer]),
    busyMeter: () => {
      const { performance } = thread.worker;
      let last = performance.eventLoopUtilization();
      return () => {
        const now = performance.eventLoopUtilization();
        const { utilization } = performance.eventLoopUtilization(now, last);
        last = now;
        return utilization;
      };
    },
    close: () =>
      (closed ??= (async () => {
        await pool.end();
        const running = await started.then(
          () => true,
          () => false,
        );
        if (running) await ask('close');
        await thread.worker.terminate();
        fs.rmSync(socketDir, { recursive: true, force: true });
      })()),
  };
  return { database, started };
}

export function openPostgres(url: string, poolOptions: PoolOptions = {}): Database {
  const pool = createPool({ connectionString: url, max: 10 }, poolOptions);
  // An idle connection dropped by the server (restart, failover, admin kill) must not crash the
  // process: the pool replaces it on the next query.
  pool.on('error', (err) => console.warn(`postgres: idle connection lost: ${err.message}`));
  // No JIT compilation: our statements are short, and a plan whose estimated cost crosses
  // jit_above_cost (an OCPP-log count, a dashboard sum) spent 20–100 ms compiling before it ran
  // (bench/console-load.ts). Queued before any other statement of the connection; a server without
  // the setting keeps its own.
  pool.on('connect', (client) => void client.query('set jit = off').catch(() => {}));
  const db = orm(pool);
  return { db, pool, kind: 'postgres', close: () => pool.end() };
}

/** Apply the committed migrations, serialised across nodes by an advisory lock. */
export async function migrate(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder });
    // The job queue's own schema (pg-boss), versioned by the installed package.
    await installJobSchema(client);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

/** A database as it opens: `ready` settles once it is connected and migrated; nothing may be sent to it before. */
export interface Opening {
  database: Database;
  ready: Promise<void>;
}

/**
 * The server's database, opening: the PostgreSQL server at `databaseUrl`, else PGlite in `dataDir`
 * (`thread`: its thread when the caller started it already, see src/main.ts). A first start's PGlite
 * copies the build's migrated template (scripts/pglite-template.ts) instead of running PGlite's
 * initdb; a template that cannot be copied or opened is left, and the database created instead.
 */
export function beginDatabase(
  opts: {
    databaseUrl?: string;
    dataDir: string;
    template?: string;
    pgliteCacheMb?: number;
    thread?: PgliteThread;
  } & PoolOptions,
): Opening {
  if (opts.databaseUrl) {
    const database = openPostgres(opts.databaseUrl, opts);
    return { database, ready: migrate(database) };
  }
  const dir = pgliteDir(opts.dataDir);
  const thread = opts.thread ?? startPgliteIn(dir, { template: opts.template, cacheMb: opts.pgliteCacheMb });
  const { database, started } = pgliteDatabase(
    thread,
    opts,
    thread.fromTemplate
      ? (err) => {
          console.warn(`pglite: the build's template could not be loaded (${err.message}); creating the database instead`);
          fs.rmSync(dir, { recursive: true, force: true });
          return startPgliteThread({ dataDir: dir, cacheMb: opts.pgliteCacheMb, socketDir: thread.socketDir });
        }
      : undefined,
  );
  return { database, ready: started.then(() => migrate(database)) };
}

/** The database of `opening` once it is ready; closed again when it cannot be made ready. */
export async function opened({ database, ready }: Opening): Promise<Database> {
  try {
    await ready;
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
  return database;
}

/** The server's database, open and migrated (see beginDatabase). */
export const openDatabase = (opts: Parameters<typeof beginDatabase>[0]): Promise<Database> => opened(beginDatabase(opts));

/**
 * `database` with its statements held until `until` settles, and refused if it fails: the app is built
 * while the database opens and migrates, and nothing it sends runs before (src/start.ts). The same
 * pool, behind a proxy, so that drizzle still sees a pool (its transactions take one connection of it).
 */
export function waitingFor(database: Database, until: Promise<unknown>): Database {
  let open = false;
  const opened = until.then(() => {
    open = true;
  });
  opened.catch(() => {});
  const bound = new Map<PropertyKey, unknown>();
  const pool = new Proxy(database.pool, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let fn = bound.get(prop) as ((...args: unknown[]) => unknown) | undefined;
      if (!fn) bound.set(prop, (fn = (value as (...args: unknown[]) => unknown).bind(target)));
      if (open || (prop !== 'connect' && prop !== 'query')) return fn;
      const call = fn;
      return (...args: unknown[]) => opened.then(() => call(...args));
    },
  });
  return { ...database, pool, db: orm(pool) };
}

/**
 * Creates a migrated database in `dir` as a template for first starts (the build's, see
 * scripts/pglite-template.ts; `fill` adds to it), shut down cleanly. The template was a dump of a
 * running database: each first start then recovered it as after a crash, replaying the WAL of the
 * migrations (4.4 MB) and writing a checkpoint, ≈ 0.3 s of a 0.9–1.2 s start of PGlite.
 * It holds only the database the server uses (`postgres`): PostgreSQL's `template0` and `template1`
 * serve only CREATE DATABASE, which an embedded database never runs, and were 600 of its 1,482 files
 * and 14.5 of its 44 MB, copied by every first start.
 */
export function createTemplate(dir: string, fill?: (database: Database) => Promise<void>): Promise<void> {
  return intoPlace(dir, async (staging) => {
    const database = await openPglite({ dataDir: staging });
    try {
      await migrate(database);
      await fill?.(database);
      for (const name of ['template1', 'template0']) {
        await database.pool.query(`alter database ${name} is_template false`);
        await database.pool.query(`drop database ${name}`);
      }
    } finally {
      await database.close();
    }
  });
}
