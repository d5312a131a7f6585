import { and, desc, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { activity, card, chargeUser, rechargeBonus } from '../../db/schema.js';
import type { LedgerAccount, LedgerHooks } from '../cards/ledger.js';

/**
 * Recharge bonuses (issue 19 item 2), in the recharge's transaction: of the provider's active
 * recharge-bonus activities whose period holds the recharge, for its user's group, and whose minimum it
 * reaches, the one giving most credits its bonus to the same account as a ledger row of its own
 * (`bonus`, source `activity`). `recharge_bonus` is keyed by the recharge: one bonus per recharge.
 */
export function createRechargeBonus(): LedgerHooks {
  return {
    async recharged(tx: Tx, entry, post) {
      const userId =
        entry.chargeUserId ??
        (entry.cardId === null
          ? null
          : ((await tx.select({ id: card.chargeUserId }).from(card).where(eq(card.id, entry.cardId)))[0]?.id ?? null));
      const [user] =
        userId === null ? [] : await tx.select({ groupId: chargeUser.groupId }).from(chargeUser).where(eq(chargeUser.id, userId));
      const groupId = user?.groupId ?? null;
      const at = entry.createdAt;
      const [best] = await tx
        .select({ id: activity.id, bonusCents: activity.bonusCents })
        .from(activity)
        .where(
          and(
            eq(activity.providerId, entry.providerId),
            eq(activity.type, 'rechargeBonus'),
            eq(activity.status, 'active'),
            lte(activity.startAt, at),
            gt(activity.endAt, at),
            lte(activity.minRechargeCents, entry.amountCents),
            groupId === null
              ? sql`jsonb_array_length(${activity.groupIds}) = 0`
              : sql`(jsonb_array_length(${activity.groupIds}) = 0 or ${activity.groupIds} @> ${JSON.stringify([groupId])}::jsonb)`,
          ),
        )
        .orderBy(desc(activity.bonusCents), asc(activity.id))
        .limit(1);
      if (!best?.bonusCents) return;
      const account: LedgerAccount =
        entry.accountKind === 'card' ? { kind: 'card', cardId: entry.cardId! } : { kind: 'mobile', chargeUserId: entry.chargeUserId! };
      const bonus = await post({
        account,
        tradeType: 'bonus',
        amountCents: best.bonusCents,
        operatorUserId: entry.operatorUserId,
        source: 'activity',
      });
      await tx.insert(rechargeBonus).values({
        rechargeLedgerId: entry.id,
        bonusLedgerId: bonus.id,
        activityId: best.id,
        providerId: entry.providerId,
        amountCents: best.bonusCents,
      });
    },
  };
}
