import { api, type ControllerLive, type LocalControllerDto, type PointState } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness.js';
import { card, chargePoint, chargeUser, provider, userGroup } from '../../src/db/schema.js';
import { createPoint, eventually } from '../ocpp/support.js';

/*
 * The built-in load balancer (issue 15 item 2) over real sockets: three simulated 22 kW chargers
 * behind a 30 kW local controller. With three sessions the power the chargers report stays within
 * 30 kW; when one stops, the others rise. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */

type Reply<T> = { code: number; msg: string; data: T };

let s: TestServer;
let admin: string;
const sims: ChargePoint[] = [];

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});

const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;
const live = async (id: number) =>
  (await s.call<ControllerLive[]>('GET', api.localController.live.path, { token: admin })).data.find((c) => c.id === id)!;

/**
 * A station with `n` simulated 22 kW one-connector chargers, booted, each with a card of its own; those
 * whose index is in `v201` speak OCPP 2.0.1 (a mixed fleet is balanced as one).
 */
async function site(n: number, v201: number[] = []) {
  const first = await createPoint(s.database.db, { connectors: 1, ratedPowerW: 22_000 });
  const points = [first];
  for (let i = 1; i < n; i++)
    points.push(await createPoint(s.database.db, { connectors: 1, ratedPowerW: 22_000, stationId: first.stationId }));
  const chargers = [];
  for (const [i, p] of points.entries()) {
    const sim = createChargePoint({
      ...(v201.includes(i) ? { ocppVersion: '2.0.1' as const } : {}),
      url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
      serialNumber: p.serialNumber,
      key: p.key!,
      connectors: 1,
      powerW: 22_000,
      meterValueSampleInterval: 1,
      clockAlignedDataInterval: 0,
    });
    sims.push(sim);
    sim.start();
    await sim.ready();
    const tag = `LB${p.point.id}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const r = await s.call<{ id: number }>('POST', api.card.add.path, {
      token: admin,
      body: {
        cardNumber: tag,
        physicalId: tag,
        providerId: 1,
        expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
        prepaidCents: 1_000_000,
        email: 'driver@example.test',
      },
    });
    expect(r.code).toBe(200);
    chargers.push({ sim, serialNumber: p.serialNumber, tag });
  }
  return { stationId: first.stationId, chargers };
}

/** The power each charger reports (its last MeterValues), as the live view shows it. */
const reported = (l: ControllerLive) => l.connectors.filter((c) => c.state === 'charging').map((c) => c.measuredW ?? 0);

describe('a 30 kW controller over three 22 kW points', () => {
  it('holds three sessions within 30 kW, and gives the freed power to the others when one stops; a 2.0.1 charger among them is balanced alike', async () => {
    const { stationId, chargers } = await site(3, [1]);
    const added = await post<LocalControllerDto>(api.localController.add, {
      name: 'Car park',
      stationId,
      limitW: 30_000,
      serialNumbers: chargers.map((c) => c.serialNumber),
    });
    expect(added.code, added.msg).toBe(200);
    expect(added.data.ratedSumW).toBe(66_000);
    const id = added.data.id;
    const versions = await s.database.db
      .select({ v: chargePoint.ocppVersion })
      .from(chargePoint)
      .where(
        inArray(
          chargePoint.serialNumber,
          chargers.map((c) => c.serialNumber),
        ),
      )
      .orderBy(chargePoint.serialNumber);
    expect(versions.map((r) => r.v).sort()).toEqual(['1.6', '1.6', '2.0.1']);

    for (const c of chargers) {
      c.sim.plugIn(1);
      await c.sim.startCharging(1, c.tag);
    }
    const three = await eventually(async () => {
      const l = await live(id);
      const power = reported(l);
      return power.length === 3 && power.every((w) => w > 9_000 && w <= 10_000) ? l : undefined;
    });
    expect(three.allocatedW).toBeLessThanOrEqual(30_000);
    expect(reported(three).reduce((a, w) => a + w, 0)).toBeLessThanOrEqual(30_000);
    expect(three.connectors.every((c) => c.answer === 'accepted')).toBe(true);

    await chargers[0]!.sim.stopCharging(1);
    const two = await eventually(async () => {
      const l = await live(id);
      const power = reported(l);
      return l.connectors.length === 2 && power.every((w) => w > 14_000 && w <= 15_000) ? l : undefined;
    });
    expect(two.allocatedW).toBeLessThanOrEqual(30_000);

    // The last hour is sampled at each plan.
    const history = await s.call<{ limitW: number; allocatedW: number }[]>('GET', `${api.localController.history.path}?id=${id}`, {
      token: admin,
    });
    expect(history.data.length).toBeGreaterThan(1);
    expect(history.data.every((x) => x.allocatedW <= x.limitW)).toBe(true);
  });

  it('caps the session of a 2.0.1 charger the grid operator limited (NotifyChargingLimit), gives the rest to the other, and shows the limit until it is cleared', async () => {
    const { stationId, chargers } = await site(2, [0]);
    const added = await post<LocalControllerDto>(api.localController.add, {
      name: 'Grid limited',
      stationId,
      limitW: 30_000,
      serialNumbers: chargers.map((c) => c.serialNumber),
    });
    expect(added.code, added.msg).toBe(200);
    const id = added.data.id;
    for (const c of chargers) {
      c.sim.plugIn(1);
      await c.sim.startCharging(1, c.tag);
    }
    const [limited, other] = chargers as [(typeof chargers)[number], (typeof chargers)[number]];
    const shares = async () => {
      const l = await live(id);
      const of = (c: typeof limited) => l.connectors.find((x) => x.serialNumber === c.serialNumber)?.allocatedW;
      return [of(limited), of(other)];
    };
    await eventually(async () => (await shares()).every((w) => w === 15_000));
    const limitOf = async () =>
      (
        await s.call<{ list: PointState[] }>('GET', `${api.monitor.points.path}?page=1&limit=10&serialNumber=${limited.serialNumber}`, {
          token: admin,
        })
      ).data.list[0]!.connectors[0]!.externalLimit;

    await limited.sim.send('NotifyChargingLimit', {
      chargingLimit: { chargingLimitSource: 'SO', isGridCritical: true },
      evseId: 1,
      chargingSchedule: [{ id: 1, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 8, numberPhases: 3 }] }],
    });
    // 8 A on three phases: 5,520 W; the other takes what the controller has left, up to its rating.
    await eventually(async () => {
      const [a, b] = await shares();
      return a === 5_520 && b === 22_000;
    });
    expect(await limitOf()).toMatchObject({ source: 'SO', gridCritical: true, limitW: 5_520 });

    await limited.sim.send('ClearedChargingLimit', { chargingLimitSource: 'SO' });
    await eventually(async () => (await shares()).every((w) => w === 15_000));
    expect(await limitOf()).toBeNull();
    for (const c of chargers) await c.sim.stopCharging(1);
  });

  it('serves the sessions of a priority user group’s members first', async () => {
    const { stationId, chargers } = await site(2);
    const db = s.database.db;
    const [group] = await db
      .insert(userGroup)
      .values({ providerId: 1, name: `fleet ${Date.now()}` })
      .returning();
    const [driver] = await db
      .insert(chargeUser)
      .values({ providerId: 1, account: `fleet-${Date.now()}`, userType: 'card', groupId: group!.id })
      .returning();
    await db.update(card).set({ chargeUserId: driver!.id }).where(eq(card.physicalId, chargers[1]!.tag));
    const added = await post<LocalControllerDto>(api.localController.add, {
      name: 'Fleet first',
      stationId,
      limitW: 20_000,
      serialNumbers: chargers.map((c) => c.serialNumber),
      priorityGroupIds: [group!.id],
    });
    expect(added.code, added.msg).toBe(200);
    expect(added.data.priorityGroupNames).toEqual([group!.name]);
    for (const c of chargers) {
      c.sim.plugIn(1);
      await c.sim.startCharging(1, c.tag);
    }
    // The member's session fills up first; the other keeps its minimum (6 A on three phases: 4,140 W).
    const l = await eventually(async () => {
      const now = await live(added.data.id);
      const byPoint = Object.fromEntries(now.connectors.map((c) => [c.serialNumber, c]));
      const other = byPoint[chargers[0]!.serialNumber];
      const member = byPoint[chargers[1]!.serialNumber];
      return other?.measuredW === 4_140 && member?.measuredW === 15_860 ? now : undefined;
    });
    expect(l.connectors.find((c) => c.serialNumber === chargers[1]!.serialNumber)?.priority).toBe(true);
    // A group of another provider is refused on its field.
    const [otherProvider] = await db
      .insert(provider)
      .values({ name: `other ${Date.now()}`, type: 'common', parentId: 1, contact: 'x', email: 'x@example.com' })
      .returning();
    const [foreign] = await db
      .insert(userGroup)
      .values({ providerId: otherProvider!.id, name: `other ${Date.now()}` })
      .returning();
    const refused = await post<{ field: string }>(api.localController.edit, {
      id: added.data.id,
      name: 'Fleet first',
      stationId,
      limitW: 20_000,
      serialNumbers: chargers.map((c) => c.serialNumber),
      priorityGroupIds: [foreign!.id],
    });
    expect([refused.code, refused.data.field]).toEqual([400, 'priorityGroupIds']);
  });

  it('a point belongs to at most one controller, and the limit must let one car charge', async () => {
    const { stationId, chargers } = await site(1);
    const body = { name: 'A', stationId, limitW: 11_000, serialNumbers: [chargers[0]!.serialNumber] };
    expect((await post(api.localController.add, body)).code).toBe(200);
    const again = await post<{ field: string }>(api.localController.add, { ...body, name: 'B' });
    expect([again.code, again.data.field]).toEqual([400, 'serialNumbers']);
    expect(again.msg).toContain('already belongs to local controller “A”');
    const other = await site(1);
    const low = await post<{ field: string }>(
      api.localController.add,
      { name: 'C', stationId: other.stationId, limitW: 1_000, serialNumbers: [other.chargers[0]!.serialNumber] },
      'zh',
    );
    expect([low.code, low.data.field]).toEqual([400, 'limitW']);
    expect(low.msg).toContain('4140 W');
  });

  it('a point moved to another station leaves its controller', async () => {
    const { stationId, chargers } = await site(2);
    const added = await post<LocalControllerDto>(api.localController.add, {
      name: 'Moving',
      stationId,
      limitW: 20_000,
      serialNumbers: chargers.map((c) => c.serialNumber),
    });
    const elsewhere = await createPoint(s.database.db, { connectors: 1 });
    const [moving] = await s.database.db
      .execute(sql`select id from charge_point where serial_number = ${chargers[1]!.serialNumber}`)
      .then((r) => (r as unknown as { rows: { id: number }[] }).rows);
    const moved = await post(api.point.move, { id: moving!.id, stationId: elsewhere.stationId });
    expect(moved.code).toBe(200);
    const after = await s.call<LocalControllerDto>('GET', `${api.localController.get.path}?id=${added.data.id}`, { token: admin });
    expect(after.data.serialNumbers).toEqual([chargers[0]!.serialNumber]);
  });
});
