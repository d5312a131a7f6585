import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../http/context.js';

/**
 * The provider condition every tenant-owned query carries: nothing for a super provider's
 * users, the provider subtree for everyone else. Repositories AND it into each where clause,
 * so a crafted id of another provider finds nothing (404).
 */
export function providerScope(p: Principal, column: PgColumn): SQL | undefined {
  return p.providerIds === 'all' ? undefined : inArray(column, p.providerIds);
}

/**
 * The bound-stations condition (DESIGN.md §9): nothing for a user bound to no station (all of
 * its providers' stations), the bound ones otherwise. AND it beside `providerScope`.
 */
export function stationScope(p: Principal, stationColumn: PgColumn): SQL | undefined {
  return p.stationIds === null ? undefined : inArray(stationColumn, p.stationIds);
}

export function canSeeStation(p: Principal, stationId: number): boolean {
  return p.stationIds === null || p.stationIds.includes(stationId);
}

/**
 * Whether terms that apply at these stations (none named: all of the provider's) stay within the
 * caller's binding: a user bound to stations grants discounts only where they also set the prices.
 */
export function withinBinding(p: Principal, stationIds: readonly number[]): boolean {
  return p.stationIds === null || (stationIds.length > 0 && stationIds.every((s) => p.stationIds!.includes(s)));
}

export function canSeeProvider(p: Principal, providerId: number): boolean {
  return p.providerIds === 'all' || p.providerIds.includes(providerId);
}

/** Postgres unique violation, through drizzle's wrapper or straight from the driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23503' || e?.cause?.code === '23503';
}
