import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTemplate, openDatabase, openPglite, waitingFor, type Database } from './client.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-db-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const marker = async (database: Awaited<ReturnType<typeof openDatabase>>) =>
  (
    (await database.db.execute(sql`select count(*)::int as n from provider where name = 'from the template'`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n;

// PGlite only: the PostgreSQL pass (DATABASE_URL) has nothing here to test.
describe.skipIf(process.env.DATABASE_URL)('the embedded database in its own thread', { timeout: 120_000 }, () => {
  it("starts an empty data directory from the build's template, keeps what is written, and never loads the template again", async () => {
    // A template with a row no migration makes, so that its use shows; made as the build makes it.
    const template = path.join(dir, 'template');
    await createTemplate(template, async (source) => {
      await source.db.execute(sql`insert into provider (name, type) values ('from the template', 'common')`);
    });

    const dataDir = path.join(dir, 'data');
    const first = await openDatabase({ dataDir, template });
    expect(await marker(first)).toBe(1);
    // Only the server's own database is copied.
    const databases = (await first.db.execute(sql`select datname from pg_database order by datname`)) as unknown as {
      rows: { datname: string }[];
    };
    expect(databases.rows).toEqual([{ datname: 'postgres' }]);
    await first.db.execute(sql`insert into provider (name, type) values ('written after', 'common')`);
    await first.close();

    // A restart opens what is there: the row written after the start is kept, the template row not doubled.
    const again = await openDatabase({ dataDir, template });
    expect(await marker(again)).toBe(1);
    const after = (await again.db.execute(sql`select count(*)::int as n from provider where name = 'written after'`)) as unknown as {
      rows: { n: number }[];
    };
    expect(after.rows[0]!.n).toBe(1);
    await again.close();
  });

  it('creates the database itself when the template cannot be loaded', async () => {
    // A directory that is not a data directory (PG_VERSION missing): nothing of it is kept.
    const template = path.join(dir, 'broken');
    fs.mkdirSync(path.join(template, 'base'), { recursive: true });
    const database = await openDatabase({ dataDir: path.join(dir, 'data-broken'), template });
    expect(await marker(database)).toBe(0);
    await database.close();
    expect(fs.readdirSync(dir).filter((n) => n.includes('.unpacking-'))).toEqual([]);
  });

  it('answers statements the database refuses without losing its one connection, and starts a new connection clean', async () => {
    const database = await openDatabase({ dataDir: path.join(dir, 'data-errors'), template: path.join(dir, 'none') });
    await expect(database.db.execute(sql`select 1 / 0`)).rejects.toThrow();
    await expect(database.db.execute(sql`insert into provider (name, type) values (${'x'.repeat(500)}, 'common')`)).rejects.toThrow();
    const ok = (await database.db.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] };
    expect(ok.rows[0]!.two).toBe(2);
    // A connection that breaks: the one session stays, and the next connection may prepare the same names again.
    const named = { name: 'reconnect_probe', text: 'select $1::int as n', values: [3] };
    const first = await database.pool.connect();
    await first.query(named);
    // It breaks inside a transaction: the next connection must not find itself in it.
    await first.query('begin');
    await first.query(`insert into provider (name, type) values ('left in a transaction', 'common')`);
    first.release(true);
    // The thread takes the next connection once it has let go of the old one.
    let next: pg.PoolClient | undefined;
    for (const until = Date.now() + 10_000; !next;) {
      next = await database.pool.connect().catch((err: unknown) => {
        if (Date.now() > until) throw err;
        return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20));
      });
    }
    try {
      expect((await next.query(named)).rows).toEqual([{ n: 3 }]);
      expect((await next.query(`select count(*)::int as n from provider where name = 'left in a transaction'`)).rows).toEqual([{ n: 0 }]);
    } finally {
      next.release();
    }
    await database.close();
  });

  it('runs with the configured page cache, not the data directory’s 128 MB', async () => {
    const database = await openDatabase({ dataDir: path.join(dir, 'data-cache'), template: path.join(dir, 'none'), pgliteCacheMb: 24 });
    const shown = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
    expect(shown.rows[0]!.shared_buffers).toBe('24MB');
    await database.close();
  });

  describe('held until it is ready (the app built while the database opens)', () => {
    const open = () => openPglite({ loadDataDir: new Blob([fs.readFileSync(inject('pgliteTemplate')!)]) });
    const count = async (database: Database) =>
      ((await database.pool.query('select count(*)::int as n from held')) as { rows: { n: number }[] }).rows[0]!.n;

    it('runs nothing sent through it before, then all of it, a transaction on one connection', async () => {
      const database = await open();
      let release!: () => void;
      const held = waitingFor(database, new Promise<void>((resolve) => (release = resolve)));
      expect(held.pool).toBeInstanceOf(pg.Pool);
      await database.pool.query('create table held (n int)');
      const insert = held.db.execute(sql`insert into held values (1)`);
      const tx = held.db.transaction(async (t) => {
        await t.execute(sql`insert into held values (2)`);
        await t.execute(sql`insert into held values (3)`);
      });
      // Sent after them straight to the database, and answered first: they are held, not merely slow.
      expect(await count(database)).toBe(0);
      release();
      await Promise.all([insert, tx]);
      expect(await count(database)).toBe(3);
      expect(await count(held)).toBe(3);
      await database.close();
    });

    it('refuses what it holds when the database does not open', async () => {
      const database = await open();
      const held = waitingFor(database, Promise.reject(new Error('the template is broken')));
      await expect(held.pool.query('select 1')).rejects.toThrow('the template is broken');
      await expect(held.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: 'the template is broken' } });
      await database.close();
    });
  });
});
