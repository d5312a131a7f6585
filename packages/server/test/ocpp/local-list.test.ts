import { api, type CardDto, type LocalListState } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargePoint, provider } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually } from './support.js';

/*
 * OCPP 1.6 local authorization lists against a simulated charger over real sockets: versions per
 * point, Differential updates of the changes since the point's version, Full for points out of step,
 * and the automatic sync of a provider's card changes.
 */

type Sent = { listVersion: number; updateType: string; localAuthorizationList?: { idTag: string; idTagInfo?: { status: string } }[] };
type ActionData = {
  status: string;
  chargerStatus: string | null;
  listVersion: number | null;
  updateType?: string;
  entries?: number;
  state: LocalListState;
};

let s: TestServer;
let admin: string;
const sims: ChargePoint[] = [];
let n = 0;

beforeAll(async () => {
  // A short sweep interval: the automatic sync is observed by waiting for its effect, never by sleeping.
  s = await startServer({ localListSyncMs: 150 });
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});

/** A simulated charger of `providerId`, connected and booted, and the SendLocalList requests it receives. */
async function charger(providerId: number, ocppVersion: '1.6' | '2.0.1' = '1.6') {
  const p = await createPoint(s.database.db, { providerId, connectors: 1 });
  const sim = createChargePoint({
    ocppVersion,
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber: p.serialNumber,
    key: p.key!,
    connectors: 1,
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
  });
  const received: Sent[] = [];
  sim.on('traffic', (e) => {
    if (e.type === 'callReceived' && e.action === 'SendLocalList') received.push(e.payload as Sent);
  });
  sims.push(sim);
  sim.start();
  await sim.ready();
  return { sim, serialNumber: p.serialNumber, key: p.key!, pointId: p.point.id, received };
}

async function issue(providerId: number, opts: { expireAt?: Date; prepaidCents?: number; masterPass?: boolean } = {}) {
  const id = `LL${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const r = await s.call<CardDto>('POST', api.card.add.path, {
    token: admin,
    body: {
      cardNumber: id,
      physicalId: id,
      providerId,
      expireTime: (opts.expireAt ?? new Date(Date.now() + 365 * 86_400_000)).toISOString(),
      prepaidCents: opts.prepaidCents ?? 10_000,
      email: 'driver@example.test',
      ...(opts.masterPass ? { masterPass: true } : {}),
    },
  });
  expect(r.code).toBe(200);
  return r.data;
}

const act = async (name: 'sendLocalList' | 'getLocalListVersion', body: Record<string, unknown>) => {
  const r = await s.call<ActionData>('POST', api.pointAction[name].path, { token: admin, body });
  expect(r.code).toBe(200);
  return r.data;
};

async function newProvider(autoLocalListSync: boolean) {
  const [row] = await s.database.db
    .insert(provider)
    .values({ name: `LL provider ${++n}`, type: 'common', parentId: 1, autoLocalListSync })
    .returning({ id: provider.id });
  return row!.id;
}

describe('local authorization list versions per point', () => {
  it('a card reported lost reaches the point as a Differential one above its version, and the versions then agree', async () => {
    const pid = await newProvider(false);
    const c = await charger(pid);
    const good = await issue(pid);
    const soon = await issue(pid);

    // A point that never took a list gets Full, version 1.
    const first = await act('sendLocalList', { serialNumber: c.serialNumber });
    expect(first).toMatchObject({ status: 'accepted', updateType: 'Full', listVersion: 1, entries: 2 });
    expect(first.state).toMatchObject({ serverVersion: 1, inStep: true, suggested: 'Differential', entries: 2 });
    expect(c.sim.state().localListVersion).toBe(1);

    expect((await s.call('POST', api.card.reportLoss.path, { token: admin, body: { id: soon.id } })).code).toBe(200);
    const diff = await act('sendLocalList', { serialNumber: c.serialNumber });
    expect(diff).toMatchObject({ status: 'accepted', updateType: 'Differential', listVersion: 2, entries: 1 });
    expect(c.received.at(-1)).toEqual({
      listVersion: 2,
      updateType: 'Differential',
      localAuthorizationList: [{ idTag: soon.physicalId, idTagInfo: { status: 'Blocked' } }],
    });
    // The charger holds what the server recorded: the lost card is refused offline, the other accepted.
    const offline = c.sim.next('connection', (e) => e.state === 'offline');
    c.sim.disconnect(60_000);
    await offline;
    expect(await c.sim.swipe(soon.physicalId)).toMatchObject({ status: 'Blocked' });
    expect(await c.sim.swipe(good.physicalId)).toMatchObject({ status: 'Accepted' });
    c.sim.connect();
    await c.sim.ready();

    const version = await act('getLocalListVersion', { serialNumber: c.serialNumber });
    expect(version).toMatchObject({ status: 'accepted', listVersion: 2, state: { serverVersion: 2, chargerVersion: 2, inStep: true } });
    const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, c.pointId));
    expect(row).toMatchObject({ localListVersion: 2, localListStatus: 'Accepted' });
  });

  it('leaves a master pass out of a 1.6 charger’s list (it knows no master pass and would let it start offline); a 2.0.1 charger gets it with the group', async () => {
    const pid = await newProvider(false);
    const old = await charger(pid);
    const recent = await charger(pid, '2.0.1');
    const plain = await issue(pid);
    const pass = await issue(pid, { masterPass: true });

    expect(await act('sendLocalList', { serialNumber: old.serialNumber })).toMatchObject({ status: 'accepted', entries: 1 });
    expect(old.received.at(-1)!.localAuthorizationList!.map((e) => e.idTag)).toEqual([plain.physicalId]);

    expect(await act('sendLocalList', { serialNumber: recent.serialNumber })).toMatchObject({ status: 'accepted', entries: 2 });
    const sent = recent.received.at(-1) as unknown as {
      localAuthorizationList: { idToken: { idToken: string }; idTokenInfo: { status: string; groupIdToken?: { idToken: string } } }[];
    };
    expect(sent.localAuthorizationList.find((e) => e.idToken.idToken === pass.physicalId)?.idTokenInfo).toMatchObject({
      status: 'Accepted',
      groupIdToken: { idToken: 'MasterPass' },
    });
  });

  it('a point whose version differs from the record is out of step and gets Full; the operator may still choose', async () => {
    const pid = await newProvider(false);
    const c = await charger(pid);
    await issue(pid);
    expect(await act('sendLocalList', { serialNumber: c.serialNumber })).toMatchObject({ status: 'accepted', listVersion: 1 });
    // The charger loses its list (replaced, reset to factory settings): it now answers 0.
    await c.sim.stop();
    const again = createChargePoint({
      url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
      serialNumber: c.serialNumber,
      key: c.key,
      connectors: 1,
      meterValueSampleInterval: 0,
      clockAlignedDataInterval: 0,
    });
    sims.push(again);
    again.start();
    await again.ready();
    const v = await act('getLocalListVersion', { serialNumber: c.serialNumber });
    expect(v).toMatchObject({ listVersion: 0, state: { serverVersion: 1, chargerVersion: 0, inStep: false, suggested: 'Full' } });
    const full = await act('sendLocalList', { serialNumber: c.serialNumber });
    expect(full).toMatchObject({ status: 'accepted', updateType: 'Full', listVersion: 2, entries: 1 });
    expect(again.state().localListVersion).toBe(2);
    // In step again: a Differential with nothing changed only moves the version.
    expect(await act('sendLocalList', { serialNumber: c.serialNumber, updateType: 'Differential' })).toMatchObject({
      status: 'accepted',
      updateType: 'Differential',
      listVersion: 3,
      entries: 0,
    });
    expect(again.state().localListVersion).toBe(3);
  });
});

describe('automatic local list sync', () => {
  it('brings a new point up to date, then sends each card change without an operator: loss, expiry, balance reaching zero', async () => {
    const pid = await newProvider(false);
    // Turned on from the provider form.
    const current = await s.call<Record<string, unknown>>('GET', `${api.provider.get.path}?id=${pid}`, { token: admin });
    expect(current.data).toMatchObject({ autoLocalListSync: false });
    const edited = await s.call('POST', api.provider.edit.path, {
      token: admin,
      body: {
        id: pid,
        providerName: current.data.providerName,
        mailAccount: 'ops@example.test',
        smtpAddress: 'smtp.example.invalid',
        smtpPort: 587,
        autoLocalListSync: true,
      },
    });
    expect(edited).toMatchObject({ code: 200, data: { autoLocalListSync: true } });
    const card = await issue(pid);
    const spending = await issue(pid, { prepaidCents: 300 });
    const c = await charger(pid);
    // New point: Full.
    const first = await eventually(async () => c.received[0]);
    expect(first).toMatchObject({ listVersion: 1, updateType: 'Full' });
    expect(first.localAuthorizationList).toHaveLength(2);

    // A new card: added by a Differential while still valid.
    const expiring = await issue(pid, { expireAt: new Date(Date.now() + 3_000) });
    const added = await eventually(async () =>
      c.received.find((r) => r.localAuthorizationList?.some((e) => e.idTag === expiring.physicalId && e.idTagInfo?.status === 'Accepted')),
    );
    expect(added.updateType).toBe('Differential');

    // Lost: a Differential within the sweep, version +1.
    await s.call('POST', api.card.reportLoss.path, { token: admin, body: { id: card.id } });
    const lost = await eventually(async () =>
      c.received.find((r) => r.localAuthorizationList?.some((e) => e.idTag === card.physicalId && e.idTagInfo?.status === 'Blocked')),
    );
    expect(lost.updateType).toBe('Differential');

    // Expiry passes with no change in the database: the sweep notices by time alone.
    const expired = await eventually(async () =>
      c.received.find((r) => r.localAuthorizationList?.some((e) => e.idTag === expiring.physicalId && e.idTagInfo?.status === 'Expired')),
    );
    expect(expired.updateType).toBe('Differential');

    // A refund that leaves nothing on the card: Blocked.
    expect((await s.call('POST', api.card.refund.path, { token: admin, body: { id: spending.id, amountCents: 300 } })).code).toBe(200);
    const empty = await eventually(async () =>
      c.received.find((r) => r.localAuthorizationList?.some((e) => e.idTag === spending.physicalId && e.idTagInfo?.status === 'Blocked')),
    );
    expect(empty.updateType).toBe('Differential');

    // Versions increase by one per update and the point's record matches the charger.
    expect(c.received.map((r) => r.listVersion)).toEqual(c.received.map((_, i) => i + 1));
    await eventually(async () => {
      const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, c.pointId));
      return row?.localListVersion === c.sim.state().localListVersion && row.localListInStep;
    });
  });

  it('follows a VersionMismatch answer with a Full update', async () => {
    const pid = await newProvider(true);
    const card = await issue(pid);
    const c = await charger(pid);
    await eventually(async () => {
      const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, c.pointId));
      return row?.localListVersion === 1 && row.localListInStep;
    });
    // The record falls behind the charger (a restored backup): our next Differential is not above the charger's version.
    await s.database.db
      .update(chargePoint)
      .set({ localListVersion: 0, localListChargerVersion: null })
      .where(eq(chargePoint.id, c.pointId));
    await s.call('POST', api.card.reportLoss.path, { token: admin, body: { id: card.id } });
    const full = await eventually(async () => c.received.find((r) => r.updateType === 'Full' && r.listVersion > 1));
    expect(c.received.at(-2)).toMatchObject({ updateType: 'Differential', listVersion: 1 });
    expect(full.localAuthorizationList).toEqual([{ idTag: card.physicalId, idTagInfo: { status: 'Blocked' } }]);
    await eventually(async () => {
      const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, c.pointId));
      return row?.localListInStep && row.localListVersion === c.sim.state().localListVersion && row.localListVersion === full.listVersion;
    });
  });

  it('leaves the points of providers without automatic sync alone', async () => {
    const pid = await newProvider(false);
    const c = await charger(pid);
    const card = await issue(pid);
    await s.call('POST', api.card.reportLoss.path, { token: admin, body: { id: card.id } });
    // The other provider's sync keeps running; once it has swept after this change, this point still got nothing.
    const auto = await newProvider(true);
    const witness = await charger(auto);
    await eventually(async () => witness.received.length > 0);
    expect(c.received).toEqual([]);
  });
});
