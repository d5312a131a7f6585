import type { Tx } from '../../db/client.js';
import type { BillingHooks, DiscountInput, DiscountLine } from '../billing/settle.js';
import type { Membership } from './membership.js';
import { percentOf } from './percent.js';
import { claimVoucher } from './voucher-claim.js';
import { bestActivity } from './activity-discount.js';

/**
 * Settlement's discounts (issue 19 item 4), in the order applied: the member level's, the best
 * activity's, then one voucher. Each comes off the service fee left by the ones before it, so the
 * bill never falls below its electricity fee and never below zero.
 */
export function createDiscounts({ membership }: { membership: Pick<Membership, 'discountOf' | 'recompute'> }): BillingHooks {
  return {
    async discounts(tx: Tx, input: DiscountInput): Promise<DiscountLine[]> {
      const out: DiscountLine[] = [];
      let serviceLeft = input.bill.serviceFeeCents;
      const level = await membership.discountOf(tx, input.chargeUserId);
      if (level && level.percent > 0 && serviceLeft > 0) {
        const off = Math.min(serviceLeft, percentOf(input.bill.serviceFeeCents, level.percent));
        if (off > 0) {
          out.push({
            kind: 'member',
            refId: level.levelId,
            label: level.name,
            amountCents: -off,
            energyWh: input.bill.energyWh,
            unitPrice: 0,
          });
          serviceLeft -= off;
        }
      }
      const act = await bestActivity(tx, input, serviceLeft);
      if (act) {
        out.push(act);
        serviceLeft += act.amountCents;
      }
      const v = await claimVoucher(tx, input, serviceLeft);
      if (v) out.push(v);
      return out;
    },
    async settled(tx: Tx, chargeUserId: number) {
      await membership.recompute(tx, [chargeUserId]);
    },
  };
}
