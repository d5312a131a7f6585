/**
 * Latency histograms with logarithmic buckets (5 % wide, 10 µs to ~17 min): constant memory
 * however many calls a benchmark makes, percentiles accurate to a bucket.
 */

const MIN_MS = 0.01;
const RATIO = 1.05;
const BUCKETS = 400;
const LOG_RATIO = Math.log(RATIO);

export interface Histogram {
  record(ms: number): void;
  readonly count: number;
  /** Upper bound of the bucket holding the p-th percentile (0–100); 0 when empty. */
  percentile(p: number): number;
  max(): number;
  merge(other: Histogram): void;
  /** Raw bucket counts (for merging). */
  readonly buckets: Uint32Array;
}

const bucketOf = (ms: number) => (ms <= MIN_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / MIN_MS) / LOG_RATIO)));
const upperBound = (i: number) => MIN_MS * RATIO ** i;

export function createHistogram(): Histogram {
  const buckets = new Uint32Array(BUCKETS);
  let count = 0;
  let max = 0;
  return {
    buckets,
    get count() {
      return count;
    },
    record(ms) {
      buckets[bucketOf(ms)]! += 1;
      count += 1;
      if (ms > max) max = ms;
    },
    percentile(p) {
      if (count === 0) return 0;
      const rank = Math.max(1, Math.ceil((p / 100) * count));
      let seen = 0;
      for (let i = 0; i < BUCKETS; i++) {
        seen += buckets[i]!;
        if (seen >= rank) return Math.min(upperBound(i), max);
      }
      return max;
    },
    max: () => max,
    merge(other) {
      for (let i = 0; i < BUCKETS; i++) buckets[i]! += other.buckets[i]!;
      count += other.count;
      max = Math.max(max, other.max());
    },
  };
}

export interface ActionStats {
  /** Calls answered (CALLRESULT or CALLERROR). */
  count: number;
  errors: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function summarize(h: Histogram, errors: number, timeouts: number): ActionStats {
  const round = (n: number) => Math.round(n * 100) / 100;
  return { count: h.count, errors, timeouts, p50Ms: round(h.percentile(50)), p99Ms: round(h.percentile(99)), maxMs: round(h.max()) };
}
