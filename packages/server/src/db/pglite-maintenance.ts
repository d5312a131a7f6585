import type pg from 'pg';

/**
 * Autovacuum for PGlite. PGlite is PostgreSQL in single-user mode: no autovacuum launcher runs, so
 * without this nothing ever vacuums or analyzes the embedded database. The tables the chargers
 * update all day (charge_point, connector, charging_transaction, pg-boss's jobs) would keep every dead
 * row version in their indexes, the planner would never learn the tables' sizes, and no row would ever
 * be frozen: past about two billion transactions the oldest rows would read as written in the future,
 * that is, vanish (PostgreSQL's transaction ID wraparound, which autovacuum exists to prevent and which
 * single-user mode does not guard against; a benchmark run burns about 240 transactions a second).
 *
 * The rules are autovacuum's with PostgreSQL's default settings (VACUUM past `50 + 20 %` dead rows or
 * `1,000 + 20 %` rows inserted since the last one, or once the table's oldest unfrozen transaction is
 * 150 million old; ANALYZE past `50 + 10 %` rows changed), read from the tables' counters
 * (`pg_stat_all_tables`, the catalogs' included). What differs is that PGlite is one session: every
 * statement of the chargers waits while a VACUUM or ANALYZE runs. So one statement at a time, each
 * tick (`intervalMs`) the most urgent one only; a table is vacuumed at most once a minute and analyzed
 * at most once in ten (the wraparound guard excepted), and the rows inserted since the last VACUUM
 * are due at 20,000 however large the table, so that an append-only log's VACUUM stays small. Measured
 * on PGlite (README "Vacuum on PGlite"): a VACUUM of the tables that churn or of 10,000–50,000 new rows
 * of a large table 3–90 ms, an ANALYZE of a large table 24–46 ms at statistics target 10 (about 180 ms
 * at PostgreSQL's 100). And while PGlite's thread is more than half busy (a reconnect storm, a burst of
 * calls), the ticks wait for a quieter one, up to five minutes.
 */

/** PostgreSQL's defaults for autovacuum (autovacuum_vacuum_threshold and _scale_factor, …), and PGlite's pacing. */
export const AUTOVACUUM = {
  vacuumThreshold: 50,
  vacuumScale: 0.2,
  insertThreshold: 1000,
  insertScale: 0.2,
  /** PGlite's: rows inserted since the last VACUUM that make one due, whatever the table's size. */
  insertCap: 20_000,
  analyzeThreshold: 50,
  analyzeScale: 0.1,
  /** vacuum_freeze_table_age: a VACUUM of an older table scans and freezes all of it. */
  freezeAge: 150_000_000,
  /** PGlite's: seconds between two VACUUMs, and two ANALYZEs, of one table. */
  vacuumEverySeconds: 60,
  analyzeEverySeconds: 600,
  /**
   * PGlite's: default_statistics_target of its ANALYZEs, 10 instead of 100: a sample of 3,000 rows
   * instead of 30,000, and histograms of 10 buckets (an ANALYZE of the OCPP log, 133 MB, took 440 ms
   * with 100, which every charger waited out).
   */
  statisticsTarget: 10,
  /**
   * PGlite's: a tick after which PGlite's thread had been busy more than this share of the time does
   * nothing, not even read the counters, so that a connect storm or a burst of calls does not also wait
   * behind a VACUUM…
   */
  busyAbove: 0.5,
  /**
   * …for this many seconds at most; then due work runs, one statement a tick, until nothing is due. (Five
   * minutes is about 72,000 transactions at a benchmark's rate: nothing against the two billion that
   * wraparound is away, so the wraparound guard waits too.)
   */
  waitAtMostSeconds: 300,
};

export interface TableCounters {
  deadRows: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
  /** pg_class.reltuples: -1 for a table never vacuumed or analyzed. */
  rows: number;
  xidAge: number;
  /** Seconds since its last VACUUM and ANALYZE; Infinity for never (or not since a crash). */
  sinceVacuum: number;
  sinceAnalyze: number;
}

export interface DueWork {
  work: 'vacuum' | 'analyze';
  /** How far past its threshold (> 1); the most urgent runs first. */
  urgency: number;
}

/** What the table is due for now, VACUUM before ANALYZE, or nothing. */
export function dueWork(t: TableCounters, s: typeof AUTOVACUUM = AUTOVACUUM): DueWork | undefined {
  const rows = Math.max(0, t.rows);
  const wraparound = t.xidAge / s.freezeAge;
  const vacuum = Math.max(
    t.deadRows / (s.vacuumThreshold + s.vacuumScale * rows),
    t.insertedSinceVacuum / Math.min(s.insertCap, s.insertThreshold + s.insertScale * rows),
    wraparound,
  );
  if (vacuum > 1 && (t.sinceVacuum >= s.vacuumEverySeconds || wraparound > 1)) return { work: 'vacuum', urgency: vacuum };
  const analyze = t.changedSinceAnalyze / (s.analyzeThreshold + s.analyzeScale * rows);
  if (analyze > 1 && t.sinceAnalyze >= s.analyzeEverySeconds) return { work: 'analyze', urgency: analyze };
  return undefined;
}

// The catalogs too (autovacuum does them): a database's oldest unfrozen transaction is its oldest
// table's, catalogs included. TOAST tables are vacuumed with their table.
// Named as TableCounters' fields, with float8's infinity for "never" (node-postgres reads it as Infinity).
const COUNTERS = `select format('%I.%I', s.schemaname, s.relname) as "name", s.n_dead_tup::float8 as "deadRows",
    s.n_ins_since_vacuum::float8 as "insertedSinceVacuum", s.n_mod_since_analyze::float8 as "changedSinceAnalyze",
    c.reltuples::float8 as "rows", age(c.relfrozenxid)::float8 as "xidAge",
    coalesce(extract(epoch from now() - greatest(s.last_vacuum, s.last_autovacuum))::float8, 'infinity') as "sinceVacuum",
    coalesce(extract(epoch from now() - greatest(s.last_analyze, s.last_autoanalyze))::float8, 'infinity') as "sinceAnalyze"
  from pg_stat_all_tables s join pg_class c on c.oid = s.relid
  where s.schemaname not in ('pg_toast', 'information_schema') and c.relkind in ('r', 'm') and c.relpersistence = 'p'`;

export interface MaintenanceRun {
  table: string;
  work: DueWork['work'];
  /** For the connection (PGlite's one: behind the chargers' statements), then for the statement itself. */
  waitedMs: number;
  ms: number;
}

export interface MaintenanceCounts {
  /** VACUUM and ANALYZE statements run, and their time in all. */
  statements: number;
  totalMs: number;
  /** Ticks that did nothing because PGlite's thread had been busy (busyAbove). */
  waitedTicks: number;
}

export function createPgliteMaintenance({
  pool,
  intervalMs,
  onRun,
  onError,
  busyMeter,
  rules = AUTOVACUUM,
}: {
  pool: Pick<pg.Pool, 'query' | 'connect'>;
  /** PGlite's thread's (Database.busyMeter): without it every tick counts as quiet. */
  busyMeter?: () => () => number;
  /** AUTOVACUUM's, unless a test shortens its waits. */
  rules?: typeof AUTOVACUUM;
  /** Between two ticks, each running at most one statement; 0: off. */
  intervalMs: number;
  /** After each statement (the server logs it). */
  onRun?: (run: MaintenanceRun) => void;
  onError: (err: unknown) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<MaintenanceRun | undefined> | undefined;
  let busy: (() => number) | undefined;
  /** Since when the ticks have waited for a quiet one (performance.now()). */
  let waitingSince: number | undefined;
  const counts: MaintenanceCounts = { statements: 0, totalMs: 0, waitedTicks: 0 };

  /** The most urgent statement due, run; undefined when nothing is due or it waits for a quiet tick. */
  async function tick(): Promise<MaintenanceRun | undefined> {
    // Read every tick, so that each reading covers the tick before it (a first reading of nothing is quiet).
    busy ??= busyMeter?.();
    if ((busy?.() ?? 0) > rules.busyAbove) {
      waitingSince ??= performance.now();
      if (performance.now() - waitingSince < rules.waitAtMostSeconds * 1000) {
        counts.waitedTicks += 1;
        return undefined;
      }
    } else waitingSince = undefined;
    const { rows } = await pool.query<TableCounters & { name: string }>(COUNTERS);
    let next: (DueWork & { table: string }) | undefined;
    for (const counters of rows) {
      const due = dueWork(counters, rules);
      if (due && (!next || due.urgency > next.urgency)) next = { ...due, table: counters.name };
    }
    if (!next) {
      // Caught up: the next busy tick waits again.
      waitingSince = undefined;
      return undefined;
    }
    const asked = performance.now();
    const client = await pool.connect();
    const started = performance.now();
    try {
      if (next.work === 'vacuum') await client.query(`vacuum ${next.table}`);
      else {
        // A smaller sample, for this transaction only (SET LOCAL).
        await client.query('begin');
        try {
          await client.query(`set local default_statistics_target = ${rules.statisticsTarget}`);
          await client.query(`analyze ${next.table}`);
          await client.query('commit');
        } catch (err) {
          await client.query('rollback').catch(() => {});
          throw err;
        }
      }
    } finally {
      client.release();
    }
    const run = { table: next.table, work: next.work, waitedMs: started - asked, ms: performance.now() - started };
    counts.statements += 1;
    counts.totalMs += run.ms;
    onRun?.(run);
    return run;
  }

  /** A tick now, or the one under way (ticks never overlap). */
  function runOnce(): Promise<MaintenanceRun | undefined> {
    running ??= tick().finally(() => (running = undefined));
    return running;
  }

  return {
    runOnce,
    /** Since the server started (the health endpoint's `vacuum`). */
    counts: (): MaintenanceCounts => ({ ...counts, totalMs: Math.round(counts.totalMs) }),
    start() {
      if (intervalMs <= 0 || timer) return;
      busy ??= busyMeter?.();
      timer = setInterval(() => void runOnce().catch(onError), intervalMs);
      timer.unref();
    },
    /** No new tick; waits for the statement under way. */
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
