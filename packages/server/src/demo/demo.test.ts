import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import {
  card,
  chargePoint,
  chargingTransaction,
  provider,
  serviceArea,
  serviceAreaMember,
  serviceAreaStation,
  station,
} from '../db/schema.js';
import { insertPoint, insertTransaction } from '../modules/monitor/monitor.fixtures.js';
import { DEMO_PROVIDER, endOrphanedDemoSessions, startDemo, type Demo } from './demo.js';

let s: TestServer;
let demo: Demo | undefined;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await demo?.stop();
  await s.close();
});

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('demo', () => {
  it('creates its provider, stations, points and cards, and its simulated chargers charge with those cards', async () => {
    const port = Number(new URL(s.url).port);
    demo = await startDemo({ db: s.database.db, config: s.config, port });
    const db = s.database.db;
    const [p] = await db.select().from(provider).where(eq(provider.name, DEMO_PROVIDER));
    expect(p).toBeDefined();
    expect(await db.select().from(station).where(eq(station.providerId, p!.id))).toHaveLength(3);
    expect(await db.select().from(chargePoint).where(eq(chargePoint.providerId, p!.id))).toHaveLength(9);
    expect((await db.select().from(card).where(eq(card.providerId, p!.id))).every((c) => c.balanceCents > 0)).toBe(true);
    // One service area over its stations, the administrator holding every part in it (issue 17).
    const [area] = await db.select().from(serviceArea).where(eq(serviceArea.providerId, p!.id));
    expect(await db.select().from(serviceAreaStation).where(eq(serviceAreaStation.areaId, area!.id))).toHaveLength(3);
    expect((await db.select().from(serviceAreaMember).where(eq(serviceAreaMember.areaId, area!.id))).map((m) => m.role).sort()).toEqual([
      'archivist',
      'leader',
      'serviceMan',
    ]);

    await Promise.all(demo.fleets.map((f) => f.booted()));
    const online = await until(async () => {
      const rows = await db
        .select()
        .from(chargePoint)
        .where(and(eq(chargePoint.providerId, p!.id), eq(chargePoint.online, true)));
      return rows.length === 9 ? rows : undefined;
    }, 'six demo points online');
    expect(online.every((r) => r.vendor === 'CSMS')).toBe(true);

    // Half the connectors start charging right after boot, with demo cards the server accepts.
    const started = await until(async () => {
      const [t] = await db
        .select()
        .from(chargingTransaction)
        .where(
          and(
            eq(chargingTransaction.providerId, p!.id),
            eq(chargingTransaction.authStatus, 'Accepted'),
            isNotNull(chargingTransaction.lastSampleAt),
          ),
        );
      return t;
    }, 'an accepted demo session with a meter sample');
    expect(started.idTag).toMatch(/^DEMO-TAG-\d\d$/);
    expect(started.valid).toBe(true);
  });

  it('finds its data again on the next start and renews the keys', async () => {
    await demo?.stop();
    const db = s.database.db;
    // Its chargers come back empty: the sessions they left open end where their last sample was, and only theirs.
    const [p] = await db.select().from(provider).where(eq(provider.name, DEMO_PROVIDER));
    const open = await db
      .select()
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.providerId, p!.id), isNull(chargingTransaction.stoppedAt)));
    expect(open.length).toBeGreaterThan(0);
    const other = await insertTransaction(db, await insertPoint(db, 1));
    expect(await endOrphanedDemoSessions(db)).toBe(open.length);
    for (const t of open) {
      const [after] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t.id));
      expect(after).toMatchObject({ stopReason: 'PowerLoss', meterStopWh: t.lastMeterWh, energyWh: t.energyWh });
      expect(after!.stoppedAt!.getTime()).toBe((t.lastSampleAt ?? t.startedAt).getTime());
    }
    const [untouched] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, other.id));
    expect(untouched!.stoppedAt).toBeNull();

    const before = await db.select({ serial: chargePoint.serialNumber, hash: chargePoint.ocppKeyHash }).from(chargePoint);
    demo = await startDemo({ db, config: s.config, port: Number(new URL(s.url).port) });
    const after = await db.select({ serial: chargePoint.serialNumber, hash: chargePoint.ocppKeyHash }).from(chargePoint);
    expect(after.map((r) => r.serial).sort()).toEqual(before.map((r) => r.serial).sort());
    for (const row of after.filter((r) => r.serial.startsWith('DEMO-')))
      expect(row.hash).not.toBe(before.find((b) => b.serial === row.serial)!.hash);
    await Promise.all(demo.fleets.map((f) => f.booted()));
  });
});
