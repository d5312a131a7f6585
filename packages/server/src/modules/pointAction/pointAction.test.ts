import { api, translate } from '@csms/contract';
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { ChargerCommand, ChargerReply } from '../../bus/bus.js';
import type { Db } from '../../db/client.js';
import { card, chargePoint, chargeUser, systemLog } from '../../db/schema.js';
import { hashOcppKey, verifyOcppKey } from '../../ocpp/keys.js';
import { insertPoint, insertStation, insertTransaction } from '../monitor/monitor.fixtures.js';

let s: TestServer;
let db: Db;
let admin: string;
/** Provider A's operator with every monitoring and configuration permission; B's the same for another provider. */
let a: { token: string; providerId: number };
let b: { token: string; providerId: number };
let point: Awaited<ReturnType<typeof insertPoint>>;

const ALL = ['monitor:point:list', ...Object.values(api.pointAction).map((e) => (e.access as { permi: string }).permi)];

async function operator(permissions: string[], providerId?: number, stationIds?: number[]) {
  const op = await createOperator(db, { permissions, rolePaths: ['/realTimeMonitor/chargePoint'], ...(providerId ? { providerId } : {}) });
  let username = op.user.username;
  let password = op.user.password;
  if (stationIds) {
    const u = await createUser(db, { providerId: op.providerId, roleId: op.role.id, stationIds });
    username = u.username;
    password = u.password;
  }
  return { token: await s.login(username, password), providerId: op.providerId };
}

let n = 0;
async function newCard(providerId: number, v: Partial<typeof card.$inferInsert> = {}) {
  const [row] = await db
    .insert(card)
    .values({
      providerId,
      cardNumber: `NO${++n}`,
      physicalId: `UID${n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase(),
      expireAt: new Date(Date.now() + 365 * 86_400_000),
      ...v,
    })
    .returning();
  return row!;
}

/** A fake charger on the app's bus: records each command and answers with `answer`. */
let sent: ChargerCommand[] = [];
let stop: (() => void) | undefined;
function charger(serial: string, answer: (c: ChargerCommand) => ChargerReply | Promise<ChargerReply>) {
  stop?.();
  stop = s.app.bus.serve(serial, async (c) => {
    sent.push(c);
    return answer(c);
  });
}
const result = (payload: Record<string, unknown>): ChargerReply => ({ kind: 'result', payload });

type Reply = { code: number; msg: string; data: Record<string, unknown> & { status: string; message: string | null } };
const act = (name: keyof typeof api.pointAction, body: Record<string, unknown>, token = a.token, lang: 'zh' | 'en' = 'en') =>
  s.call('POST', api.pointAction[name].path, { token, body: { serialNumber: point.serialNumber, ...body }, lang }) as Promise<Reply>;

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  admin = await s.login();
  a = await operator(ALL);
  b = await operator(ALL);
  point = await insertPoint(db, a.providerId, { connectorStatuses: ['Available', 'Charging'] });
});
afterAll(() => s.close());
afterEach(() => {
  stop?.();
  stop = undefined;
  sent = [];
});

describe('each action sends its OCPP command and answers with the charger’s reply', () => {
  it('remote start with one of the provider’s cards, typed in any case: the charger gets the idTag as issued', async () => {
    const c = await newCard(a.providerId, { physicalId: `NL-TNM-C${++n}-X` });
    charger(point.serialNumber, () => result({ status: 'Accepted' }));
    const r = await act('remoteStart', { connectorId: 1, idTag: ` ${c.physicalId.toLowerCase()} ` });
    expect(r).toMatchObject({
      code: 200,
      msg: 'Accepted',
      data: { status: 'accepted', chargerStatus: 'Accepted', message: null, connectorId: 1, idTag: c.physicalId },
    });
    expect(sent).toEqual([{ action: 'RemoteStartTransaction', payload: { idTag: c.physicalId, connectorId: 1 } }]);
  });

  it('refuses an idTag that is not a card of the point’s provider, before sending anything', async () => {
    const foreign = await newCard(b.providerId);
    charger(point.serialNumber, () => result({ status: 'Accepted' }));
    for (const idTag of ['NOSUCHCARD', foreign.physicalId]) {
      const r = await act('remoteStart', { connectorId: 1, idTag });
      expect(r.code).toBe(400);
      expect(r.data).toEqual({ field: 'idTag' });
      expect(r.msg).toContain(idTag);
    }
    expect(sent).toEqual([]);
  });

  it('remote stop of the running transaction; a stopped one is refused, another point’s is not found', async () => {
    const running = await insertTransaction(db, point);
    const stopped = await insertTransaction(db, point, { stoppedAt: new Date(), startedAt: new Date(Date.now() - 3_600_000) });
    const other = await insertPoint(db, a.providerId);
    const elsewhere = await insertTransaction(db, other);
    charger(point.serialNumber, () => result({ status: 'Rejected' }));
    const r = await act('remoteStop', { transactionId: running.id });
    expect(r).toMatchObject({ code: 200, msg: 'Rejected', data: { status: 'rejected', transactionId: running.id } });
    expect(sent).toEqual([{ action: 'RemoteStopTransaction', payload: { transactionId: running.id } }]);
    expect((await act('remoteStop', { transactionId: stopped.id })).code).toBe(409);
    expect((await act('remoteStop', { transactionId: elsewhere.id })).code).toBe(404);
    expect(sent).toHaveLength(1);
  });

  it('reset, unlock, availability, clear cache and trigger', async () => {
    const answers: Record<string, Record<string, unknown>> = {
      Reset: { status: 'Accepted' },
      UnlockConnector: { status: 'UnlockFailed' },
      ChangeAvailability: { status: 'Scheduled' },
      ClearCache: { status: 'Rejected' },
      TriggerMessage: { status: 'NotImplemented' },
    };
    charger(point.serialNumber, (c) => result(answers[c.action]!));
    expect((await act('reset', { type: 'Hard' })).data).toMatchObject({ status: 'accepted' });
    const unlock = await act('unlock', { connectorId: 2 });
    expect(unlock).toMatchObject({
      msg: 'Unlock failed',
      data: { status: 'failed', chargerStatus: 'UnlockFailed', message: 'Unlock failed' },
    });
    expect((await act('changeAvailability', { connectorId: 0, type: 'Inoperative' })).data.status).toBe('scheduled');
    expect((await act('clearCache', {})).data.status).toBe('rejected');
    expect((await act('triggerMessage', { requestedMessage: 'StatusNotification', connectorId: 1 })).data.status).toBe('notImplemented');
    expect(sent).toEqual([
      { action: 'Reset', payload: { type: 'Hard' } },
      { action: 'UnlockConnector', payload: { connectorId: 2 } },
      { action: 'ChangeAvailability', payload: { connectorId: 0, type: 'Inoperative' } },
      { action: 'ClearCache', payload: {} },
      { action: 'TriggerMessage', payload: { requestedMessage: 'StatusNotification', connectorId: 1 } },
    ]);
  });

  it('an unlocked connector is a success', async () => {
    charger(point.serialNumber, () => result({ status: 'Unlocked' }));
    expect((await act('unlock', { connectorId: 1 })).data).toMatchObject({ status: 'accepted', chargerStatus: 'Unlocked' });
  });

  it('sends the provider’s whitelist as a full update to a point that never took one, and records a VersionMismatch', async () => {
    const valid = await newCard(a.providerId, { balanceCents: 500 });
    const lost = await newCard(a.providerId, { status: 'lost', balanceCents: 500 });
    const empty = await newCard(a.providerId, { balanceCents: 0 });
    const user = (
      await db
        .insert(chargeUser)
        .values({ providerId: a.providerId, account: `acct${++n}`, userType: 'card' })
        .returning()
    )[0]!;
    const owned = await newCard(a.providerId, { chargeUserId: user.id, balanceCents: 1 });
    const foreign = await newCard(b.providerId, { balanceCents: 500 });
    charger(point.serialNumber, () => result({ status: 'VersionMismatch' }));
    const r = await act('sendLocalList', {});
    expect(r.data).toMatchObject({
      status: 'versionMismatch',
      listVersion: 1,
      updateType: 'Full',
      state: { serverVersion: null, inStep: false, lastStatus: 'VersionMismatch', suggested: 'Full' },
    });
    // Out of step: the charger is asked its version first, then gets the Full.
    expect(sent.map((c) => c.action)).toEqual(['GetLocalListVersion', 'SendLocalList']);
    const payload = sent[1]!.payload as {
      listVersion: number;
      updateType: string;
      localAuthorizationList: { idTag: string; idTagInfo: Record<string, unknown> }[];
    };
    expect(payload.updateType).toBe('Full');
    expect(payload.listVersion).toBe(1);
    const byTag = new Map(payload.localAuthorizationList.map((e) => [e.idTag, e.idTagInfo]));
    expect(byTag.get(valid.physicalId)).toMatchObject({ status: 'Accepted', expiryDate: valid.expireAt.toISOString() });
    expect(byTag.get(lost.physicalId)).toEqual({ status: 'Blocked' });
    expect(byTag.get(empty.physicalId)).toEqual({ status: 'Blocked' });
    expect(byTag.get(owned.physicalId)).toMatchObject({ status: 'Accepted', parentIdTag: user.account });
    expect(byTag.has(foreign.physicalId)).toBe(false);
    expect(r.data.entries).toBe(payload.localAuthorizationList.length);
    // The record says what the console shows: out of step, Full offered.
    const state = await s.call('GET', `${api.pointAction.localListState.path}?serialNumber=${point.serialNumber}`, { token: a.token });
    expect(state.data).toMatchObject({ serverVersion: null, inStep: false, lastStatus: 'VersionMismatch', suggested: 'Full' });
    // Another provider's operator does not find the point.
    expect(
      (await s.call('GET', `${api.pointAction.localListState.path}?serialNumber=${point.serialNumber}`, { token: b.token })).code,
    ).toBe(404);
  });

  it('a whitelist the charger does not know is recorded as not supported; one it never answered leaves the point out of step', async () => {
    const other = await insertPoint(db, a.providerId, { connectorStatuses: ['Available'] });
    const state = async () =>
      (await s.call('GET', `${api.pointAction.localListState.path}?serialNumber=${other.serialNumber}`, { token: a.token })).data;
    charger(other.serialNumber, (c) =>
      c.action === 'SendLocalList' ? { kind: 'error', code: 'NotImplemented', description: '' } : result({ listVersion: 0 }),
    );
    const r = await act('sendLocalList', { serialNumber: other.serialNumber });
    expect(r.data).toMatchObject({ status: 'notImplemented', state: { lastStatus: 'NotSupported', serverVersion: null } });
    charger(other.serialNumber, () => ({ kind: 'timeout' }));
    const t = await act('sendLocalList', { serialNumber: other.serialNumber, updateType: 'Differential' });
    expect(t.data).toMatchObject({ status: 'failed', updateType: 'Differential' });
    expect(await state()).toMatchObject({ lastStatus: 'Failed', inStep: false, suggested: 'Full' });
  });

  it('reads the whitelist version; -1 means local lists are not supported', async () => {
    charger(point.serialNumber, () => result({ listVersion: 7 }));
    expect((await act('getLocalListVersion', {})).data).toMatchObject({ status: 'accepted', listVersion: 7 });
    charger(point.serialNumber, () => result({ listVersion: -1 }));
    const r = await act('getLocalListVersion', {}, a.token, 'zh');
    expect(r.data).toMatchObject({
      status: 'notSupported',
      listVersion: null,
      message: translate('zh', 'errors.pointAction.localListUnsupported'),
    });
  });

  it('data transfer: the charger’s data, or its refusal of an unknown vendor', async () => {
    charger(point.serialNumber, (c) =>
      result(
        (c.payload as { vendorId: string }).vendorId === 'acme' ? { status: 'Accepted', data: 'pong' } : { status: 'UnknownVendorId' },
      ),
    );
    expect((await act('dataTransfer', { vendorId: 'acme', messageId: 'ping', data: 'x' })).data).toMatchObject({
      status: 'accepted',
      data: 'pong',
    });
    const r = await act('dataTransfer', { vendorId: 'other', messageId: 'ping', data: 'x' });
    expect(r.data).toMatchObject({ status: 'rejected', chargerStatus: 'UnknownVendorId', data: null });
    expect(r.data.message).toBe(translate('en', 'errors.pointAction.unknownVendorId'));
    expect(sent[1]).toEqual({ action: 'DataTransfer', payload: { vendorId: 'other', messageId: 'ping', data: 'x' } });
  });

  it('composite schedule', async () => {
    const chargingSchedule = { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }], duration: 3600 };
    charger(point.serialNumber, () =>
      result({ status: 'Accepted', connectorId: 1, scheduleStart: '2026-01-01T00:00:00.000Z', chargingSchedule }),
    );
    const r = await act('getCompositeSchedule', { connectorId: 1, duration: 3600, chargingRateUnit: 'W' });
    expect(r.data).toMatchObject({
      status: 'accepted',
      connectorId: 1,
      scheduleStart: '2026-01-01T00:00:00.000Z',
      chargingSchedule: {
        chargingRateUnit: 'W',
        duration: 3600,
        startSchedule: null,
        minChargingRate: null,
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000, numberPhases: null }],
      },
    });
    expect(sent[0]).toEqual({ action: 'GetCompositeSchedule', payload: { connectorId: 1, duration: 3600, chargingRateUnit: 'W' } });
  });

  it('get and change the configuration', async () => {
    charger(point.serialNumber, (c) =>
      c.action === 'GetConfiguration'
        ? result({
            configurationKey: [
              { key: 'HeartbeatInterval', readonly: false, value: '300' },
              { key: 'NumberOfConnectors', readonly: true, value: '2' },
              { key: 'NoValue', readonly: false },
            ],
            unknownKey: ['Nope'],
          })
        : result({ status: 'RebootRequired' }),
    );
    const all = await act('getConfiguration', {});
    expect(all.data).toMatchObject({
      status: 'accepted',
      configurationKey: [
        { key: 'HeartbeatInterval', readonly: false, value: '300' },
        { key: 'NumberOfConnectors', readonly: true, value: '2' },
        { key: 'NoValue', readonly: false, value: null },
      ],
      unknownKey: ['Nope'],
    });
    await act('getConfiguration', { key: ['HeartbeatInterval', 'Nope'] });
    const change = await act('changeConfiguration', { key: 'HeartbeatInterval', value: '60' }, a.token, 'zh');
    expect(change).toMatchObject({ msg: '需要重启后生效', data: { status: 'rebootRequired', key: 'HeartbeatInterval' } });
    expect(sent.map((c) => c.payload)).toEqual([{}, { key: ['HeartbeatInterval', 'Nope'] }, { key: 'HeartbeatInterval', value: '60' }]);
  });
});

describe('answers without a CALLRESULT', () => {
  it('offline when no node serves the charger', async () => {
    const r = await act('reset', { type: 'Soft' }, a.token, 'zh');
    expect(r).toMatchObject({ code: 200, data: { status: 'offline', chargerStatus: null } });
    expect(r.data.message).toBe(translate('zh', 'errors.pointAction.offline'));
  });

  it('failed with a reason on timeout', async () => {
    charger(point.serialNumber, () => ({ kind: 'timeout' }));
    const r = await act('clearCache', {});
    expect(r.data).toMatchObject({ status: 'failed', message: translate('en', 'errors.pointAction.timeout') });
  });

  it('maps CALLERRORs: NotImplemented, NotSupported, anything else failed with the code', async () => {
    let code = 'NotImplemented';
    charger(point.serialNumber, () => ({ kind: 'error', code, description: 'no such thing' }));
    expect((await act('clearCache', {})).data).toMatchObject({ status: 'notImplemented', chargerStatus: 'NotImplemented' });
    code = 'NotSupported';
    expect((await act('clearCache', {})).data.status).toBe('notSupported');
    code = 'InternalError';
    const r = await act('clearCache', {});
    expect(r.data).toMatchObject({ status: 'failed', chargerStatus: 'InternalError' });
    expect(r.data.message).toContain('InternalError - no such thing');
  });

  it('failed when the bus itself breaks, or the reply cannot be read', async () => {
    charger(point.serialNumber, () => Promise.reject(new Error('bus down')));
    const r = await act('reset', { type: 'Soft' });
    expect(r.data).toMatchObject({ status: 'failed', message: translate('en', 'errors.pointAction.sendFailed') });
    charger(point.serialNumber, () => result({ nonsense: true }));
    expect((await act('reset', { type: 'Soft' })).data).toMatchObject({
      status: 'failed',
      message: translate('en', 'errors.pointAction.invalidReply'),
    });
  });
});

describe('access', () => {
  it('refuses a user lacking the action’s permission', async () => {
    const viewer = await operator(['monitor:point:list'], a.providerId);
    charger(point.serialNumber, () => result({ status: 'Accepted' }));
    expect((await act('reset', { type: 'Soft' }, viewer.token)).code).toBe(403);
    expect(sent).toEqual([]);
  });

  it('answers 404 for another provider’s point and sends nothing', async () => {
    charger(point.serialNumber, () => result({ status: 'Accepted' }));
    for (const [name, body] of [
      ['reset', { type: 'Soft' }],
      ['getConfiguration', {}],
      ['changeConfiguration', { key: 'K', value: 'v' }],
    ] as const) {
      expect((await act(name, body, b.token)).code).toBe(404);
    }
    const options = await s.call('GET', `${api.pointAction.idTagOptions.path}?serialNumber=${point.serialNumber}`, { token: b.token });
    expect(options.code).toBe(404);
    expect(sent).toEqual([]);
  });

  it('answers 404 to a user bound to another station of the same provider', async () => {
    const elsewhere = await insertStation(db, a.providerId);
    const bound = await operator(ALL, undefined, [elsewhere.id]);
    charger(point.serialNumber, () => result({ status: 'Accepted' }));
    expect((await act('reset', { type: 'Soft' }, bound.token)).code).toBe(404);
    expect(sent).toEqual([]);
  });

  it('writes one system-log row per action with the answer', async () => {
    charger(point.serialNumber, () => result({ status: 'Rejected' }));
    await act('reset', { type: 'Soft' }, a.token, 'zh');
    await act('changeConfiguration', { key: 'SecurityPassword', value: 'topsecret' }, a.token);
    const rows = await db.select().from(systemLog).orderBy(desc(systemLog.id)).limit(2);
    expect(rows[1]).toMatchObject({ operation: 'reset', operand: `point:${point.serialNumber}`, result: 200, msg: '已拒绝' });
    expect(rows[0]).toMatchObject({ operation: 'changeConfiguration', msg: 'Rejected' });
    expect(JSON.stringify(rows[0]!.request)).not.toContain('topsecret');
  });
});

describe('a new key sent to the charger', () => {
  type KeyReply = Reply & { data: { keySentTime: string | null } };
  const send = (serialNumber: string, lang: 'zh' | 'en' = 'en') =>
    s.call('POST', api.pointAction.sendKey.path, { token: a.token, body: { serialNumber }, lang }) as Promise<KeyReply>;
  const keys = async (id: number) =>
    (
      await db
        .select({ hash: chargePoint.ocppKeyHash, previous: chargePoint.ocppKeyPreviousHash, sentAt: chargePoint.ocppKeySentAt })
        .from(chargePoint)
        .where(eq(chargePoint.id, id))
    )[0]!;
  async function keyed() {
    const key = `old-key-${Math.random().toString(36).slice(2)}`;
    return { p: await insertPoint(db, a.providerId, { ocppKeyHash: hashOcppKey(key) }), key };
  }
  const sentKey = () => (sent[0]!.payload as { value: string }).value;

  it('taken: the new key is the point’s, the one it had still opens until it connects with the new one; meanwhile another send is refused', async () => {
    const { p, key } = await keyed();
    charger(p.serialNumber, () => result({ status: 'Accepted' }));
    const r = await send(p.serialNumber);
    expect(r).toMatchObject({
      code: 200,
      data: { status: 'accepted', chargerStatus: 'Accepted', message: translate('en', 'errors.pointAction.keySent') },
    });
    expect(sent).toEqual([
      { action: 'ChangeConfiguration', payload: { key: 'AuthorizationKey', value: expect.stringMatching(/^[0-9a-f]{40}$/) } },
    ]);
    const row = await keys(p.id);
    expect(verifyOcppKey(sentKey(), row.hash)).toBe(true);
    expect(verifyOcppKey(key, row.previous)).toBe(true);
    expect(r.data.keySentTime).toBe(row.sentAt!.toISOString());
    const [logged] = await db.select().from(systemLog).orderBy(desc(systemLog.id)).limit(1);
    expect(logged).toMatchObject({ operation: 'sendKey', operand: `point:${p.serialNumber}`, result: 200 });
    expect(JSON.stringify(logged)).not.toContain(sentKey());

    // A second key now could leave the charger with one the server no longer accepts: refused, nothing sent.
    const again = await send(p.serialNumber, 'zh');
    expect(again.code).toBe(409);
    expect(again.msg).toContain('尚待充电桩使用');
    expect(sent).toHaveLength(1);
    // A key issued by hand replaces both.
    await s.call('POST', api.point.newKey.path, { token: admin, body: { id: p.id } });
    expect(await keys(p.id)).toMatchObject({ previous: null, sentAt: null });
  });

  it.each([
    ['Rejected', result({ status: 'Rejected' }), 'rejected', 'The charge point refused the new key (Rejected); its key is unchanged'],
    [
      'NotSupported',
      result({ status: 'NotSupported' }),
      'notSupported',
      'The charge point refused the new key (NotSupported); its key is unchanged',
    ],
    [
      'a CALLERROR',
      { kind: 'error', code: 'NotImplemented', description: '' } as ChargerReply,
      'notImplemented',
      'The charge point refused the new key (NotImplemented); its key is unchanged',
    ],
    ['offline', { kind: 'offline' } as ChargerReply, 'offline', 'The charge point is offline'],
  ])('refused or not delivered (%s): its key is unchanged, the new one never opens', async (_, reply, status, message) => {
    const { p, key } = await keyed();
    charger(p.serialNumber, () => reply);
    const r = await send(p.serialNumber);
    expect(r).toMatchObject({ code: 200, data: { status, message, keySentTime: null } });
    const row = await keys(p.id);
    expect(row).toMatchObject({ previous: null, sentAt: null });
    expect(verifyOcppKey(key, row.hash)).toBe(true);
    if (sent.length) expect(verifyOcppKey(sentKey(), row.hash)).toBe(false);
  });

  it('no answer: the charger may have the key, so both open until it connects with the new one', async () => {
    const { p, key } = await keyed();
    charger(p.serialNumber, () => ({ kind: 'timeout' }) as ChargerReply);
    const r = await send(p.serialNumber, 'zh');
    expect(r).toMatchObject({
      code: 200,
      data: { status: 'failed', chargerStatus: null, message: translate('zh', 'errors.pointAction.keyUnanswered') },
    });
    const row = await keys(p.id);
    expect(verifyOcppKey(sentKey(), row.hash)).toBe(true);
    expect(verifyOcppKey(key, row.previous)).toBe(true);
  });

  it('a point that connects without a key is refused before anything is sent; another provider’s point is not found', async () => {
    const keyless = await insertPoint(db, a.providerId);
    charger(keyless.serialNumber, () => result({ status: 'Accepted' }));
    const r = await send(keyless.serialNumber);
    expect(r.code).toBe(409);
    expect(r.msg).toContain('security profile 0');
    const { p } = await keyed();
    const other = await s.call('POST', api.pointAction.sendKey.path, { token: b.token, body: { serialNumber: p.serialNumber } });
    expect(other.code).toBe(404);
    expect(sent).toEqual([]);
    expect(await keys(keyless.id)).toMatchObject({ hash: null, previous: null });
  });
});

describe('configuration keys changed on many points', () => {
  type KeyAnswer = { key: string; status: string; chargerStatus: string | null; message: string | null };
  const many = (body: Record<string, unknown>, token = a.token, lang: 'zh' | 'en' = 'en') =>
    s.call<{ results: { serialNumber: string; status: string; message: string | null; keys: KeyAnswer[] }[] }>(
      'POST',
      api.pointAction.changeConfigurationMany.path,
      { token, body, lang },
    );

  it('sends the keys to each point at once and answers with each charger’s answer per key and as a whole, in one system-log row', async () => {
    const [p2, p3, p4] = [await insertPoint(db, a.providerId), await insertPoint(db, a.providerId), await insertPoint(db, a.providerId)];
    // What the node holding each charger answers: each key's reply (v16-commands.ts, v201-commands.ts).
    const answering =
      (...statuses: string[]) =>
      async (c: { payload: Record<string, unknown> }) => (
        sent.push(c as never),
        result({
          results: (c.payload.changes as { key: string }[]).map(({ key }, i) => ({ key, reply: result({ status: statuses[i]! }) })),
        })
      );
    const stops = [
      s.app.bus.serve(point.serialNumber, answering('RebootRequired', 'Accepted')),
      s.app.bus.serve(p2.serialNumber, answering('Accepted', 'Rejected')),
      // A node answering without the keys' replies: failed, never taken for accepted.
      s.app.bus.serve(p4.serialNumber, async () => result({ status: 'Accepted' })),
    ];
    try {
      const changes = [
        { key: 'HeartbeatInterval', value: '120' },
        { key: 'MeterValueSampleInterval', value: '30' },
      ];
      const r = await many(
        { serialNumbers: [point.serialNumber, p2.serialNumber, p3.serialNumber, p4.serialNumber], changes },
        a.token,
        'zh',
      );
      expect(r.code).toBe(200);
      const bySerial = Object.fromEntries(r.data.results.map((x) => [x.serialNumber, x]));
      expect(bySerial[point.serialNumber]).toMatchObject({ status: 'rebootRequired', chargerStatus: 'RebootRequired' });
      expect(bySerial[point.serialNumber]!.keys.map((k) => [k.key, k.status])).toEqual([
        ['HeartbeatInterval', 'rebootRequired'],
        ['MeterValueSampleInterval', 'accepted'],
      ]);
      expect(bySerial[p2.serialNumber]).toMatchObject({ status: 'rejected', chargerStatus: 'Rejected' });
      expect(bySerial[p2.serialNumber]!.keys.map((k) => k.status)).toEqual(['accepted', 'rejected']);
      const offline = translate('zh', 'errors.pointAction.offline');
      expect(bySerial[p3.serialNumber]).toMatchObject({ status: 'offline', message: offline });
      expect(bySerial[p3.serialNumber]!.keys.map((k) => [k.status, k.message])).toEqual([
        ['offline', offline],
        ['offline', offline],
      ]);
      expect(bySerial[p4.serialNumber]!.keys.map((k) => k.status)).toEqual(['failed', 'failed']);
      expect(sent.map((c) => [c.action, c.payload])).toEqual([
        ['ChangeConfigurations', { changes }],
        ['ChangeConfigurations', { changes }],
      ]);
      const [log] = await db.select().from(systemLog).orderBy(desc(systemLog.id)).limit(1);
      expect(log).toMatchObject({
        operation: 'changeConfigurationMany',
        operand: 'points:4:HeartbeatInterval,MeterValueSampleInterval',
        result: 200,
      });
    } finally {
      for (const stopServing of stops) stopServing();
    }
  });

  it('sends nothing when one point is another provider’s, or the value does not fit the key', async () => {
    const theirs = await insertPoint(db, b.providerId);
    charger(point.serialNumber, () => result({ status: 'Accepted' }));
    const change = (key: string, value: string) => ({
      changes: [
        { key: 'HeartbeatInterval', value: '60' },
        { key, value },
      ],
    });
    const foreign = await many({ serialNumbers: [point.serialNumber, theirs.serialNumber], ...change('MeterValueSampleInterval', '30') });
    expect(foreign.code).toBe(404);
    const readonly = await many({ serialNumbers: [point.serialNumber], ...change('NumberOfConnectors', '4') }, a.token, 'zh');
    expect(readonly).toMatchObject({ code: 400, msg: translate('zh', 'validation.ocppKeyReadonly', { key: 'NumberOfConnectors' }) });
    const twice = await many({ serialNumbers: [point.serialNumber], ...change('heartbeatinterval', '90') });
    expect(twice).toMatchObject({ code: 400, msg: 'Key holds the same value twice', data: { field: 'changes.1.key' } });
    const single = await act('changeConfiguration', { key: 'MeterValuesSampledData', value: 'Energy.Active.Import.Register,Watts' });
    expect(single.code).toBe(400);
    expect(single.msg).toContain('"Watts"');
    expect(sent).toEqual([]);
  });
});

describe('remote-start choices', () => {
  it('lists the provider’s usable cards and charge users with their first usable card', async () => {
    const user = (
      await db
        .insert(chargeUser)
        .values({ providerId: a.providerId, account: `driver${++n}`, userType: 'card' })
        .returning()
    )[0]!;
    const firstNo = `FIRST${n}`;
    const first = await newCard(a.providerId, { chargeUserId: user.id, cardNumber: firstNo });
    await newCard(a.providerId, { chargeUserId: user.id });
    const expired = await newCard(a.providerId, { expireAt: new Date(Date.now() - 1000) });
    const foreign = await newCard(b.providerId);
    const r = await s.call<{ idTag: string; kind: string; account: string | null; cardNumber: string }[]>(
      'GET',
      `${api.pointAction.idTagOptions.path}?serialNumber=${point.serialNumber}`,
      { token: a.token },
    );
    expect(r.code).toBe(200);
    expect(r.data).toContainEqual({ idTag: first.physicalId, kind: 'chargeUser', account: user.account, cardNumber: first.cardNumber });
    expect(r.data).toContainEqual({ idTag: first.physicalId, kind: 'card', account: user.account, cardNumber: first.cardNumber });
    const tags = r.data.map((o) => o.idTag);
    expect(tags).not.toContain(expired.physicalId);
    expect(tags).not.toContain(foreign.physicalId);
    expect(r.data.filter((o) => o.kind === 'chargeUser' && o.account === user.account)).toHaveLength(1);

    const search = await s.call<{ idTag: string }[]>(
      'GET',
      `${api.pointAction.idTagOptions.path}?serialNumber=${point.serialNumber}&keyword=${firstNo}`,
      {
        token: admin,
      },
    );
    expect(search.data.map((o) => o.idTag)).toEqual([first.physicalId, first.physicalId]);
  });
});
