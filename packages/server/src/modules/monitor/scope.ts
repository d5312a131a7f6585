import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../../http/context.js';
import { providerScope } from '../../lib/scope.js';

/**
 * Rows of stations the caller may see (DESIGN.md §9): the provider subtree, narrowed to the
 * bound stations of a station-bound user. Operator actions, monitoring and the OCPP log share it.
 */
export function stationScope(p: Principal, providerColumn: PgColumn, stationColumn: PgColumn): SQL | undefined {
  const stations = p.stationIds === null ? undefined : p.stationIds.length === 0 ? sql`false` : inArray(stationColumn, p.stationIds);
  return and(providerScope(p, providerColumn), stations);
}
