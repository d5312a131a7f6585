import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { BillingHooks, DiscountInput, DiscountLine } from '../billing/settle.js';
import { bestActivity, liveActivitiesSql, type LiveActivity } from './activity-discount.js';
import { memberLevelJsonOf, type Membership } from './membership.js';
import { percentOf } from './percent.js';
import { claimVoucher, heldVouchersSql, type HeldVoucher } from './voucher-claim.js';
import { jsonCell } from '../../db/json-cell.js';

interface Payer {
  groupId: number | null;
  /** The member level in force now, if any. */
  level: { levelId: number; name: string; percent: number } | null;
  activities: LiveActivity[];
}

/**
 * What the discounts of a session need, in one statement of the settlement's transaction: the payer's
 * group and member level, the activities live at its end, the vouchers he holds that may apply. (They
 * were four statements, each a round trip while the session's row is locked.)
 */
async function discountContext(tx: Tx, input: DiscountInput): Promise<{ payer: Payer | null; vouchers: HeldVoucher[] }> {
  const res = (await tx.execute(sql`select
      (select json_build_object('groupId', u.group_id, 'level', ${memberLevelJsonOf('u.id')},
          'activities', (${liveActivitiesSql(input.stoppedAt.toISOString())}))
        from charge_user u where u.id = ${input.chargeUserId}::int) as payer,
      (${heldVouchersSql(input)}) as vouchers`)) as unknown as { rows: { payer: unknown; vouchers: unknown }[] };
  const row = res.rows[0]!;
  return { payer: row.payer === null ? null : jsonCell<Payer>(row.payer), vouchers: jsonCell<HeldVoucher[]>(row.vouchers) };
}

/**
 * Settlement's discounts (issue 19 item 4), in the order applied: the member level's, the best
 * activity's, then one voucher. Each comes off the service fee left by the ones before it, so the
 * bill never falls below its electricity fee and never below zero.
 */
export function createDiscounts({ membership }: { membership: Pick<Membership, 'recompute'> }): BillingHooks {
  return {
    async discounts(tx: Tx, input: DiscountInput): Promise<DiscountLine[]> {
      const { payer, vouchers } = await discountContext(tx, input);
      const out: DiscountLine[] = [];
      let serviceLeft = input.bill.serviceFeeCents;
      const level = payer?.level;
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
      const act = payer ? bestActivity(payer.groupId, payer.activities, input, serviceLeft) : null;
      if (act) {
        out.push(act);
        serviceLeft += act.amountCents;
      }
      const v = await claimVoucher(tx, vouchers, input, serviceLeft);
      if (v) out.push(v);
      return out;
    },
    async settled(tx: Tx, chargeUserId: number) {
      await membership.recompute(tx, [chargeUserId]);
    },
  };
}
