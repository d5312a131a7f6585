import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import type { Db } from '../db/client.js';
import { activity, billLine, card, chargePoint, chargingTransaction, ledger, memberLevel, provider, voucher } from '../db/schema.js';
import { createBilling } from '../modules/billing/settle.js';
import { createLedger } from '../modules/cards/ledger.js';
import { createDiscounts } from '../modules/operations/discounts.js';
import { createMembership } from '../modules/operations/membership.js';
import { percentOf } from '../modules/operations/percent.js';
import { DEMO_PROVIDER, demoIdTag, ensureDemoData } from './demo.js';

let s: TestServer;
let db: Db;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});
afterAll(() => s.close());

describe('demo operations', () => {
  it('seeds a gold member with a voucher and a running activity once; his session is billed with every discount, to the cent', async () => {
    await ensureDemoData(db, s.config);
    await ensureDemoData(db, s.config);
    const [p] = await db.select().from(provider).where(eq(provider.name, DEMO_PROVIDER));
    expect(await db.select().from(memberLevel).where(eq(memberLevel.providerId, p!.id))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(activity)
        .where(and(eq(activity.providerId, p!.id), eq(activity.status, 'active'))),
    ).toHaveLength(1);
    expect(await db.select().from(voucher).where(eq(voucher.providerId, p!.id))).toHaveLength(1);

    // Ten kWh in the last hour on the first demo card (the gold member's).
    const [c] = await db
      .select()
      .from(card)
      .where(eq(card.physicalId, demoIdTag(1)));
    const [cp] = await db.select().from(chargePoint).where(eq(chargePoint.providerId, p!.id)).limit(1);
    const stop = new Date();
    const [t] = await db
      .insert(chargingTransaction)
      .values({
        providerId: p!.id,
        stationId: cp!.stationId,
        chargePointId: cp!.id,
        connectorNo: 1,
        idTag: demoIdTag(1),
        cardId: c!.id,
        startType: 'card',
        authStatus: 'Accepted',
        meterStartWh: 0,
        startedAt: new Date(stop.getTime() - 3_600_000),
        meterStopWh: 10_000,
        stoppedAt: stop,
        energyWh: 10_000,
      })
      .returning();
    const billing = createBilling({ db, ledger: createLedger({ db }), hooks: createDiscounts({ membership: createMembership({ db }) }) });
    expect(await billing.settle(t!.id)).toMatchObject({ kind: 'billed' });

    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t!.id));
    const tariff = await db
      .select()
      .from(billLine)
      .where(and(eq(billLine.transactionId, t!.id), isNotNull(billLine.priceId)));
    const discounts = await db
      .select()
      .from(billLine)
      .where(and(eq(billLine.transactionId, t!.id), isNull(billLine.priceId)))
      .orderBy(asc(billLine.id));
    expect(tariff.reduce((n, l) => n + l.amountCents, 0)).toBe(row!.elecFeeCents! + row!.serviceFeeCents!);
    const service = row!.serviceFeeCents!;
    const member = percentOf(service, 10);
    const act = percentOf(service - member, 20);
    // The 2.00 voucher comes off what service fee is left: all of it in the demo's night valley hours.
    const off = Math.min(200, service - member - act);
    expect(discounts.map((l) => [l.kind, l.label, l.amountCents])).toEqual([
      ['member', 'Gold', -member],
      ['activity', 'Demo service-fee week', -act],
      ['voucher', 'Demo welcome voucher', -off],
    ]);
    expect(row!.totalCents).toBe(row!.elecFeeCents! + service - member - act - off);
    const [charge] = await db
      .select()
      .from(ledger)
      .where(and(eq(ledger.cardId, c!.id), eq(ledger.transactionRef, String(t!.id))));
    expect(charge!.amountCents).toBe(-row!.totalCents!);
    expect((await db.select().from(voucher).where(eq(voucher.providerId, p!.id)))[0]).toMatchObject({
      status: 'used',
      transactionId: t!.id,
    });
    // Found again on the next start: the used voucher is not issued again.
    await ensureDemoData(db, s.config);
    expect(await db.select().from(voucher).where(eq(voucher.providerId, p!.id))).toHaveLength(1);
  });
});
