import { createProvider } from '../../../test/fixtures.js';
import type { Db } from '../../db/client.js';
import { card, chargePoint, chargeUser, chargingTransaction, meterValue, price, station } from '../../db/schema.js';
import type { Tier } from '../billing/tariff.js';

let n = 0;
export const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

// Shanghai: valley before 08:00 local, peak 08:00–12:00, flat afterwards (as the billing tests).
const slots: Tier[] = Array.from({ length: 48 }, (_, i) => (i < 16 ? 'valley' : i < 24 ? 'peak' : 'flat'));
const prices = {
  sharpElec: 15000,
  sharpService: 5000,
  peakElec: 12345,
  peakService: 4000,
  flatElec: 8000,
  flatService: 3000,
  valleyElec: 3333,
  valleyService: 1000,
};

/** A provider with one priced station and point: a session of `session()` bills 549 electricity + 175 service. */
export async function pricedSite(db: Db, providerId?: number) {
  const pid = providerId ?? (await createProvider(db)).id;
  const [st] = await db
    .insert(station)
    .values({
      providerId: pid,
      name: uniq('st'),
      country: 'CN',
      address: 'x',
      longitude: 121.47,
      latitude: 31.23,
      timeZone: 'Asia/Shanghai',
    })
    .returning();
  const [cp] = await db
    .insert(chargePoint)
    .values({ providerId: pid, stationId: st!.id, serialNumber: uniq('SN'), name: 'p', equipmentType: 'ac', ratedPowerW: 7000 })
    .returning();
  await db.insert(price).values({ providerId: pid, stationId: st!.id, effectiveFrom: new Date('2025-01-01T00:00:00Z'), slots, ...prices });

  async function newCard(balanceCents: number, groupId: number | null = null) {
    const [u] = await db
      .insert(chargeUser)
      .values({ providerId: pid, account: uniq('acct'), userType: 'card', groupId })
      .returning();
    const [c] = await db
      .insert(card)
      .values({
        providerId: pid,
        cardNumber: uniq('no'),
        physicalId: uniq('UID').slice(0, 20),
        chargeUserId: u!.id,
        balanceCents,
        expireAt: new Date('2030-01-01'),
      })
      .returning();
    return { card: c!, user: u! };
  }

  /** 07:30–08:30 Shanghai on `day`, 7 kWh: 3.5 valley + 3.5 peak. */
  async function session(cardId: number, day = '2026-03-01', v: Partial<typeof chargingTransaction.$inferInsert> = {}) {
    const start = new Date(`${day}T23:30:00Z`);
    const stop = new Date(start.getTime() + 3_600_000);
    const [t] = await db
      .insert(chargingTransaction)
      .values({
        providerId: pid,
        stationId: st!.id,
        chargePointId: cp!.id,
        connectorNo: 1,
        idTag: 'X',
        cardId,
        startType: 'card',
        authStatus: 'Accepted',
        meterStartWh: 1000,
        startedAt: new Date(start.getTime() + (n++ % 50) * 1000),
        meterStopWh: 8000,
        stoppedAt: stop,
        energyWh: 7000,
        ...v,
      })
      .returning();
    await db.insert(meterValue).values(
      [1, 2, 3, 4, 5].map((k) => ({
        chargePointId: cp!.id,
        connectorNo: 1,
        transactionId: t!.id,
        sampledAt: new Date(start.getTime() + k * 600_000),
        energyWh: Math.round(1000 + (7000 * k) / 6),
      })),
    );
    return t!;
  }
  return { providerId: pid, stationId: st!.id, pointId: cp!.id, newCard, session };
}
