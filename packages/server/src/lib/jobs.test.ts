import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/client.js';
import { startServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const queues = async () =>
  (
    (await s.database.db.execute(sql`select name, created_on from pgboss.queue where name like 'csms.%' order by name`)) as unknown as {
      rows: { name: string; created_on: Date }[];
    }
  ).rows.map((r) => ({ name: r.name, createdOn: new Date(r.created_on).toISOString() }));

describe('the job queues with the migrations', () => {
  it('creates a queue the database lacks (one a later version adds) and leaves the others as they were', async () => {
    const before = await queues();
    expect(before.map((q) => q.name)).toContain('csms.activityGrant');
    await s.database.db.execute(sql`delete from pgboss.job where name = 'csms.activityGrant'`);
    await s.database.db.execute(sql`select pgboss.delete_queue('csms.activityGrant')`);
    expect((await queues()).map((q) => q.name)).not.toContain('csms.activityGrant');

    await migrate(s.database);
    const after = await queues();
    expect(after.map((q) => q.name)).toEqual(before.map((q) => q.name));
    const unchanged = (list: typeof before) => list.filter((q) => q.name !== 'csms.activityGrant');
    expect(unchanged(after)).toEqual(unchanged(before));
  });
});
