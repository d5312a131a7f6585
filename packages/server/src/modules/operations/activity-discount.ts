import type { ActivityDiscountKind } from '@csms/contract';
import { sql } from 'drizzle-orm';
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

/** What the choice needs of an activity live when a session ended (read by `discountContext`). */
export interface LiveActivity {
  id: number;
  name: string;
  stationIds: number[];
  groupIds: number[];
  discountKind: ActivityDiscountKind | null;
  discountValue: number | null;
  hours: number[];
}

/** The activities that may discount a session ended at `at` (`a`: activity, `u`: its payer's charge_user row). */
export const liveActivitiesSql = (at: string) => sql`select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name,
    'stationIds', a.station_ids, 'groupIds', a.group_ids, 'discountKind', a.discount_kind, 'discountValue', a.discount_value,
    'hours', a.hours) order by a.id), '[]'::json)
  from activity a where a.provider_id = u.provider_id and a.type = 'serviceDiscount' and a.status in ('active', 'ended')
    and a.start_at <= ${at}::timestamptz and a.end_at > ${at}::timestamptz and (a.ended_at is null or a.ended_at > ${at}::timestamptz)`;

/**
 * The best service-fee activity for a settled session (issue 19 items 2, 4): of the provider's
 * activated activities whose period holds the session's end — an activity ended early counts until
 * it was ended (`liveActivitiesSql`) — at its station and for its user's group, the one taking most off
 * the service fee left after the member discount (the first by id among equals). Percent: of that fee;
 * per kWh: the energy in its hours × the rate, rounded half up once.
 */
export function bestActivity(
  groupId: number | null,
  live: readonly LiveActivity[],
  input: DiscountInput,
  serviceLeft: number,
): DiscountLine | null {
  if (serviceLeft <= 0) return null;
  let best: DiscountLine | null = null;
  for (const a of live) {
    if (a.stationIds.length && !a.stationIds.includes(input.stationId)) continue;
    if (a.groupIds.length && (groupId === null || !a.groupIds.includes(groupId))) continue;
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
