import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { activity, chargeUser } from '../../db/schema.js';
import type { DiscountInput, DiscountLine } from '../billing/settle.js';
import { slotIndex, type MeterSample } from '../billing/tariff.js';
import { percentOf } from './percent.js';

const QUARTER_MS = 15 * 60_000;

/**
 * Energy (Wh) of a session in chosen local hours: between two samples the energy is spread evenly in
 * time (as the tariff does) and cut at every UTC quarter hour, where any zone's local hour can turn.
 */
export function energyInHours(samples: readonly MeterSample[], hours: readonly number[], timeZone: string): number {
  const want = new Set(hours);
  let wh = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const span = b.at.getTime() - a.at.getTime();
    const e = b.wh - a.wh;
    if (span <= 0 || e <= 0) continue;
    let from = a.at.getTime();
    while (from < b.at.getTime()) {
      const to = Math.min(b.at.getTime(), Math.floor(from / QUARTER_MS) * QUARTER_MS + QUARTER_MS);
      if (want.has(Math.floor(slotIndex(new Date(from), timeZone) / 2))) wh += (e * (to - from)) / span;
      from = to;
    }
  }
  return Math.round(wh);
}

/**
 * The best service-fee activity for a settled session (issue 19 items 2, 4): of the provider's
 * activated activities whose period holds the session's end — an activity ended early counts until
 * it was ended — at its station and for its user's group, the one taking most off the service fee
 * left after the member discount. Percent: of that fee; per kWh: the energy in its hours × the rate,
 * rounded half up once.
 */
export async function bestActivity(tx: Tx, input: DiscountInput, serviceLeft: number): Promise<DiscountLine | null> {
  if (serviceLeft <= 0) return null;
  const [user] = await tx
    .select({ providerId: chargeUser.providerId, groupId: chargeUser.groupId })
    .from(chargeUser)
    .where(eq(chargeUser.id, input.chargeUserId));
  if (!user) return null;
  const at = input.stoppedAt;
  const live = await tx
    .select()
    .from(activity)
    .where(
      and(
        eq(activity.providerId, user.providerId),
        eq(activity.type, 'serviceDiscount'),
        inArray(activity.status, ['active', 'ended']),
        lte(activity.startAt, at),
        gt(activity.endAt, at),
        sql`(${activity.endedAt} is null or ${activity.endedAt} > ${at.toISOString()}::timestamptz)`,
      ),
    );
  let best: DiscountLine | null = null;
  for (const a of live) {
    if (a.stationIds.length && !a.stationIds.includes(input.stationId)) continue;
    if (a.groupIds.length && (user.groupId === null || !a.groupIds.includes(user.groupId))) continue;
    const value = a.discountValue ?? 0;
    if (value <= 0) continue;
    const energyWh = a.hours.length ? energyInHours(input.samples, a.hours, input.timeZone) : input.bill.energyWh;
    const raw =
      a.discountKind === 'percent'
        ? a.hours.length
          ? percentOf(Math.round((serviceLeft * energyWh) / Math.max(1, input.bill.energyWh)), value)
          : percentOf(serviceLeft, value)
        : Math.floor((energyWh * value + 50_000) / 100_000);
    const off = Math.min(serviceLeft, raw);
    if (off > 0 && (!best || off > -best.amountCents))
      best = {
        kind: 'activity',
        refId: a.id,
        label: a.name,
        amountCents: -off,
        energyWh,
        unitPrice: a.discountKind === 'perKwh' ? value : 0,
      };
  }
  return best;
}
