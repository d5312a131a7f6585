import type { VoucherKind } from '@csms/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { voucher } from '../../db/schema.js';
import type { DiscountInput, DiscountLine } from '../billing/settle.js';
import { percentOf } from './percent.js';

/** What the choice needs of a voucher its payer holds (read by `discountContext`). */
export interface HeldVoucher {
  id: number;
  name: string;
  kind: VoucherKind;
  value: number;
  stationIds: number[];
  chosenFor: number | null;
}

/**
 * The payer's unused vouchers valid when the session ended, whose minimum the bill (before discounts)
 * meets, and not chosen for another session still unsettled; the one ending first first.
 */
export const heldVouchersSql = (input: DiscountInput) => sql`select coalesce(json_agg(json_build_object('id', v.id,
    'name', v.name, 'kind', v.kind, 'value', v.value, 'stationIds', v.station_ids, 'chosenFor', v.chosen_for)
    order by v.valid_until, v.id), '[]'::json)
  from voucher v where v.charge_user_id = ${input.chargeUserId}::int and v.status = 'unused'
    and v.valid_from <= ${input.stoppedAt.toISOString()}::timestamptz and v.valid_until > ${input.stoppedAt.toISOString()}::timestamptz
    and v.min_bill_cents <= ${input.bill.totalCents}::int
    and (v.chosen_for is null or v.chosen_for = ${input.transactionId}::int
      or exists (select 1 from charging_transaction c where c.id = v.chosen_for and c.billed_at is not null))`;

/**
 * The one voucher a settled session uses (issue 19 items 3, 4): of the payer's vouchers that may apply
 * (`heldVouchersSql`, which leaves a voucher chosen for another session still unsettled to it) and hold
 * at its station, the one chosen for this session when it is among them, else the one taking most off
 * the service fee left (then the one ending first). Claimed by a conditional update (`status =
 * 'unused'`) in the settlement's transaction: a voucher another settlement claimed meanwhile (a race of
 * two nodes, or of two sessions of one user) is skipped for the next best, and a settlement rolled back
 * gives it back.
 */
export async function claimVoucher(
  tx: Tx,
  held: readonly HeldVoucher[],
  input: DiscountInput,
  serviceLeft: number,
): Promise<DiscountLine | null> {
  if (serviceLeft <= 0) return null;
  const offers = held
    .filter((v) => v.stationIds.length === 0 || v.stationIds.includes(input.stationId))
    .map((v) => ({ v, off: Math.min(serviceLeft, v.kind === 'amount' ? v.value : percentOf(serviceLeft, v.value)) }))
    .filter((o) => o.off > 0)
    // Stable: among equal discounts the one ending first stays first.
    .sort((a, b) => Number(b.v.chosenFor === input.transactionId) - Number(a.v.chosenFor === input.transactionId) || b.off - a.off);
  for (const { v, off } of offers) {
    const claimed = await tx
      .update(voucher)
      .set({ status: 'used', usedAt: new Date(), transactionId: input.transactionId, discountCents: off })
      .where(and(eq(voucher.id, v.id), eq(voucher.status, 'unused')))
      .returning({ id: voucher.id });
    if (claimed.length === 1) return { kind: 'voucher', refId: v.id, label: v.name, amountCents: -off, energyWh: 0, unitPrice: 0 };
  }
  return null;
}
