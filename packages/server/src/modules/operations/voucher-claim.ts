import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { voucher } from '../../db/schema.js';
import type { DiscountInput, DiscountLine } from '../billing/settle.js';
import { percentOf } from './percent.js';

/**
 * The one voucher a settled session uses (issue 19 items 3, 4): of the payer's unused vouchers valid
 * when the session ended, at its station, whose minimum the bill (before discounts) meets, the one
 * chosen for this session when it is among them, else the one taking most off the service fee left
 * (then the one ending first); a voucher chosen for another session still unsettled is left to it. Claimed by a conditional update
 * (`status = 'unused'`) in the settlement's transaction: a voucher another settlement claimed
 * meanwhile (a race of two nodes, or of two sessions of one user) is skipped for the next best, and
 * a settlement rolled back gives it back.
 */
export async function claimVoucher(tx: Tx, input: DiscountInput, serviceLeft: number): Promise<DiscountLine | null> {
  if (serviceLeft <= 0) return null;
  const held = await tx
    .select()
    .from(voucher)
    .where(
      and(
        eq(voucher.chargeUserId, input.chargeUserId),
        eq(voucher.status, 'unused'),
        lte(voucher.validFrom, input.stoppedAt),
        gt(voucher.validUntil, input.stoppedAt),
        lte(voucher.minBillCents, input.bill.totalCents),
        sql`(${voucher.chosenFor} is null or ${voucher.chosenFor} = ${input.transactionId}
          or exists (select 1 from charging_transaction c where c.id = ${voucher.chosenFor} and c.billed_at is not null))`,
      ),
    )
    .orderBy(asc(voucher.validUntil), asc(voucher.id));
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
