import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { boundedCount, estimateRows, pageTotal } from './bounded-count.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.database.db.execute(sql`create table bounded_probe (id serial primary key, even boolean not null)`);
  await s.database.db.execute(sql`insert into bounded_probe (even) select g % 2 = 0 from generate_series(1, 200) g`);
  await s.database.db.execute(sql`analyze bounded_probe`);
});
afterAll(() => s.close());

const probe = (where = sql`true`) => sql`select id from bounded_probe where ${where}`;

describe('list totals', () => {
  it('counts exactly up to the limit', async () => {
    const { db } = s.database;
    expect(await boundedCount(db, probe(), 200)).toEqual({ total: 200 });
    expect(await boundedCount(db, probe(sql`even`), 100)).toEqual({ total: 100 });
    expect(await boundedCount(db, probe(sql`false`))).toEqual({ total: 0 });
  });

  it("past the limit, gives the planner's estimate, never below the limit + 1, and says so", async () => {
    const { db } = s.database;
    const all = await boundedCount(db, probe(), 50);
    expect(all.totalEstimated).toBe(true);
    // Statistics of 200 rows: the estimate of the whole table is exact.
    expect(all.total).toBe(200);
    expect(await estimateRows(db, probe())).toBe(200);
    // However low the estimate, the pages up to the limit stay reachable.
    // 29 rows match; the planner guesses an expression's selectivity (0.5 %: one row).
    expect(await estimateRows(db, probe(sql`id % 7 = 3`))).toBeLessThan(20);
    expect(await boundedCount(db, probe(sql`id % 7 = 3`), 20)).toEqual({ total: 21, totalEstimated: true });
  });

  it('takes the total of a short page from the page itself, and counts a full or empty page', async () => {
    const { db } = s.database;
    // Not run: a short page is the last one.
    const failing = sql`select 1 / 0 as id`;
    expect(await pageTotal(db, { offset: 40, size: 20, rows: 7 }, failing)).toEqual({ total: 47 });
    expect(await pageTotal(db, { offset: 0, size: 20, rows: 0 }, failing)).toEqual({ total: 0 });
    // A full page, or an empty one past the end, is counted.
    expect(await pageTotal(db, { offset: 0, size: 10, rows: 10 }, probe(sql`even`))).toEqual({ total: 100 });
    expect(await pageTotal(db, { offset: 500, size: 10, rows: 0 }, probe(sql`even`))).toEqual({ total: 100 });
  });

  it.skipIf(!process.env.DATABASE_URL)('runs without JIT compilation on a PostgreSQL server', async () => {
    const res = (await s.database.db.execute(sql`show jit`)) as unknown as { rows: { jit: string }[] };
    expect(res.rows[0]!.jit).toBe('off');
  });
});
