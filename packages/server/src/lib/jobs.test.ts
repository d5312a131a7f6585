import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/client.js';
import { createJobs, jobId } from './jobs.js';
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

describe('a stop', () => {
  it('waits for a job whose fetch was on its way when pg-boss looked, and sends nothing after it returns', async () => {
    // The app's own workers would take the job first.
    await s.app.jobs.stop();
    const real = s.database.pool;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let fetched!: () => void;
    const fetchedJob = new Promise<void>((resolve) => (fetched = resolve));
    let closed = false;
    const late: string[] = [];
    // The fetch that claims the job answers only when the test lets it; after the stop, the pool is "ended".
    const pool = {
      query: (text: string, values?: unknown[]) => {
        if (closed) {
          late.push(text.slice(0, 60));
          return Promise.reject(new Error('Cannot use a pool after calling end on the pool'));
        }
        return real.query(text, values).then(async (res) => {
          if (/SKIP LOCKED/i.test(text) && res.rows.length > 0) {
            fetched();
            await gate;
          }
          return res;
        });
      },
    } as unknown as pg.Pool;
    const errors: unknown[] = [];
    const jobs = createJobs({ pool, pollSeconds: 0.5, onError: (err) => errors.push(err) });
    const ran: unknown[] = [];
    jobs.work<{ id: number }>('activityGrant', async (data) => void ran.push(data));
    await jobs.start();
    await jobs.send('activityGrant', { id: 4242 }, { key: 'stop-test' });
    await fetchedJob;

    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
      closed = true;
    });
    // pg-boss decides on its next turns that it holds no job (the job's fetch has not answered); a stop
    // that trusted it would be over by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(ran).toEqual([{ id: 4242 }]);
    expect(late).toEqual([]);
    expect(errors).toEqual([]);
    const { rows } = (await s.database.db.execute(
      sql`select state from pgboss.job where name = 'csms.activityGrant' and id = ${jobId('activityGrant', 'stop-test')}`,
    )) as unknown as { rows: { state: string }[] };
    expect(rows).toEqual([{ state: 'completed' }]);
  });
});

describe('a job that fails', () => {
  it('is failed for the queue to retry, and leaves no unhandled rejection behind', async () => {
    // The app's own workers would take the job first.
    await s.app.jobs.stop();
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', listen);
    const jobs = createJobs({ pool: s.database.pool, pollSeconds: 0.5, onError: () => {} });
    jobs.work('activityGrant', async () => {
      throw new Error('refused on purpose');
    });
    try {
      await jobs.start();
      await jobs.send('activityGrant', { id: 4343 }, { key: 'failing-test' });
      const state = async () =>
        (
          (await s.database.db.execute(
            sql`select state from pgboss.job where name = 'csms.activityGrant' and id = ${jobId('activityGrant', 'failing-test')}`,
          )) as unknown as { rows: { state: string }[] }
        ).rows[0]?.state;
      await expect.poll(state, { timeout: 20_000 }).toBe('retry');
      // Whatever the failure set off has run by the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
      await jobs.stop();
    }
  });
});
