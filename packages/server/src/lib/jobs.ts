import { createHash } from 'node:crypto';
import type pg from 'pg';
import PgBoss from 'pg-boss';

/**
 * The durable job queue (DESIGN.md §10): scheduled and background work (timed charging, reservation
 * expiry, and later firmware dates, retries, rollups) is a row in the database, claimed by one node
 * with `FOR UPDATE SKIP LOCKED`, retried with back-off, kept after failure for the operator to see.
 * pg-boss does that on both databases: it reaches PGlite's thread and a PostgreSQL server through the
 * server's own node-postgres pool (its `db` adapter), so it shares the connection, not a second one.
 *
 * What a job does is read again from our own tables when it runs: a job is the timer, the truth is
 * the row it names. A handler must therefore be idempotent (a job may run again after a crash), and
 * a module whose jobs matter re-sends them at start-up (`send` with the same key adds nothing while
 * the first one waits).
 */

/** pg-boss's schema: installed with the migrations, so that a node's start (and a test's) only checks it. */
export const JOB_SCHEMA = 'pgboss';

/** Every queue, with its retry policy: created with the migrations (a queue is a partition table). */
export const JOB_QUEUES = {
  /** One daily start of a timed charge (issue 15 item 3). */
  timedCharge: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
  /** A reservation reaching its expiry (issue 15 item 4). */
  reservationExpiry: { retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
  /** The forecast feed's fetch (issue 17 item 3): each run queues the next one; a failed fetch is retried. */
  weatherRefresh: { retryLimit: 3, retryDelay: 120, retryBackoff: true, expireInSeconds: 900 },
  /** The nightly recompute of member levels (issue 19 item 1): each run queues the next night's. */
  memberLevels: { retryLimit: 5, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600 },
  /** A voucher-grant activity's issue (issue 19 item 2): at its start, its end, after a registration. */
  activityGrant: { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 900 },
} as const satisfies Record<string, PgBoss.Queue extends infer Q ? Omit<Q, 'name'> : never>;

export type JobQueue = keyof typeof JOB_QUEUES;
/** How long a stop waits for the jobs under way. */
const STOP_WAIT_MS = 20_000;

const queueName = (q: JobQueue) => `csms.${q}`;

/** A queue's job id for a key: the same key is the same job, so sending it twice adds it once. */
export function jobId(queue: JobQueue, key: string): string {
  const h = createHash('sha1').update(`${queue}\0${key}`).digest('hex');
  // RFC 4122 layout (version 5, variant 10): pg-boss keeps ids in a uuid column.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

/**
 * pg-boss's database, and what it has under way through it: `settled` waits for every statement and
 * handler in hand, including those that start while waiting (a fetch that returns a job runs its
 * handler, whose end sends the job's complete or fail).
 */
function tracked(pool: pg.Pool) {
  const inHand = new Set<Promise<unknown>>();
  const hold = <T>(p: Promise<T>): Promise<T> => {
    // Settles either way and never rejects: the caller handles `p`'s failure (pg-boss fails the job);
    // a rejecting copy kept here would be an unhandled rejection of its own.
    const done: Promise<void> = p.then(
      () => void inHand.delete(done),
      () => void inHand.delete(done),
    );
    inHand.add(done);
    return p;
  };
  const db: PgBoss.Db = {
    executeSql: (text, values) =>
      hold(
        pool.query(text, values).then((res) =>
          // A multi-statement text (pg-boss's plans run as one) answers an array of results.
          Array.isArray(res) ? (res.at(-1) as pg.QueryResult) : res,
        ),
      ),
  };
  const settled = async (deadline: number) => {
    while (Date.now() < deadline) {
      // A macrotask: what the last settlements set off (a handler, a complete) has been sent by then.
      await new Promise((resolve) => setImmediate(resolve));
      if (inHand.size === 0) return;
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all([...inHand]), new Promise((resolve) => (timer = setTimeout(resolve, Math.max(left, 0))))]).finally(
        () => clearTimeout(timer),
      );
    }
  };
  return { db, hold, settled };
}

/** Installs pg-boss's schema and our queues when absent (part of `migrate`, under its lock). */
export async function installJobSchema(pool: pg.ClientBase): Promise<void> {
  const { rows } = await pool.query<{ installed: boolean }>(`select to_regclass('${JOB_SCHEMA}.version') is not null as installed`);
  if (!rows[0]?.installed) await pool.query(PgBoss.getConstructionPlans(JOB_SCHEMA));
  // Only the queues not there yet: create_queue does nothing to an existing one, but calling it for
  // each queue on every start cost 80–120 ms of a start on PGlite (its PL/pgSQL compiled first).
  const queues = Object.entries(JOB_QUEUES).map(([q, options]) => ({ name: queueName(q as JobQueue), options }));
  const existing = await pool.query<{ name: string }>(`select name from ${JOB_SCHEMA}.queue where name = any($1)`, [
    queues.map((q) => q.name),
  ]);
  const have = new Set(existing.rows.map((r) => r.name));
  for (const { name, options } of queues) {
    if (!have.has(name)) await pool.query(`select ${JOB_SCHEMA}.create_queue($1, $2)`, [name, { policy: 'standard', ...options }]);
  }
}

export interface Jobs {
  /**
   * Adds a job to run at `at` (now when absent). With `key`, once: a job of the same key that has not
   * yet been archived is not added again.
   */
  send(queue: JobQueue, data: object, opts?: { at?: Date; key?: string }): Promise<void>;
  /** Drops a waiting job of that key (nothing when it ran or never existed). */
  cancel(queue: JobQueue, key: string): Promise<void>;
  /** Runs `handler` for each job of the queue on this node; a throw fails the job, to be retried with back-off. */
  work<T extends object>(queue: JobQueue, handler: (data: T) => Promise<void>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The queue on `pool`. `pollSeconds`: how often each of this node's workers asks for due jobs (a job
 * runs at most that late); every node polls, and each job is claimed by one.
 */
export function createJobs({
  pool,
  pollSeconds = 2,
  onError,
}: {
  pool: pg.Pool;
  pollSeconds?: number;
  onError: (err: unknown, queue?: JobQueue) => void;
}): Jobs {
  const held = tracked(pool);
  const boss = new PgBoss({
    db: held.db,
    schema: JOB_SCHEMA,
    // Installed by the migrations; a node only checks the version.
    migrate: false,
    // No cron: each job carries its own start time.
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 300,
    archiveCompletedAfterSeconds: 12 * 3600,
    deleteAfterDays: 30,
  });
  boss.on('error', (err) => onError(err));
  const handlers = new Map<JobQueue, (data: object) => Promise<void>>();
  let started: Promise<void> | undefined;
  let stopped = false;

  return {
    async send(queue, data, opts = {}) {
      await boss.send(queueName(queue), data, {
        ...(opts.at ? { startAfter: opts.at } : {}),
        ...(opts.key ? { id: jobId(queue, opts.key) } : {}),
      });
    },
    async cancel(queue, key) {
      await boss.cancel(queueName(queue), jobId(queue, key));
    },
    work(queue, handler) {
      handlers.set(queue, handler as (data: object) => Promise<void>);
    },
    start: () =>
      (started ??= (async () => {
        await boss.start();
        for (const [queue, handler] of handlers) {
          await boss.work<object>(queueName(queue), { pollingIntervalSeconds: pollSeconds, batchSize: 1 }, async ([job]) => {
            if (!job) return;
            try {
              await held.hold(handler(job.data));
            } catch (err) {
              onError(err, queue);
              throw err;
            }
          });
        }
      })()),
    async stop() {
      if (!started || stopped) return;
      stopped = true;
      await started.catch(() => {});
      // Active jobs finish (a charger's answer takes up to its call timeout); then the pool may close.
      const deadline = Date.now() + STOP_WAIT_MS;
      await boss.stop({ graceful: true, wait: true, timeout: STOP_WAIT_MS });
      // pg-boss waits only for the jobs its workers hold: a fetch still on its way when it looked returns a
      // job after, whose handler and complete would then meet a closed pool (an unhandled rejection, since
      // pg-boss does not wait for its complete or fail). They run to their end here, to the same deadline.
      await held.settled(deadline);
    },
  };
}
