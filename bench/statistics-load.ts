/**
 * Operation and financial statistics under load (issue 20 item 6): the console bench's seed (10,000 points,
 * 1,000,000 charging records over a year, their ledger) timed on the statistics screens' queries alone,
 * target p95 ≤ 300 ms. Same options as bench/console-load.ts (DATABASE_URL, BENCH_POINTS, BENCH_RECORDS,
 * --keep, --sql):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/stats_bench npm run bench:statistics
 */
process.env.BENCH_ONLY ??= '/web/statistics/operation,/web/statistics/financial';
await import('./console-load.js');
