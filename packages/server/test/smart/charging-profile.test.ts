import { api, type ChargingProfileDto, type ProfileInForce } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargePoint } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually } from '../ocpp/support.js';
import { createChargingProfileRepo } from '../../src/modules/chargingProfile/chargingProfile.repo.js';

/*
 * Charging profiles of the central system (issue 15 item 1) against simulated chargers over real
 * sockets: the checks OCPP 1.6 and the point's rating set, SetChargingProfile to every target with
 * each answer stored, the composite schedule the charger then reports, clearing, and the profiles
 * sent again to a point that rebooted.
 */

type Sent = { connectorId: number; csChargingProfiles: { chargingProfileId: number; transactionId?: number; stackLevel: number } };
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

/** A simulated 22 kW charger with two connectors, connected and booted, and the SetChargingProfile requests it receives. */
async function charger(stationId?: number) {
  const p = await createPoint(s.database.db, { connectors: 2, ratedPowerW: 22_000, ...(stationId ? { stationId } : {}) });
  const sim = createChargePoint({
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber: p.serialNumber,
    key: p.key!,
    connectors: 2,
    powerW: 22_000,
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
    rebootDelayMs: 50,
  });
  const received: Sent[] = [];
  sim.on('traffic', (e) => {
    if (e.type === 'callReceived' && e.action === 'SetChargingProfile') received.push(e.payload as Sent);
  });
  sims.push(sim);
  sim.start();
  await sim.ready();
  return { sim, pointId: p.point.id, serialNumber: p.serialNumber, stationId: p.stationId, received };
}

const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;

function profile(stationId: number, serialNumbers: string[], v: Record<string, unknown> = {}) {
  return {
    stationId,
    serialNumbers,
    connectors: [0],
    purpose: 'ChargePointMaxProfile',
    stackLevel: 1,
    chargingProfileKind: 'Absolute',
    chargingRateUnit: 'W',
    startSchedule: new Date(Date.now() - 60_000).toISOString(),
    periods: [{ startPeriod: 0, limit: 11_000 }],
    ...v,
  };
}

describe('what a profile may hold', () => {
  let point: Awaited<ReturnType<typeof createPoint>>;
  beforeAll(async () => {
    point = await createPoint(s.database.db, { connectors: 2, ratedPowerW: 22_000 });
  });

  const refused = async (v: Record<string, unknown>, field: string, lang: 'en' | 'zh' = 'en') => {
    const r = await post<{ field: string }>(api.chargingProfile.add, profile(point.stationId, [point.serialNumber], v), lang);
    expect(r.code, JSON.stringify(r)).toBe(400);
    expect(r.data.field).toBe(field);
    return r.msg;
  };

  it('OCPP 1.6’s rules, each on its field', async () => {
    expect(await refused({ connectors: [1] }, 'connectors')).toMatch(/connector 0/);
    expect(await refused({ purpose: 'TxProfile', connectors: [0] }, 'connectors')).toMatch(/not to connector 0/);
    expect(await refused({ periods: [{ startPeriod: 60, limit: 1000 }] }, 'periods.0.startPeriod')).toMatch(/first period/);
    const order = [
      { startPeriod: 0, limit: 1000 },
      { startPeriod: 0, limit: 2000 },
    ];
    expect(await refused({ periods: order }, 'periods.1.startPeriod')).toMatch(/after the one before/);
    expect(await refused({ chargingProfileKind: 'Recurring' }, 'recurrencyKind')).toMatch(/Recurrency/);
    expect(await refused({ chargingProfileKind: 'Relative', purpose: 'TxDefaultProfile' }, 'startSchedule')).toMatch(/relative profile/);
    expect(await refused({ chargingProfileKind: 'Relative', startSchedule: null }, 'chargingProfileKind')).toMatch(/cannot be relative/);
    expect(await refused({ startSchedule: null }, 'startSchedule')).toMatch(/Schedule start/);
    expect(await refused({ periods: [{ startPeriod: 0, limit: 0 }] }, 'periods.0.limit')).toBeTruthy();
    const from = new Date().toISOString();
    expect(await refused({ validFrom: from, validTo: from }, 'validTo')).toMatch(/after Valid from/);
  });

  it('limits within what the point can take: its rated power in W, its current per phase in A', async () => {
    const w = await refused({ periods: [{ startPeriod: 0, limit: 22_001 }] }, 'periods.0.limit');
    expect(w).toContain(`exceeds point ${point.serialNumber}'s maximum of 22000 W`);
    // 22 kW over 230 V × 3 phases: 31.8 A per phase; over one phase 95.6 A.
    expect(await refused({ chargingRateUnit: 'A', periods: [{ startPeriod: 0, limit: 32 }] }, 'periods.0.limit')).toContain('31.8 A');
    const r = await post<ChargingProfileDto>(
      api.chargingProfile.add,
      profile(point.stationId, [point.serialNumber], { chargingRateUnit: 'A', periods: [{ startPeriod: 0, limit: 90, numberPhases: 1 }] }),
    );
    expect(r.code).toBe(200);
    expect(await refused({ connectors: [0], purpose: 'TxDefaultProfile', minChargingRate: 30_000 }, 'minChargingRate')).toMatch(/minimum/);
    // In Chinese too.
    expect(await refused({ periods: [{ startPeriod: 0, limit: 50_000 }] }, 'periods.0.limit', 'zh')).toContain('超过充电桩');
  });

  it('points of the chosen station, with the chosen connectors', async () => {
    const other = await createPoint(s.database.db, { connectors: 1 });
    const r = await post<{ field: string }>(api.chargingProfile.add, profile(point.stationId, [other.serialNumber]));
    expect([r.code, r.data.field]).toEqual([400, 'serialNumbers']);
    expect(await refused({ purpose: 'TxDefaultProfile', connectors: [3] }, 'connectors')).toContain('has no connector 3');
  });
});

describe('sending, holding and clearing', () => {
  it('sends to every target, stores each answer, and the charger’s composite schedule follows', async () => {
    const c = await charger();
    const composite = (connectorId = 0) =>
      post<{ status: string; chargingSchedule: { chargingSchedulePeriod: { limit: number }[] } }>(api.pointAction.getCompositeSchedule, {
        serialNumber: c.serialNumber,
        connectorId,
        duration: 600,
        chargingRateUnit: 'W',
      });
    const unlimited = (await composite()).data.chargingSchedule.chargingSchedulePeriod[0]?.limit;
    expect(unlimited).toBeGreaterThan(11_000);
    const offline = await createPoint(s.database.db, { connectors: 2, ratedPowerW: 22_000, stationId: c.stationId });
    const added = await post<ChargingProfileDto>(api.chargingProfile.add, profile(c.stationId, [c.serialNumber, offline.serialNumber]));
    expect(added.code).toBe(200);
    expect(added.data.targets.map((t) => t.status)).toEqual(['notSent', 'notSent']);

    const sent = await post<{ results: { serialNumber: string; status: string; message: string | null }[] }>(api.chargingProfile.send, {
      id: added.data.id,
    });
    expect(sent.code).toBe(200);
    const bySerial = Object.fromEntries(sent.data.results.map((x) => [x.serialNumber, x.status]));
    expect(bySerial).toEqual({ [c.serialNumber]: 'accepted', [offline.serialNumber]: 'offline' });
    expect(c.received.at(-1)).toMatchObject({ connectorId: 0, csChargingProfiles: { chargingProfileId: added.data.id, stackLevel: 1 } });

    const got = await s.call<ChargingProfileDto>('GET', `${api.chargingProfile.get.path}?id=${added.data.id}`, { token: admin });
    expect(got.data.acceptedCount).toBe(1);
    const held = await s.call<ProfileInForce[]>('GET', `${api.chargingProfile.inForce.path}?serialNumber=${c.serialNumber}`, {
      token: admin,
    });
    expect(held.data.map((x) => x.id)).toEqual([added.data.id]);

    // The charger draws no more than the profile allows: its composite schedule says 11 kW.
    const limited = await composite();
    expect(limited.data.status).toBe('accepted');
    expect(limited.data.chargingSchedule.chargingSchedulePeriod[0]?.limit).toBe(11_000);

    // A profile a charger holds cannot be removed: it would keep limiting the charger with nothing left to clear it by.
    const removing = await post<null>(api.chargingProfile.remove, { ids: [added.data.id] });
    expect(removing.code).toBe(409);

    const cleared = await post<{ status: string; cleared: number }>(api.chargingProfile.clear, {
      serialNumber: c.serialNumber,
      id: added.data.id,
    });
    expect(cleared.data).toMatchObject({ status: 'accepted', cleared: 1 });
    const after = await s.call<ProfileInForce[]>('GET', `${api.chargingProfile.inForce.path}?serialNumber=${c.serialNumber}`, {
      token: admin,
    });
    expect(after.data).toEqual([]);
    expect((await composite()).data.chargingSchedule.chargingSchedulePeriod[0]?.limit).toBe(unlimited);
    expect((await post<{ removed: number }>(api.chargingProfile.remove, { ids: [added.data.id] })).data.removed).toBe(1);
  });

  it('a Tx profile goes to the running session only', async () => {
    const c = await charger();
    const added = await post<ChargingProfileDto>(
      api.chargingProfile.add,
      profile(c.stationId, [c.serialNumber], {
        purpose: 'TxProfile',
        connectors: [1],
        chargingProfileKind: 'Relative',
        startSchedule: null,
      }),
    );
    const idle = await post<{ results: { status: string }[] }>(api.chargingProfile.send, { id: added.data.id });
    expect(idle.data.results.map((x) => x.status)).toEqual(['noTransaction']);
    expect(c.received).toEqual([]);
  });

  it('a point that reboots gets its profiles again', async () => {
    const c = await charger();
    const added = await post<ChargingProfileDto>(
      api.chargingProfile.add,
      profile(c.stationId, [c.serialNumber], { purpose: 'TxDefaultProfile', connectors: [1, 2] }),
    );
    expect(added.code, JSON.stringify(added)).toBe(200);
    const sent = await post<{ results: { status: string }[] }>(api.chargingProfile.send, { id: added.data.id });
    expect(
      sent.data.results.map((x) => x.status),
      JSON.stringify(sent),
    ).toEqual(['accepted', 'accepted']);
    expect(c.received.map((x) => x.connectorId)).toEqual([1, 2]);
    const reset = await post<{ status: string }>(api.pointAction.reset, { serialNumber: c.serialNumber, type: 'Hard' });
    expect(reset.data.status).toBe('accepted');
    await eventually(async () => c.received.length === 4);
    expect(c.received.slice(2).map((x) => [x.connectorId, x.csChargingProfiles.chargingProfileId])).toEqual([
      [1, added.data.id],
      [2, added.data.id],
    ]);
  });

  it('points booting together share one lookup, and each gets only its own profiles', async () => {
    const a = await charger();
    const b = await charger(a.stationId);
    const other = await charger(a.stationId);
    const forA = await post<ChargingProfileDto>(
      api.chargingProfile.add,
      profile(a.stationId, [a.serialNumber], { purpose: 'TxDefaultProfile', connectors: [1] }),
    );
    const forBoth = await post<ChargingProfileDto>(api.chargingProfile.add, profile(a.stationId, [a.serialNumber, b.serialNumber]));
    for (const added of [forA, forBoth]) {
      expect(added.code, JSON.stringify(added)).toBe(200);
      await post(api.chargingProfile.send, { id: added.data.id });
    }
    const repo = createChargingProfileRepo({ db: s.database.db });
    const now = new Date();
    // Asked in one turn: one query for the three (the lookup's point ids are one array parameter).
    const [heldA, heldB, heldOther] = await Promise.all([a, b, other].map((c) => repo.afterBoot(c.pointId, now)));
    expect(heldA?.map((h) => [h.profile.id, h.connectorNo])).toEqual([
      [forA.data.id, 1],
      [forBoth.data.id, 0],
    ]);
    expect(heldB?.map((h) => [h.profile.id, h.connectorNo])).toEqual([[forBoth.data.id, 0]]);
    expect(heldOther).toEqual([]);
  });

  it('a point moved to another station since is no longer the profile’s: neither sent nor sent again at its boot', async () => {
    const a = await charger();
    const b = await charger(a.stationId);
    const elsewhere = await charger();
    const added = await post<ChargingProfileDto>(api.chargingProfile.add, profile(a.stationId, [a.serialNumber, b.serialNumber]));
    expect(added.code, JSON.stringify(added)).toBe(200);
    expect((await post<{ results: unknown[] }>(api.chargingProfile.send, { id: added.data.id })).data.results).toHaveLength(2);
    await s.database.db.update(chargePoint).set({ stationId: elsewhere.stationId }).where(eq(chargePoint.id, b.pointId));
    const again = await post<{ results: { serialNumber: string }[] }>(api.chargingProfile.send, { id: added.data.id });
    expect(again.data.results.map((x) => x.serialNumber)).toEqual([a.serialNumber]);
    expect(b.received).toHaveLength(1);
    const repo = createChargingProfileRepo({ db: s.database.db });
    expect(await repo.afterBoot(b.pointId, new Date())).toEqual([]);
    expect((await repo.afterBoot(a.pointId, new Date())).map((h) => h.profile.id)).toEqual([added.data.id]);
  });
});
