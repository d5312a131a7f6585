import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jsonCell } from '../db/json-cell.js';

/**
 * How many matching rows a list counts exactly. Past it, counting would read every match (a
 * million charging records take a quarter of a second on a busy machine, the OCPP log's pairing
 * check longer), so `total` becomes PostgreSQL's estimate and the page says so (`totalEstimated`).
 * 10,000 rows are 1,000 pages of 10, and counting them is an index range of a few milliseconds.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/** A list's total: exact, or (past the limit) the planner's estimate, at least the limit + 1. */
export interface ListTotal {
  total: number;
  totalEstimated?: true;
}

/**
 * The `total` of a list page. `query` selects the list's rows, filters and scope applied, with no
 * order, limit or offset (any one column will do): it is counted up to `limit` + 1 rows, and only
 * when more match does the planner estimate it (`EXPLAIN`, no execution). The estimate comes from
 * the table's statistics: close for plain filters (a provider, a station, a time range), rougher
 * for text searches and correlated conditions; it is never below `limit` + 1, so every page up to
 * the limit stays reachable, and pages past the real end are empty.
 */
export async function boundedCount(db: Db, query: SQLWrapper, limit = EXACT_COUNT_LIMIT): Promise<ListTotal> {
  const counted = (await db.execute(sql`select count(*)::int as n from (${query} limit ${limit + 1}) bounded`)) as unknown as {
    rows: { n: number | string }[];
  };
  const n = Number(counted.rows[0]?.n ?? 0);
  if (n <= limit) return { total: n };
  return { total: Math.max(limit + 1, await estimateRows(db, query)), totalEstimated: true };
}

/**
 * The total of a page already read: a page with fewer rows than asked for is the last one, so
 * the total is its offset plus its rows and nothing is counted (a text search that matches a few
 * rows has read the whole table once already). Otherwise, `boundedCount` of `query`.
 */
export async function pageTotal(
  db: Db,
  page: { offset: number; size: number; rows: number },
  query: SQLWrapper,
  limit = EXACT_COUNT_LIMIT,
): Promise<ListTotal> {
  if (page.rows < page.size && (page.rows > 0 || page.offset === 0)) return { total: page.offset + page.rows };
  return boundedCount(db, query, limit);
}

/** The planner's estimate of the rows `query` returns. */
export async function estimateRows(db: Db, query: SQLWrapper): Promise<number> {
  const res = (await db.execute(sql`explain (format json) ${query}`)) as unknown as { rows: Record<string, unknown>[] };
  const cell = Object.values(res.rows[0] ?? {})[0];
  const plan = jsonCell<{ Plan: { 'Plan Rows': number } }[]>(cell);
  return Math.round(Number(plan[0]?.Plan['Plan Rows'] ?? 0));
}
