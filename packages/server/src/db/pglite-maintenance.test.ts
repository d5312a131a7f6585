import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../test/harness.js';
import { eventually } from '../../test/ocpp/support.js';
import { openPglite, type Database } from './client.js';
import { AUTOVACUUM, createPgliteMaintenance, dueWork, type MaintenanceRun, type TableCounters } from './pglite-maintenance.js';

const table = (over: Partial<TableCounters>): TableCounters => ({
  deadRows: 0,
  insertedSinceVacuum: 0,
  changedSinceAnalyze: 0,
  rows: 10_000,
  xidAge: 1_000,
  sinceVacuum: Infinity,
  sinceAnalyze: Infinity,
  ...over,
});
const work = (t: Partial<TableCounters>) => dueWork(table(t))?.work;

describe("autovacuum's rules, paced for PGlite's one session", () => {
  it('vacuums past 50 + 20 % dead rows, 1,000 + 20 % inserted rows (at most 20,000), or a 150-million-old unfrozen transaction; analyzes past 50 + 10 % changed', () => {
    expect(work({})).toBeUndefined();
    expect(work({ deadRows: 2_050 })).toBeUndefined();
    expect(work({ deadRows: 2_051 })).toBe('vacuum');
    expect(work({ insertedSinceVacuum: 3_000 })).toBeUndefined();
    expect(work({ insertedSinceVacuum: 3_001 })).toBe('vacuum');
    // A large append-only table: its 20 % would be 2,000,000 rows for one VACUUM.
    expect(work({ rows: 10_000_000, insertedSinceVacuum: 20_001 })).toBe('vacuum');
    expect(work({ xidAge: AUTOVACUUM.freezeAge + 1 })).toBe('vacuum');
    expect(work({ changedSinceAnalyze: 1_050 })).toBeUndefined();
    expect(work({ changedSinceAnalyze: 1_051 })).toBe('analyze');
    // VACUUM first; the ANALYZE is due at a later tick.
    expect(work({ deadRows: 2_051, changedSinceAnalyze: 1_051 })).toBe('vacuum');
    // A table never vacuumed nor analyzed counts as empty (reltuples -1).
    expect(work({ rows: -1, changedSinceAnalyze: 51 })).toBe('analyze');
    expect(dueWork(table({ deadRows: 4_100 }))!.urgency).toBeCloseTo(2, 1);
  });

  it('vacuums a table at most once a minute and analyzes it at most once in ten, except against wraparound', () => {
    expect(work({ deadRows: 5_000, sinceVacuum: 59 })).toBeUndefined();
    expect(work({ deadRows: 5_000, sinceVacuum: 60 })).toBe('vacuum');
    expect(work({ xidAge: AUTOVACUUM.freezeAge + 1, sinceVacuum: 1 })).toBe('vacuum');
    expect(work({ changedSinceAnalyze: 5_000, sinceAnalyze: 599 })).toBeUndefined();
    expect(work({ changedSinceAnalyze: 5_000, sinceAnalyze: 600 })).toBe('analyze');
  });
});

// PGlite only: on PostgreSQL its own autovacuum does this, and the server leaves it to it.
describe.skipIf(process.env.DATABASE_URL)('vacuum on PGlite', { timeout: 120_000 }, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite();
  });
  afterAll(() => database.close());

  // A session sends its counters to the statistics at most once a second, unless told to at its next idle moment.
  const flushed = () => database.pool.query('select pg_stat_force_next_flush()');
  const stats = async (name: string) =>
    (await flushed(),
    await database.pool.query<{ dead: number; vacuumed: string | null; analyzed: string | null }>(
      `select n_dead_tup::int as dead, last_vacuum::text as vacuumed, last_analyze::text as analyzed
         from pg_stat_user_tables where relname = $1`,
      [name],
    )).rows[0]!;

  it('runs one statement a tick, the most urgent first, until nothing is due; the tables under the thresholds are left alone', async () => {
    const q = (text: string) => database.pool.query(text);
    // churn: 2,000 rows updated three times (6,000 dead rows, 15 times its threshold); calm: the same size, one row updated.
    for (const name of ['churn', 'calm']) {
      await q(`create table ${name} (id int primary key, status varchar not null)`);
      await q(`create index on ${name} (status)`);
      await q(`insert into ${name} select g, 'a' from generate_series(1, 2000) g`);
    }
    // Counted before the vacuum, so that it resets them.
    await flushed();
    await q('vacuum (analyze) churn, calm');
    for (const status of ['b', 'c', 'd']) await q(`update churn set status = '${status}'`);
    await q(`update calm set status = 'b' where id = 1`);
    // appended: only inserts, 5,000 (5 times its threshold).
    await q('create table appended (id int)');
    await q('insert into appended select g from generate_series(1, 5000) g');
    const before = { churn: await stats('churn'), calm: await stats('calm') };
    expect(before.churn.dead).toBeGreaterThan(4_000);

    const logged: MaintenanceRun[] = [];
    const maintenance = createPgliteMaintenance({
      pool: database.pool,
      intervalMs: 0,
      onRun: (run) => logged.push(run),
      onError: (err) => {
        throw err;
      },
      // This test does not wait a minute between two statements on one table.
      rules: { ...AUTOVACUUM, vacuumEverySeconds: 0, analyzeEverySeconds: 0 },
    });
    const runs: string[] = [];
    for (;;) {
      await flushed();
      const run = await maintenance.runOnce();
      if (!run) break;
      expect(run).toEqual(logged.at(-1));
      runs.push(`${run.work} ${run.table}`);
      expect(runs.length).toBeLessThan(200);
    }
    const ours = runs.filter((r) => /\.(churn|calm|appended)$/.test(r));
    // churn's VACUUM is 13 times due (6,000 dead of 50 + 400), its ANALYZE then 24 times (6,000 changed of 50 + 200);
    // appended's VACUUM 5 times (5,000 of 1,000), before its ANALYZE.
    expect(ours).toEqual(['vacuum public.churn', 'analyze public.churn', 'vacuum public.appended', 'analyze public.appended']);
    const churn = await stats('churn');
    expect(churn.dead).toBe(0);
    expect(churn.vacuumed).not.toBe(before.churn.vacuumed);
    expect(churn.analyzed).not.toBe(before.churn.analyzed);
    expect(await stats('calm')).toEqual(before.calm);
    // Sampled at PGlite's smaller target: 10 buckets of the 5,000 ids.
    const histogram = await database.pool.query<{ bounds: number }>(
      `select array_length(histogram_bounds::text::int[], 1) as bounds from pg_stats where tablename = 'appended' and attname = 'id'`,
    );
    expect(histogram.rows).toEqual([{ bounds: AUTOVACUUM.statisticsTarget + 1 }]);
    // SET LOCAL: the session's own target is back to PostgreSQL's.
    expect((await database.pool.query('show default_statistics_target')).rows).toEqual([{ default_statistics_target: '100' }]);
    await maintenance.stop();
  });

  it("measures its thread's busy share; a tick after a busy one waits for a quiet one, at most waitAtMostSeconds", async () => {
    const meter = database.busyMeter!();
    await database.pool.query('select count(*) from generate_series(1, 500000)');
    expect(meter()).toBeGreaterThan(AUTOVACUUM.busyAbove);
    await new Promise((r) => setTimeout(r, 200));
    expect(meter()).toBeLessThan(AUTOVACUUM.busyAbove);

    const q = (text: string) => database.pool.query(text);
    await q('create table waits (id int primary key, n int not null)');
    await q('insert into waits select g, 0 from generate_series(1, 1000) g');
    await q('update waits set n = 1');
    let share = 0.9;
    const maintenance = (rules: Partial<typeof AUTOVACUUM>) =>
      createPgliteMaintenance({
        pool: database.pool,
        intervalMs: 0,
        busyMeter: () => () => share,
        onError: (err) => {
          throw err;
        },
        rules: { ...AUTOVACUUM, vacuumEverySeconds: 0, analyzeEverySeconds: 0, ...rules },
      });
    // A busy tick does nothing, not even read the counters.
    const busyTicks = async (m: ReturnType<typeof maintenance>) => {
      for (let i = 0; i < 3; i++) expect(await m.runOnce()).toBeUndefined();
    };
    // Busy: it waits; quiet: the most urgent runs at once.
    const patient = maintenance({ waitAtMostSeconds: 3600 });
    await busyTicks(patient);
    expect((await stats('waits')).dead).toBe(1000);
    share = 0.1;
    await flushed();
    expect(await patient.runOnce()).toMatchObject({ work: 'vacuum', table: 'public.waits' });

    // Busy past waitAtMostSeconds: it runs, and goes on a tick at a time while anything is due.
    share = 0.9;
    await q('update waits set n = 2');
    const hurried = maintenance({ waitAtMostSeconds: 1 });
    await busyTicks(hurried);
    const ran = await eventually(async () => (await flushed(), await hurried.runOnce()));
    expect(ran).toMatchObject({ work: 'vacuum', table: 'public.waits' });
    await flushed();
    expect(await hurried.runOnce()).toMatchObject({ work: 'analyze', table: 'public.waits' });

    // Counted (the health endpoint's `vacuum`): the three busy ticks and the ones until the wait ran out.
    expect(hurried.counts().statements).toBe(2);
    expect(hurried.counts().waitedTicks).toBeGreaterThanOrEqual(3);
  });
});

describe.skipIf(process.env.DATABASE_URL)('the server on PGlite', { timeout: 120_000 }, () => {
  it('vacuums its tables by itself (src/app.ts starts the ticks on PGlite)', async () => {
    const s = await startServer({ pgliteVacuumSeconds: 1 });
    try {
      const q = (text: string) => s.database.pool.query(text);
      await q('create table churned (id int primary key, n int not null)');
      await q('insert into churned select g, 0 from generate_series(1, 1000) g');
      await q('update churned set n = n + 1');
      const vacuumed = await eventually(async () => {
        await q('select pg_stat_force_next_flush()');
        const { rows } = await s.database.pool.query<{ at: string | null }>(
          `select last_vacuum::text as at from pg_stat_user_tables where relname = 'churned'`,
        );
        return rows[0]?.at;
      });
      expect(vacuumed).toEqual(expect.any(String));
      // The health endpoint counts it.
      const health = await s.call<{ vacuum: { statements: number; totalMs: number } }>('GET', '/health');
      expect(health.data.vacuum.statements).toBeGreaterThanOrEqual(1);
    } finally {
      await s.close();
    }
  });
});
