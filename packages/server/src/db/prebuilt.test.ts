import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { prebuilt } from './prebuilt.js';
import { provider } from './schema.js';
import { createUnitOfWork } from './unit-of-work.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.close());

it("runs the text built once on the connection it is given: a transaction's sees that transaction's own writes", async () => {
  const { db } = s.database;
  let builds = 0;
  const named = prebuilt(db, (d) => {
    builds++;
    return d
      .select({ id: provider.id, name: provider.name, createdAt: provider.createdAt })
      .from(provider)
      .where(eq(provider.name, sql.placeholder('name')));
  });
  const name = `prebuilt-${Date.now()}`;
  // Run on the pool, the read would not see the uncommitted row (PostgreSQL) or wait for ever (PGlite's one session).
  let inside: unknown[] = [];
  await expect(
    db.transaction(async (tx) => {
      await tx.insert(provider).values({ name, type: 'common' });
      inside = await named(tx, { name });
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(inside).toEqual([{ id: expect.any(Number), name, createdAt: expect.any(Date) }]);
  expect(await named(db, { name })).toEqual([]);
  await db.insert(provider).values({ name, type: 'common' });
  expect(await named(db, { name })).toHaveLength(1);

  // Through a unit of work's database, inside a unit: its transaction's connection.
  const uow = createUnitOfWork(db);
  const other = `${name}-uow`;
  await expect(
    uow.run(async () => {
      await uow.db.insert(provider).values({ name: other, type: 'common' });
      expect(await named(uow.db, { name: other })).toHaveLength(1);
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(await named(uow.db, { name: other })).toEqual([]);
  expect(builds).toBe(1);
});
