import { runFleet, type Fleet } from '@csms/simulator';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import {
  card,
  chargePoint,
  chargeUser,
  connector,
  localController,
  localControllerPoint,
  price,
  provider,
  serviceArea,
  serviceAreaMember,
  serviceAreaStation,
  station,
  systemUser,
} from '../db/schema.js';
import { BUILT_IN_ADMIN } from '../lib/grants.js';
import { createLedger } from '../modules/cards/ledger.js';
import { generateOcppKey, hashOcppKey } from '../ocpp/keys.js';
import { ensureDemoOperations } from './demo-operations.js';

/**
 * The demo (`CSMS_DEMO=true`, which `npm start` sets unless told otherwise): a provider with three
 * stations, nine charge points and fourteen cards, and fleets of simulated chargers, in this process,
 * that connect to our own OCPP endpoint over loopback and charge with those cards, so the console
 * is alive on first start. Everything is created once and found again on later starts; the points'
 * OCPP keys are renewed on each start (only their hashes are stored) and handed to the fleet.
 */

export const DEMO_PROVIDER = 'Demo Charging Co.';
export const DEMO_AREA = 'Demo service area';
const STATIONS = [
  { name: 'Demo Park – Pudong', address: '88 Century Avenue, Pudong, Shanghai', longitude: 121.5069, latitude: 31.2397 },
  { name: 'Demo Mall – Xuhui', address: '1 Hongqiao Road, Xuhui, Shanghai', longitude: 121.4365, latitude: 31.1951 },
  // Three 22 kW points behind a 30 kW grid connection: the load balancer at work from the first start (issue 15).
  {
    name: 'Demo Depot – Minhang',
    address: '500 Jianchuan Road, Minhang, Shanghai',
    longitude: 121.4126,
    latitude: 31.0233,
    balanced: true,
  },
];
/** The balanced depot's local controller: below the 66 kW its points could draw together. */
const DEPOT_LIMIT_W = 30_000;
const DEPOT_POINT_W = 22_000;
const POINTS_PER_STATION = 3;
const CARDS = 14;
const START_BALANCE_CENTS = 50_000;
const TOP_UP_BELOW_CENTS = 5_000;

/** Valley at night, peak in the morning and evening rush, sharp in the late afternoon, flat otherwise. */
const SLOTS = Array.from({ length: 48 }, (_, i) =>
  i < 16 ? 'valley' : i < 20 ? 'flat' : i < 24 ? 'peak' : i < 28 ? 'flat' : i < 34 ? 'sharp' : i < 42 ? 'peak' : i < 46 ? 'flat' : 'valley',
) as ('sharp' | 'peak' | 'flat' | 'valley')[];

export const demoSerial = (i: number) => `DEMO-${String(i).padStart(4, '0')}`;
export const demoIdTag = (i: number) => `DEMO-TAG-${String(i).padStart(2, '0')}`;

async function ensureData(db: Db, config: Config): Promise<Map<string, string>> {
  const ledger = createLedger({ db });
  const [superProvider] = await db.select().from(provider).where(eq(provider.type, 'super')).limit(1);
  if (!superProvider) throw new Error('demo: the super provider is missing (seed first)');
  let [demo] = await db.select().from(provider).where(eq(provider.name, DEMO_PROVIDER)).limit(1);
  demo ??= (
    await db
      .insert(provider)
      .values({ name: DEMO_PROVIDER, type: 'common', parentId: superProvider.id, contact: 'Demo', email: 'demo@example.com' })
      .returning()
  )[0]!;
  const providerId = demo.id;

  const keys = new Map<string, string>();
  let index = 0;
  for (const { balanced, ...s } of STATIONS) {
    let [st] = await db
      .select()
      .from(station)
      .where(and(eq(station.providerId, providerId), eq(station.name, s.name)));
    st ??= (
      await db
        .insert(station)
        .values({
          providerId,
          ...s,
          country: 'CN',
          timeZone: config.timeZone,
          openingStart: '00:00',
          openingEnd: '23:59',
          servicePhone: '400-000-0000',
          amenities: ['parking', 'wifi', 'food'],
          description: 'Simulated chargers: sessions start and stop by themselves.',
        })
        .returning()
    )[0]!;
    const [hasPrice] = await db.select({ id: price.id }).from(price).where(eq(price.stationId, st.id)).limit(1);
    if (!hasPrice) {
      await db.insert(price).values({
        providerId,
        stationId: st.id,
        effectiveFrom: new Date('2020-01-01T00:00:00Z'),
        sharpElec: 13000,
        sharpService: 6000,
        peakElec: 11000,
        peakService: 5000,
        flatElec: 7500,
        flatService: 4000,
        valleyElec: 3500,
        valleyService: 2000,
        slots: SLOTS,
      });
    }
    const pointIds: number[] = [];
    for (let p = 0; p < POINTS_PER_STATION; p++) {
      const serialNumber = demoSerial(++index);
      const key = generateOcppKey();
      keys.set(serialNumber, key);
      const dc = p === 0 && !balanced;
      const [existing] = await db.select({ id: chargePoint.id }).from(chargePoint).where(eq(chargePoint.serialNumber, serialNumber));
      if (existing) {
        await db
          .update(chargePoint)
          // A fresh key each start: the simulated chargers forget one sent to them (no key change waits).
          .set({ ocppKeyHash: hashOcppKey(key), ocppKeyPreviousHash: null, ocppKeySentAt: null })
          .where(eq(chargePoint.id, existing.id));
        pointIds.push(existing.id);
        continue;
      }
      const [cp] = await db
        .insert(chargePoint)
        .values({
          providerId,
          stationId: st.id,
          serialNumber,
          name: `${dc ? 'DC' : 'AC'} ${index}`,
          equipmentType: dc ? 'dc' : 'ac',
          ratedPowerW: dc ? 60_000 : balanced ? DEPOT_POINT_W : 7_000,
          softwareVersion: 'sim-1.0',
          ocppKeyHash: hashOcppKey(key),
        })
        .returning();
      await db.insert(connector).values(
        [1, 2].map((connectorNo) => ({
          chargePointId: cp!.id,
          connectorNo,
          name: `${connectorNo}`,
          standard: dc ? ('dc' as const) : ('ac' as const),
          type: dc ? 'CCS2' : 'Type2',
        })),
      );
      pointIds.push(cp!.id);
    }
    if (balanced) {
      const [has] = await db.select({ id: localController.id }).from(localController).where(eq(localController.stationId, st.id)).limit(1);
      if (!has) {
        const [c] = await db
          .insert(localController)
          .values({
            providerId,
            stationId: st.id,
            name: 'Depot grid connection',
            description: '30 kW for three 22 kW points',
            limitW: DEPOT_LIMIT_W,
          })
          .returning();
        await db.insert(localControllerPoint).values(pointIds.map((chargePointId) => ({ controllerId: c!.id, chargePointId })));
      }
    }
  }

  // Work orders (issue 17): one service area over the demo's stations, the built-in administrator its leader,
  // service man and archive person, so that one sign-in can take a fault's order through the whole flow.
  let [area] = await db
    .select()
    .from(serviceArea)
    .where(and(eq(serviceArea.providerId, providerId), eq(serviceArea.name, DEMO_AREA)));
  if (!area) {
    area = (await db.insert(serviceArea).values({ providerId, name: DEMO_AREA }).returning())[0]!;
    const stations = await db.select({ id: station.id }).from(station).where(eq(station.providerId, providerId));
    await db
      .insert(serviceAreaStation)
      .values(stations.map((s) => ({ areaId: area!.id, stationId: s.id })))
      .onConflictDoNothing();
    const [admin] = await db.select({ id: systemUser.id }).from(systemUser).where(eq(systemUser.username, BUILT_IN_ADMIN));
    if (admin)
      await db
        .insert(serviceAreaMember)
        .values((['leader', 'serviceMan', 'archivist'] as const).map((role) => ({ areaId: area!.id, userId: admin.id, role })));
  }

  const tags = Array.from({ length: CARDS }, (_, i) => demoIdTag(i + 1));
  const known = await db.select().from(card).where(inArray(card.physicalId, tags));
  for (const [i, tag] of tags.entries()) {
    let c = known.find((k) => k.physicalId === tag);
    if (!c) {
      const [user] = await db
        .insert(chargeUser)
        .values({ providerId, account: `demo-driver-${i + 1}`, phone: `1380000${String(i + 1).padStart(4, '0')}`, userType: 'card' })
        .onConflictDoNothing()
        .returning();
      c = (
        await db
          .insert(card)
          .values({
            providerId,
            cardNumber: `8800${String(i + 1).padStart(6, '0')}`,
            physicalId: tag,
            chargeUserId: user?.id ?? null,
            expireAt: new Date(Date.now() + 5 * 365 * 86_400_000),
          })
          .returning()
      )[0]!;
    }
    // Keep the demo going: drivers top up when their balance runs low.
    if (c.balanceCents < TOP_UP_BELOW_CENTS) {
      await ledger.post({
        account: { kind: 'card', cardId: c.id },
        tradeType: 'recharge',
        amountCents: START_BALANCE_CENTS,
        source: 'demo',
      });
    }
  }
  // Operations (issue 19): a gold member with a voucher, and a service-fee activity.
  await ensureDemoOperations(db, providerId);
  return keys;
}

/**
 * The simulated chargers live in the server's process, so what they were charging when it stopped
 * went with them: they come back with no transaction to resume or stop. Their sessions still open
 * end where their last sample left them (reason PowerLoss) and are billed like any other; without
 * this they would stay "charging" for ever. Runs before the OCPP endpoint loads its running
 * transactions. Returns how many were ended.
 */
export async function endOrphanedDemoSessions(db: Db): Promise<number> {
  const ended = (await db.execute(sql`update charging_transaction t
      set stopped_at = greatest(coalesce(t.last_sample_at, t.started_at), t.started_at), meter_stop_wh = t.last_meter_wh,
          stop_reason = 'PowerLoss'
      from charge_point p, provider o
      where p.id = t.charge_point_id and o.id = p.provider_id and o.name = ${DEMO_PROVIDER}
        and p.serial_number like 'DEMO-%' and t.stopped_at is null
      returning t.id`)) as unknown as { rows: unknown[] };
  return ended.rows.length;
}

export interface Demo {
  fleets: Fleet[];
  stop(): Promise<void>;
}

/** The demo's data alone, without its chargers (tests). */
export const ensureDemoData = ensureData;

/** Creates the demo data and starts the simulated chargers against `ws://127.0.0.1:<port>/ocpp`. */
export async function startDemo({ db, config, port }: { db: Db; config: Config; port: number }): Promise<Demo> {
  const keys = await ensureData(db, config);
  const serials = [...keys.keys()];
  // The first point of the first two stations is a 60 kW DC charger, the others 7 kW AC; the depot's are 22 kW AC and
  // busy, so that its controller has sessions to balance: one fleet per rating, so each charges at its rating.
  const plain = serials.slice(0, 2 * POINTS_PER_STATION);
  const dc = plain.filter((_, i) => i % POINTS_PER_STATION === 0);
  const ac = plain.filter((_, i) => i % POINTS_PER_STATION !== 0);
  const depot = serials.slice(2 * POINTS_PER_STATION);
  // Every other AC point speaks OCPP 2.0.1: the console runs a mixed fleet on one model.
  const ac16 = ac.filter((_, i) => i % 2 === 0);
  const ac201 = ac.filter((_, i) => i % 2 === 1);
  const fleet = (list: string[], powerW: number, busy = false, ocppVersion: '1.6' | '2.0.1' = '1.6') =>
    runFleet({
      url: `ws://127.0.0.1:${port}/ocpp`,
      count: list.length,
      serial: (i) => list[i - 1]!,
      keys: (serial) => keys.get(serial),
      scenario: 'demo',
      idTags: Array.from({ length: CARDS }, (_, i) => demoIdTag(i + 1)),
      connectors: 2,
      point: {
        powerW,
        meterValueSampleInterval: 15,
        clockAlignedDataInterval: 300,
        vendor: 'CSMS',
        model: 'Simulator',
        ocppVersion,
        // The 2.0.1 chargers know the server's master pass group (AuthCtrlr.MasterPassGroupId), as a site's would be set.
        ...(ocppVersion === '2.0.1' ? { configuration: { MasterPassGroupId: config.ocpp.masterPassGroupId } } : {}),
      },
      demo: busy
        ? { initialChargingShare: 0.9, idleS: [30, 120], sessionS: [900, 2400] }
        : { initialChargingShare: 0.5, idleS: [60, 600], sessionS: [300, 1500] },
    });
  const fleets = [fleet(dc, 50_000), fleet(ac16, 7_000), fleet(ac201, 7_000, false, '2.0.1'), fleet(depot, DEPOT_POINT_W, true)];
  return { fleets, stop: async () => void (await Promise.all(fleets.map((f) => f.stop()))) };
}
