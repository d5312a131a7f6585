import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { activity, card, chargeUser, memberLevel, memberStatus, voucher, voucherTemplate } from '../db/schema.js';
import { voucherOf } from '../modules/operations/voucher-terms.js';

export const DEMO_GOLD = 'Gold';
export const DEMO_VOUCHER = 'Demo welcome voucher';
export const DEMO_ACTIVITY = 'Demo service-fee week';
/** The demo driver who is a gold member holding a voucher (the first card's owner). */
export const DEMO_GOLD_ACCOUNT = 'demo-driver-1';
const YEAR_MS = 365 * 86_400_000;

/**
 * Operations in the demo (issue 19): a gold level (10% off the service fee) that the first demo driver
 * holds by an override, a 2.00 voucher issued to that driver, and a 20% service-fee activity running
 * at every demo station. That driver's next session is billed with the tariff lines, the member
 * discount, the activity discount and the voucher. Created once and found again on later starts (the
 * voucher is issued once: when used, it stays used).
 */
export async function ensureDemoOperations(db: Db, providerId: number): Promise<void> {
  const now = new Date();
  let [gold] = await db
    .select()
    .from(memberLevel)
    .where(and(eq(memberLevel.providerId, providerId), eq(memberLevel.name, DEMO_GOLD)));
  gold ??= (
    await db
      .insert(memberLevel)
      .values({ providerId, name: DEMO_GOLD, sortOrder: 1, basis: 'spend', threshold: 1_000_00, discountPercent: 10, validityDays: 365 })
      .returning()
  )[0]!;

  const [driver] = await db
    .select({ id: chargeUser.id })
    .from(chargeUser)
    .innerJoin(card, eq(card.chargeUserId, chargeUser.id))
    .where(and(eq(chargeUser.providerId, providerId), eq(chargeUser.account, DEMO_GOLD_ACCOUNT)));
  if (driver) {
    // Gold by override until a year from now, renewed on each start.
    await db
      .insert(memberStatus)
      .values({
        chargeUserId: driver.id,
        providerId,
        overrideLevelId: gold.id,
        overrideReason: 'Demo gold member',
        overrideUntil: new Date(now.getTime() + YEAR_MS),
      })
      .onConflictDoUpdate({
        target: memberStatus.chargeUserId,
        set: { overrideLevelId: gold.id, overrideReason: 'Demo gold member', overrideUntil: new Date(now.getTime() + YEAR_MS) },
      });
    let [template] = await db
      .select()
      .from(voucherTemplate)
      .where(and(eq(voucherTemplate.providerId, providerId), eq(voucherTemplate.name, DEMO_VOUCHER)));
    template ??= (
      await db
        .insert(voucherTemplate)
        .values({ providerId, name: DEMO_VOUCHER, kind: 'amount', value: 200, minBillCents: 0, validDays: 365 })
        .returning()
    )[0]!;
    const [held] = await db
      .select({ id: voucher.id })
      .from(voucher)
      .where(and(eq(voucher.templateId, template.id), eq(voucher.chargeUserId, driver.id)))
      .limit(1);
    if (!held) await db.insert(voucher).values(voucherOf(template, now, { chargeUserId: driver.id }));
  }

  const [running] = await db
    .select({ id: activity.id })
    .from(activity)
    .where(and(eq(activity.providerId, providerId), eq(activity.name, DEMO_ACTIVITY)))
    .limit(1);
  if (!running)
    await db.insert(activity).values({
      providerId,
      name: DEMO_ACTIVITY,
      type: 'serviceDiscount',
      status: 'active',
      startAt: now,
      endAt: new Date(now.getTime() + YEAR_MS),
      discountKind: 'percent',
      discountValue: 20,
      activatedAt: now,
    });
}
