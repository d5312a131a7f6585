import { Code } from '@csms/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { chargePoint, provider } from '../db/schema.js';
import { AppError } from '../http/errors.js';

/**
 * A provider's authorised point count (spec §3 `authCount`, issue 21). 0 means none was set (the
 * providers made before the count was enforced, and the super provider): no limit.
 *
 * Call inside the transaction that adds the point: the provider's row is locked first, so that two
 * adds for one provider (on any node) count one after the other and never pass the limit together.
 * Answers null when one more point fits, else the provider's name and count for the refusal.
 */
export async function pointQuotaFull(db: Db, providerId: number): Promise<{ name: string; count: number } | null> {
  const [p] = await db
    .select({ name: provider.name, type: provider.type, authCount: provider.authCount })
    .from(provider)
    .where(eq(provider.id, providerId))
    .for('update');
  if (!p || p.type === 'super' || p.authCount <= 0) return null;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chargePoint)
    .where(eq(chargePoint.providerId, providerId));
  return Number(row?.n ?? 0) >= p.authCount ? { name: p.name, count: p.authCount } : null;
}

/** The refusal, in the caller's language at the edge. */
export async function assertPointQuota(db: Db, providerId: number): Promise<void> {
  const full = await pointQuotaFull(db, providerId);
  if (full) throw new AppError(Code.CONFLICT, 'errors.apply.pointLimit', full);
}
