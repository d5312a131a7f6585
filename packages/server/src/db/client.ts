import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { serverRoot } from '../config.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const migrationsFolder = path.join(serverRoot, 'drizzle');

/** Arbitrary constant: the advisory lock every node takes while it migrates. */
const MIGRATION_LOCK = 7_204_611;

export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(opts.dataDir, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}

export function openPostgres(url: string): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server (restart, failover, admin kill) must not crash the
  // process: the pool replaces it on the next query.
  pool.on('error', (err) => console.warn(`postgres: idle connection lost: ${err.message}`));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, pool, kind: 'postgres', close: () => pool.end() };
}

/** Apply the committed migrations, serialised across nodes by an advisory lock. */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    const pool = (database as Database & { pool: pg.Pool }).pool;
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
    return;
  }
  await database.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await migratePglite(database.db as never, { migrationsFolder });
  } finally {
    await database.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  const database = opts.databaseUrl ? openPostgres(opts.databaseUrl) : await openPglite({ dataDir: path.join(opts.dataDir, 'pglite') });
  await migrate(database);
  return database;
}
