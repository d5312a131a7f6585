import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * One compacting collection after a storm of charger connections has settled (issue 14 item 4).
 *
 * A connect storm promotes much short-lived garbage (admissions, batches and answers in flight while
 * thousands of handshakes wait on the database) between the sessions that stay. V8's ordinary full
 * collections free it but evacuate only a few of the pages it leaves partly filled, so the old
 * generation keeps them committed: measured at 19,500 chargers, 4.7 KB of live heap per charger and
 * 14.6 KB of free old-space pages (README, "Where the memory per charger is"). A collection that
 * compacts every page gives them back, but doing so on every full collection costs 30 % more CPU per
 * call, and its pause grows with the live heap (measured: 0.58 s holding 19,500 chargers). So it runs
 * once, when a storm is over: `minConnections` new connections since the last one, at least half of
 * the connections held (a few hundred chargers reconnecting to a server that holds thousands leave
 * little to give back for that pause), then `settleMs` without a new connection. The pause is
 * logged and reported by the health endpoint.
 */
export interface StormCompactorOptions {
  /** New connections since the last compaction that make one worth its pause; 0 turns it off. */
  minConnections: number;
  /** Quiet time after the last new connection before compacting (ms). */
  settleMs: number;
  /** Connections held now. */
  held: () => number;
  logger: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** The collection itself (tests count calls); default: `compactHeap`. */
  compact?: () => Compaction;
}

export interface Compaction {
  pauseMs: number;
  /** V8 heap committed before and after (used and free pages). */
  beforeBytes: number;
  afterBytes: number;
}

export interface CompactionStats {
  count: number;
  /** When the last one ran (ISO 8601). */
  lastAt: string | null;
  lastPauseMs: number | null;
  lastFreedBytes: number | null;
}

export function createStormCompactor(opts: StormCompactorOptions) {
  const compact = opts.compact ?? compactHeap;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const stats: CompactionStats = { count: 0, lastAt: null, lastPauseMs: null, lastFreedBytes: null };

  function run(): void {
    timer = undefined;
    // A storm small beside what is held: keep counting, later storms add up.
    if (since < opts.held() / 2) return;
    const connections = since;
    since = 0;
    try {
      const c = compact();
      stats.count++;
      stats.lastAt = new Date().toISOString();
      stats.lastPauseMs = Math.round(c.pauseMs * 10) / 10;
      stats.lastFreedBytes = c.beforeBytes - c.afterBytes;
      opts.logger.info(
        { connections, pauseMs: stats.lastPauseMs, heapMbBefore: mb(c.beforeBytes), heapMbAfter: mb(c.afterBytes) },
        'heap compacted after a connect storm',
      );
    } catch (err) {
      opts.logger.warn({ err }, 'heap compaction failed');
    }
  }

  return {
    /** A charger connection was accepted. */
    connected(): void {
      if (opts.minConnections <= 0) return;
      since++;
      if (since < opts.minConnections) return;
      // Each new connection postpones it: the storm is over only when they stop coming.
      if (timer) timer.refresh();
      else timer = setTimeout(run, opts.settleMs).unref();
    },
    get stats(): Readonly<CompactionStats> {
      return stats;
    },
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

export type StormCompactor = ReturnType<typeof createStormCompactor>;

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

let fullCollection: (() => void) | undefined;

/** V8's full collection: `gc` when node runs with --expose-gc, else taken from a context created with the flag set. */
function collector(): () => void {
  if (fullCollection) return fullCollection;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return (fullCollection = exposed);
  v8.setFlagsFromString('--expose-gc');
  return (fullCollection = vm.runInNewContext('gc') as () => void);
}

/** An ordinary full collection (V8's own choice of pages to compact). */
export function collectGarbage(): void {
  collector()();
}

/** A full collection that evacuates every fragmented page (V8's --compact-on-every-full-gc, for this one collection). */
export function compactHeap(): Compaction {
  const gc = collector();
  const beforeBytes = v8.getHeapStatistics().total_heap_size;
  const keep = process.execArgv.includes('--compact-on-every-full-gc');
  const start = performance.now();
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    if (!keep) v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return { pauseMs: performance.now() - start, beforeBytes, afterBytes: v8.getHeapStatistics().total_heap_size };
}
