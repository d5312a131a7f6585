import { allMenuPaths, allPermissions, api, applyReferenceOf, applyTaskIdOf, taskIdOf, wallClock, type EndpointDef } from '@csms/contract';
import { count, desc, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../src/db/schema.js';
import { insertAlarm, insertOcppLog, insertPoint, insertStation, insertTransaction } from '../src/modules/monitor/monitor.fixtures.js';
import { createOperator } from './fixtures.js';
import { png } from './support/files.js';
import type { TestServer } from './harness.js';

/**
 * Tenant-owned resources (DESIGN.md §8): how to create one row as provider A through the API,
 * and every endpoint that takes its id. The tenant conformance test calls each as a
 * full-permission user of provider B with A's ids and expects 404 with nothing changed.
 * Resources whose rows belong to a station say which (`stationOf`); the station-binding
 * conformance test then calls the same endpoints as a user of A bound to another station
 * (DESIGN.md §9). The others say why no station owns them (`notStationScoped`).
 */
export interface Operator {
  token: string;
  providerId: number;
  userId: number;
  roleId: number;
  username: string;
}

/** The actor of the conformance tests: a signed-in user of a new provider holding every permission and menu. */
export async function fullOperator(s: TestServer): Promise<Operator> {
  const op = await createOperator(s.database.db, { permissions: allPermissions, rolePaths: allMenuPaths });
  return {
    token: await s.login(op.user.username, op.user.password),
    providerId: op.providerId,
    userId: op.user.id,
    roleId: op.role.id,
    username: op.user.username,
  };
}

export interface TenantEnv {
  s: TestServer;
  admin: string;
  a: Operator;
  b: Operator;
  /** A second user of provider B, a legitimate target for edits that reference A's rows. */
  bOther: { id: number };
}

export interface TenantEndpoint {
  ep: EndpointDef;
  input: (id: number, env: TenantEnv) => { query?: Record<string, string | number>; body?: unknown };
  /**
   * `notFound` (default): 404. `emptyList`: a filter by A's id answers an empty page (or an export with only the header row).
   * `emptyArray`: a picker filtered by A's id answers `[]`. `zeroTotal`: an aggregate filtered by A's id counts nothing.
   * `forbidden`: 403, for calls only a super provider's users may make (B is a common provider).
   */
  expect?: 'notFound' | 'emptyList' | 'emptyArray' | 'zeroTotal' | 'forbidden';
  /**
   * Station binding (station-binding.conformance.test.ts): by default a user of the row's own provider bound to another
   * station gets 404 and a user bound to the row's station gets 200. When the answers differ, the codes and why.
   */
  bound?: { other: number; own: number; reason: string };
}

export interface TenantResource {
  name: string;
  /** The table holding the rows; every table with a provider column must be registered. */
  table: PgTable;
  create?: (env: TenantEnv) => Promise<number>;
  snapshot?: (env: TenantEnv, id: number) => Promise<unknown>;
  endpoints: TenantEndpoint[];
  /** Opting out of the check needs a written reason. */
  optOut?: string;
  /** Station binding (DESIGN.md §9): the station a row belongs to; a resource whose rows hang on no station says why instead. */
  stationOf?: (env: TenantEnv, id: number) => Promise<number>;
  notStationScoped?: string;
}

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;
const phone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function ok<T>(p: Promise<{ code: number; data: T; msg: string }>): Promise<T> {
  const r = await p;
  if (r.code !== 200) throw new Error(`setup call failed: ${r.code} ${r.msg}`);
  return r.data;
}
const row = (table: PgTable, idCol: unknown) => async (env: TenantEnv, id: number) =>
  env.s.database.db
    .select()
    .from(table)
    .where(eq(idCol as typeof schema.role.id, id));

/** The station column of a row, for `stationOf`. */
const stationCol = (table: PgTable, idCol: unknown, stationCol: unknown) => async (env: TenantEnv, id: number) => {
  const [r] = await env.s.database.db
    .select({ stationId: stationCol as typeof schema.station.id })
    .from(table)
    .where(eq(idCol as typeof schema.role.id, id));
  return r!.stationId;
};
const txStation = stationCol(schema.chargingTransaction, schema.chargingTransaction.id, schema.chargingTransaction.stationId);
const NO_STATION = {
  provider: 'Rows of the provider tree and its people and roles hang on no station: binding narrows stations, not administration.',
  operations: "Membership levels and members are the provider's, valid at any of its stations: no station owns them.",
  cards: "Charge users, groups, cards, cars and their ledger are the provider's, usable at any of its stations: no station owns them.",
};

/** A station, a point and a finished, invalid charging session of provider A, written to the database. */
async function chargingSession(env: TenantEnv) {
  const db = env.s.database.db;
  const point = await insertPoint(db, env.a.providerId);
  const t = await insertTransaction(db, point, {
    meterStartWh: 0,
    startedAt: new Date(Date.now() - 3_600_000),
    meterStopWh: 5000,
    stoppedAt: new Date(),
    energyWh: 5000,
    valid: false,
    invalidReason: 'meterJump',
  });
  return { point, transactionId: t.id };
}

/** A station, a point (connector 1) and a charging session in progress of provider A, written to the database. */
async function runningSession(env: TenantEnv) {
  const db = env.s.database.db;
  const point = await insertPoint(db, env.a.providerId, { connectorStatuses: ['Charging'] });
  const t = await insertTransaction(db, point);
  return { pointId: point.id, serialNumber: point.serialNumber, transactionId: t.id };
}
/** Serial numbers of the points the point-action resource created, by the id of their running session. */
const actionSerials = new Map<number, string>();
/** Stations of the alarms the alarm resource created, by alarm id. */
const alarmStations = new Map<number, number>();
const serialOf = (transactionId: number) => actionSerials.get(transactionId) ?? 'missing';

/** Stations of the prices the price resource created, by price id; the group-price resource uses a station of B's own. */
const priceStations = new Map<number, { id: number; name: string }>();
const priceStationOf = (id: number) => priceStations.get(id) ?? { id: 0, name: 'missing' };
let groupPriceStation = { id: 0, name: '' };
/** Names of the stations the station resource created, by id. */
const stationNames = new Map<number, string>();
/** Stations of the points the point resource created, by point id. */
const pointStations = new Map<number, number>();
const priceBody = {
  sharpElec: 1,
  sharpService: 1,
  peakElec: 1,
  peakService: 1,
  flatElec: 1,
  flatService: 1,
  valleyElec: 1,
  valleyService: 1,
  reserveFeeCents: 0,
  slots: Array.from({ length: 48 }, () => 'flat'),
};

/** Stations and points through the API, as provider A's operator creates them. */
const stationBody = (env: TenantEnv) => ({
  stationName: uniq('st'),
  providerId: env.a.providerId,
  country: 'CN',
  address: 'x',
  longitude: 121,
  latitude: 31,
});
const pointBody = (stationId: number) => ({
  serialNumber: uniq('SN'),
  pointName: 'p',
  stationId,
  equipmentType: 'ac',
  ratedPowerW: 7000,
  connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type2' }],
});

/** Stations of the warnings the warning resource created, by warning id; a manual warning's day is today on the stations' clock. */
const warningStations = new Map<number, number>();
const warningStationOf = (id: number) => warningStations.get(id) ?? 0;
const warnDay = () => wallClock(new Date(), 'Asia/Shanghai').slice(0, 10);
/** The station, point and provider of the charging profiles the profile resource created, by profile id. */
const profileTargets = new Map<number, { stationId: number; serialNumber: string; providerId: number }>();
/** A point of each calling provider, on which it names another provider's profile in a remote start, by provider id. */
const callerPoints = new Map<number, string>();
/** The station and point of the local controllers the controller resource created, by controller id. */
const controllerTargets = new Map<number, { stationId: number; serialNumber: string }>();
const controllerOf = (id: number) => controllerTargets.get(id) ?? { stationId: 0, serialNumber: 'missing' };
const profileOf = (id: number) => profileTargets.get(id) ?? { stationId: 0, serialNumber: 'missing', providerId: 0 };
/** The station, point and charge user of the timed charges and reservations created, by their id. */
const smartTargets = new Map<string, { stationId: number; serialNumber: string; chargeUserId: number; pointId: number }>();
const smartOf = (kind: string, id: number) =>
  smartTargets.get(`${kind}:${id}`) ?? { stationId: 0, serialNumber: 'missing', chargeUserId: 0, pointId: 0 };
const timedBody = (t: { serialNumber: string; chargeUserId: number }) => ({
  serialNumber: t.serialNumber,
  connectors: [1],
  chargeUserId: t.chargeUserId,
  validFrom: '2030-01-01',
  validTo: '2030-12-31',
  startTime: '02:00',
});
/** A station with one point and a charge user with a valid card, all of provider A. */
async function pointAndDriver(env: TenantEnv) {
  const st = await ok(env.s.call<{ id: number }>('POST', api.station.add.path, { token: env.a.token, body: stationBody(env) }));
  const pb = pointBody(st.id);
  const point = await ok(env.s.call<{ id: number }>('POST', api.point.add.path, { token: env.a.token, body: pb }));
  const db = env.s.database.db;
  const [u] = await db
    .insert(schema.chargeUser)
    .values({ providerId: env.a.providerId, account: uniq('drv'), userType: 'card' })
    .returning();
  const tag = uniq('R').toUpperCase().slice(0, 20);
  const [c] = await db
    .insert(schema.card)
    .values({
      providerId: env.a.providerId,
      cardNumber: tag,
      physicalId: tag,
      chargeUserId: u!.id,
      expireAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  return { stationId: st.id, pointId: point.id, serialNumber: pb.serialNumber, chargeUserId: u!.id, cardId: c!.id, tag };
}
const profileBody = (stationId: number, serialNumber: string) => ({
  stationId,
  serialNumbers: [serialNumber],
  connectors: [0],
  purpose: 'ChargePointMaxProfile',
  stackLevel: 1,
  chargingProfileKind: 'Absolute',
  chargingRateUnit: 'W',
  startSchedule: new Date().toISOString(),
  periods: [{ startPeriod: 0, limit: 5000 }],
});

const providerBody = (env: TenantEnv) => ({
  providerName: uniq('prov'),
  parentId: env.a.providerId,
  expiration: 1,
  mailAccount: 'a@x.test',
  mailAuthCode: 'code',
  smtpAddress: 'smtp.example.test',
  smtpPort: 25,
});
const userBody = (env: TenantEnv, v: { roleId: number; providerId: number }) => ({
  username: uniq('u'),
  password: 'secret1',
  phone: phone(),
  ...v,
});
const roleBody = () => ({
  roleName: uniq('role'),
  roleKey: uniq('key'),
  rolePaths: ['/systemManagement/userManage'],
  permissions: ['system:user:list'],
});

/** Cards area: rows of provider B's own that requests naming provider A's rows refer to. */
const bOwn = { chargeUser: 0, group: 0, card: 0, car: 0 };
let vinSeq = 0;
const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();
const cardBody = (providerId: number) => ({
  cardNumber: uniq('no'),
  physicalId: uniq('')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .padStart(8, '0'),
  providerId,
  expireTime: inAYear(),
  prepaidCents: 0,
  email: 'x@x.test',
});
const carBody = (providerId: number) => ({ plate: uniq('P'), vin: `LSVAM4187C2${String(++vinSeq).padStart(6, '0')}`, providerId });
async function ensureBOwn(env: TenantEnv) {
  if (bOwn.chargeUser) return;
  const as = <T>(path: string, body: unknown) => ok(env.s.call<T>('POST', path, { token: env.b.token, body }));
  bOwn.group = (await as<{ id: number }>(api.userGroup.add.path, { name: uniq('grp'), providerId: env.b.providerId })).id;
  bOwn.chargeUser = (
    await as<{ id: number }>(api.chargeUser.add.path, { account: uniq('acc'), userType: 'card', providerId: env.b.providerId })
  ).id;
  bOwn.card = (await as<{ id: number }>(api.card.add.path, cardBody(env.b.providerId))).id;
  bOwn.car = (await as<{ id: number }>(api.car.add.path, carBody(env.b.providerId))).id;
}

/** Finance (issue 18): a charge user of A with a recharge, for transfers and invoices; the charge user of each invoice. */
async function financeUser(env: TenantEnv) {
  const user = await ok(
    env.s.call<{ id: number }>('POST', api.chargeUser.add.path, {
      token: env.a.token,
      body: { account: uniq('fin'), userType: 'platform', providerId: env.a.providerId },
    }),
  );
  await ok(env.s.call('POST', api.chargeUser.recharge.path, { token: env.a.token, body: { id: user.id, amountCents: 500 } }));
  return user.id;
}
const transferBody = (providerId: number, chargeUserId: number) => ({
  providerId,
  payerName: 'Fleet Ltd',
  payerAccount: '6222000011112222',
  payerBank: 'Bank',
  amountCents: 1000,
  transferDate: '2026-11-20',
  bankReference: uniq('REF'),
  allocations: [{ chargeUserId, amountCents: 1000 }],
});
const invoiceUsers = new Map<number, number>();
const invoiceUserOf = (id: number) => invoiceUsers.get(id) ?? 0;
const invoiceInfo = {
  principalType: 'person',
  name: 'Li Lei',
  recipientName: 'Li Lei',
  mobile: '13900001111',
  email: 'li@example.test',
  notifyType: 'mail',
};
const levelBody = (providerId: number) => ({
  providerId,
  name: uniq('Lv'),
  sortOrder: 1 + (++n % 99),
  basis: 'spend',
  threshold: 100,
  discountPercent: 5,
  validityDays: 30,
});
const memberLevels = new Map<number, number>();
const activityBody = (providerId: number) => ({
  providerId,
  name: uniq('Act'),
  type: 'serviceDiscount',
  startTime: '2026-01-01T00:00:00Z',
  endTime: '2027-01-01T00:00:00Z',
  discountKind: 'percent',
  discountValue: 10,
});
const templateBody = (providerId: number) => ({
  providerId,
  name: uniq('Vt'),
  kind: 'amount',
  value: 100,
  minBillCents: 0,
  stationIds: [],
  validDays: 30,
});
const overrideBody = (id: number, overrideLevelId: number) => ({
  id,
  overrideLevelId,
  overrideReason: 'conformance',
  overrideUntil: new Date(Date.now() + 86_400_000).toISOString(),
});
const materialBody = (providerId: number) => ({ partsNumber: uniq('PN'), name: 'Contactor', stock: 5, providerId });
const applyBody = (workOrderTaskId: string, materialId: number) => ({
  workOrderTaskId,
  lines: [{ materialId, count: 1 }],
  receiver: 'Receiver',
  receiverPhone: '13900001111',
  logisticsType: 'pickUp',
  deliveryAddress: 'Depot 1',
});
const applyTargets = new Map<number, { workOrderTaskId: string; materialId: number }>();
const applyOf = (id: number) => applyTargets.get(id) ?? { workOrderTaskId: 'WO00000000', materialId: 0 };

export const tenantResources: TenantResource[] = [
  {
    name: 'organization',
    notStationScoped: NO_STATION.provider,
    table: schema.organization,
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.organization.add.path, { token: env.a.token, body: { orgName: uniq('org') } }))).id,
    snapshot: row(schema.organization, schema.organization.id),
    endpoints: [
      { ep: api.organization.get, input: (id) => ({ query: { id } }) },
      { ep: api.organization.edit, input: (id) => ({ body: { id, orgName: 'stolen' } }) },
      { ep: api.organization.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.role.add, input: (id) => ({ body: { ...roleBody(), orgId: id } }) },
    ],
  },
  {
    name: 'provider',
    notStationScoped: NO_STATION.provider,
    table: schema.provider,
    // Only the super provider creates providers: the admin creates one under A.
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.provider.add.path, { token: env.admin, body: providerBody(env) }))).id,
    snapshot: row(schema.provider, schema.provider.id),
    endpoints: [
      { ep: api.provider.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.provider.edit,
        input: (id, env) => ({ body: { ...providerBody(env), id, parentId: undefined, expiration: undefined, providerName: 'stolen' } }),
      },
      { ep: api.provider.testMail, input: (id) => ({ body: { id, to: 'x@x.test' } }) },
      // Only a super provider's users add providers; B's operator is refused before any id is looked at.
      { ep: api.provider.add, input: (id, env) => ({ body: { ...providerBody(env), parentId: id } }), expect: 'forbidden' },
      { ep: api.systemUser.add, input: (id, env) => ({ body: userBody(env, { roleId: env.b.roleId, providerId: id }) }) },
      // The selector asks for the labels of chosen ids beside a name search: another provider's id names nothing.
      { ep: api.provider.options, input: (id) => ({ query: { providerName: 'no such name', ids: String(id) } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'role',
    notStationScoped: NO_STATION.provider,
    table: schema.role,
    create: async (env) => (await ok(env.s.call<{ id: number }>('POST', api.role.add.path, { token: env.a.token, body: roleBody() }))).id,
    snapshot: row(schema.role, schema.role.id),
    endpoints: [
      { ep: api.role.permissions, input: (id) => ({ query: { roleId: id } }) },
      { ep: api.role.stringPermission, input: (id) => ({ query: { roleId: id } }) },
      { ep: api.role.edit, input: (id) => ({ body: { ...roleBody(), id } }) },
      { ep: api.role.status, input: (id) => ({ body: { id, enabled: false } }) },
      { ep: api.role.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.message.usersByRole, input: (id) => ({ body: { roleId: id } }) },
      { ep: api.role.options, input: (_, env) => ({ query: { providerId: env.a.providerId } }), expect: 'emptyArray' },
      { ep: api.systemUser.add, input: (id, env) => ({ body: userBody(env, { roleId: id, providerId: env.b.providerId }) }) },
      {
        ep: api.systemUser.edit,
        input: (id, env) => ({ body: { id: env.bOther.id, roleId: id, providerId: env.b.providerId, phone: phone() } }),
      },
      { ep: api.systemUser.list, input: (id) => ({ query: { page: 1, limit: 10, roleId: id } }), expect: 'emptyList' },
      { ep: api.systemUser.search, input: (id) => ({ body: { page: 1, limit: 10, roleId: id } }), expect: 'emptyList' },
      { ep: api.systemUser.export, input: (id) => ({ body: { format: 'csv', roleId: id } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'systemUser',
    notStationScoped: NO_STATION.provider,
    table: schema.systemUser,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ id: number }>('POST', api.systemUser.add.path, {
            token: env.a.token,
            body: userBody(env, { roleId: env.a.roleId, providerId: env.a.providerId }),
          }),
        )
      ).id,
    snapshot: row(schema.systemUser, schema.systemUser.id),
    endpoints: [
      {
        ep: api.systemUser.edit,
        input: (id, env) => ({ body: { id, roleId: env.b.roleId, providerId: env.b.providerId, phone: phone() } }),
      },
      { ep: api.systemUser.status, input: (id) => ({ body: { id, status: 0 } }) },
      { ep: api.systemUser.resetPwd, input: (id) => ({ body: { id, password: 'hijacked' } }) },
      { ep: api.systemUser.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.systemUser.chargeUserRel, input: (id) => ({ body: { id, isChargeUser: true } }) },
    ],
  },
  {
    name: 'systemLog',
    notStationScoped: 'The system log records what users did; it is read by provider, whatever station the action touched.',
    table: schema.systemLog,
    create: async (env) => {
      await ok(env.s.call('POST', api.organization.add.path, { token: env.a.token, body: { orgName: uniq('logged') } }));
      const [r] = await env.s.database.db
        .select({ id: schema.systemLog.id })
        .from(schema.systemLog)
        .where(eq(schema.systemLog.userId, env.a.userId))
        .orderBy(desc(schema.systemLog.id))
        .limit(1);
      return r!.id;
    },
    snapshot: row(schema.systemLog, schema.systemLog.id),
    endpoints: [{ ep: api.systemLog.get, input: (id) => ({ query: { id } }) }],
  },
  {
    name: 'message',
    notStationScoped: 'Messages go from user to user within a provider; no station owns them.',
    table: schema.message,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ msgId: number }>('POST', api.message.add.path, {
            token: env.a.token,
            body: { title: uniq('t'), content: 'hello', username: env.a.username },
          }),
        )
      ).msgId,
    snapshot: async (env, id) => env.s.database.db.select().from(schema.messageRecipient).where(eq(schema.messageRecipient.messageId, id)),
    endpoints: [
      { ep: api.message.read, input: (id, env) => ({ body: { msgId: id, userId: env.b.userId } }) },
      { ep: api.message.read, input: (id, env) => ({ body: { msgId: id, userId: env.a.userId } }) },
      { ep: api.message.remove, input: (id, env) => ({ body: { msgId: id, userId: env.b.userId } }) },
      { ep: api.message.remove, input: (id, env) => ({ body: { msgId: id, userId: env.a.userId } }) },
    ],
  },
  {
    name: 'chargeRecord',
    table: schema.chargingTransaction,
    // Transactions come from chargers, not from an API: written straight to the database. Invalid, so a confirm would change it.
    create: async (env) => (await chargingSession(env)).transactionId,
    snapshot: row(schema.chargingTransaction, schema.chargingTransaction.id),
    stationOf: txStation,
    endpoints: [
      { ep: api.chargeRecord.get, input: (id) => ({ query: { id } }) },
      { ep: api.chargeRecord.processData, input: (id) => ({ body: { transactionId: id } }) },
      {
        ep: api.chargeRecord.confirm,
        input: (id) => ({ body: { id } }),
        bound: { other: 404, own: 601, reason: 'Confirmed, with a warning: the station has no price, so the record cannot be billed yet.' },
      },
      { ep: api.chargeRecord.list, input: (id) => ({ query: { page: 1, limit: 10, id } }), expect: 'emptyList' },
      { ep: api.chargeRecord.export, input: (id) => ({ body: { format: 'csv', id } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'alarmRecord',
    table: schema.alarm,
    create: async (env) => {
      const { point } = await chargingSession(env);
      const a = await insertAlarm(env.s.database.db, point);
      alarmStations.set(a.id, point.stationId);
      return a.id;
    },
    snapshot: row(schema.alarm, schema.alarm.id),
    stationOf: stationCol(schema.alarm, schema.alarm.id, schema.alarm.stationId),
    endpoints: [
      { ep: api.alarmRecord.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.alarmRecord.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: alarmStations.get(id) ?? 0 } }),
        expect: 'emptyList',
      },
      {
        ep: api.alarmRecord.list,
        input: (_, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      { ep: api.alarmRecord.export, input: (_, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
      { ep: api.monitor.counts, input: (id) => ({ query: { stationId: alarmStations.get(id) ?? 0 } }), expect: 'zeroTotal' },
      // Open alarms on the dashboard: no filter, so only the caller's own (B has none).
      { ep: api.monitor.faults, input: () => ({ query: { limit: 50 } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'price',
    table: schema.price,
    // Versions are addressed by id; the price itself by its station (A's, written to the database).
    create: async (env) => {
      const st = await insertStation(env.s.database.db, env.a.providerId);
      const r = await ok(
        env.s.call<{ id: number }>('POST', api.price.add.path, { token: env.a.token, body: { stationId: st.id, ...priceBody } }),
      );
      // And a group price at the same station, for the group price page.
      const [g] = await env.s.database.db
        .insert(schema.userGroup)
        .values({ providerId: env.a.providerId, name: uniq('grp') })
        .returning({ id: schema.userGroup.id });
      await ok(env.s.call('POST', api.price.add.path, { token: env.a.token, body: { stationId: st.id, groupId: g!.id, ...priceBody } }));
      priceStations.set(r.id, st);
      return r.id;
    },
    snapshot: row(schema.price, schema.price.id),
    stationOf: stationCol(schema.price, schema.price.id, schema.price.stationId),
    endpoints: [
      { ep: api.price.get, input: (id) => ({ query: { stationId: priceStationOf(id).id } }) },
      { ep: api.price.add, input: (id) => ({ body: { stationId: priceStationOf(id).id, ...priceBody } }) },
      { ep: api.price.edit, input: (id) => ({ body: { id, ...priceBody, flatElec: 1 } }) },
      { ep: api.price.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.price.impact, input: (id) => ({ body: { id, ...priceBody } }) },
      { ep: api.price.impact, input: (id) => ({ body: { stationId: priceStationOf(id).id, ...priceBody } }) },
      { ep: api.price.list, input: (id) => ({ query: { page: 1, limit: 10, stationName: priceStationOf(id).name } }), expect: 'emptyList' },
      {
        ep: api.price.groupList,
        input: (id) => ({ query: { page: 1, limit: 10, stationName: priceStationOf(id).name } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'userGroup (group prices)',
    notStationScoped: NO_STATION.cards,
    table: schema.userGroup,
    // A group price of provider B's own station for provider A's group, and A's group price page.
    create: async (env) => {
      groupPriceStation = await insertStation(env.s.database.db, env.b.providerId);
      const [g] = await env.s.database.db
        .insert(schema.userGroup)
        .values({ providerId: env.a.providerId, name: uniq('grp') })
        .returning({ id: schema.userGroup.id });
      return g!.id;
    },
    snapshot: row(schema.userGroup, schema.userGroup.id),
    endpoints: [
      { ep: api.price.add, input: (id) => ({ body: { stationId: groupPriceStation.id, groupId: id, ...priceBody } }) },
      { ep: api.price.get, input: (id) => ({ query: { stationId: groupPriceStation.id, groupId: id } }) },
    ],
  },
  {
    name: 'pointAction (a point with a running session)',
    table: schema.chargingTransaction,
    // Operator actions name the point by its serial number: provider B sends them to A's point and gets 404, nothing sent.
    create: async (env) => {
      const session = await runningSession(env);
      actionSerials.set(session.transactionId, session.serialNumber);
      return session.transactionId;
    },
    snapshot: row(schema.chargingTransaction, schema.chargingTransaction.id),
    stationOf: txStation,
    endpoints: [
      { ep: api.pointAction.remoteStop, input: (id) => ({ body: { serialNumber: serialOf(id), transactionId: id } }) },
      { ep: api.pointAction.transactionStatus, input: (id) => ({ body: { serialNumber: serialOf(id), transactionId: id } }) },
      {
        ep: api.pointAction.remoteStart,
        input: (id) => ({ body: { serialNumber: serialOf(id), connectorId: 1, idTag: 'TAG1' } }),
        bound: { other: 404, own: 400, reason: 'The point is found, then the made-up idTag is refused: it is no card of the provider.' },
      },
      { ep: api.pointAction.reset, input: (id) => ({ body: { serialNumber: serialOf(id), type: 'Hard' } }) },
      { ep: api.pointAction.unlock, input: (id) => ({ body: { serialNumber: serialOf(id), connectorId: 1 } }) },
      {
        ep: api.pointAction.changeAvailability,
        input: (id) => ({ body: { serialNumber: serialOf(id), connectorId: 0, type: 'Inoperative' } }),
      },
      { ep: api.pointAction.clearCache, input: (id) => ({ body: { serialNumber: serialOf(id) } }) },
      { ep: api.pointAction.sendLocalList, input: (id) => ({ body: { serialNumber: serialOf(id) } }) },
      { ep: api.pointAction.sendLocalList, input: (id) => ({ body: { serialNumber: serialOf(id), updateType: 'Differential' } }) },
      { ep: api.pointAction.getLocalListVersion, input: (id) => ({ body: { serialNumber: serialOf(id) } }) },
      {
        ep: api.pointAction.triggerMessage,
        input: (id) => ({ body: { serialNumber: serialOf(id), requestedMessage: 'StatusNotification' } }),
      },
      {
        ep: api.pointAction.dataTransfer,
        input: (id) => ({ body: { serialNumber: serialOf(id), vendorId: 'v', messageId: 'm', data: 'd' } }),
      },
      {
        ep: api.pointAction.getCompositeSchedule,
        input: (id) => ({ body: { serialNumber: serialOf(id), connectorId: 1, duration: 60 } }),
      },
      { ep: api.pointAction.getConfiguration, input: (id) => ({ body: { serialNumber: serialOf(id) } }) },
      {
        ep: api.pointAction.changeConfiguration,
        input: (id) => ({ body: { serialNumber: serialOf(id), key: 'HeartbeatInterval', value: '1' } }),
      },
      {
        ep: api.pointAction.changeConfigurationMany,
        input: (id) => ({ body: { serialNumbers: [serialOf(id)], changes: [{ key: 'HeartbeatInterval', value: '1' }] } }),
      },
      { ep: api.pointAction.idTagOptions, input: (id) => ({ query: { serialNumber: serialOf(id) } }) },
      { ep: api.pointAction.profileOptions, input: (id) => ({ query: { serialNumber: serialOf(id) } }) },
      { ep: api.pointAction.localListState, input: (id) => ({ query: { serialNumber: serialOf(id) } }) },
      { ep: api.monitor.points, input: (id) => ({ query: { page: 1, limit: 10, serialNumber: serialOf(id) } }), expect: 'emptyList' },
      { ep: api.monitor.charging, input: (id) => ({ query: { page: 1, limit: 10, serialNumber: serialOf(id) } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'ocppLog',
    table: schema.ocppLog,
    // Frames come from chargers: written straight to the database, with a message id the filters below name.
    create: async (env) => {
      const { pointId, serialNumber } = await runningSession(env);
      const db = env.s.database.db;
      const r = await insertOcppLog(db, {
        providerId: env.a.providerId,
        chargePointId: pointId,
        serialNumber,
        direction: 'in',
        messageType: 2,
        action: 'Heartbeat',
        payload: {},
      });
      await db
        .update(schema.ocppLog)
        .set({ messageId: `T${r.id}` })
        .where(eq(schema.ocppLog.id, r.id));
      return r.id;
    },
    snapshot: row(schema.ocppLog, schema.ocppLog.id),
    stationOf: async (env, id) => {
      const [r] = await env.s.database.db
        .select({ stationId: schema.chargePoint.stationId })
        .from(schema.ocppLog)
        .innerJoin(schema.chargePoint, eq(schema.chargePoint.id, schema.ocppLog.chargePointId))
        .where(eq(schema.ocppLog.id, id));
      return r!.stationId;
    },
    endpoints: [
      { ep: api.ocppLog.get, input: (id) => ({ query: { id } }) },
      { ep: api.ocppLog.list, input: (id) => ({ query: { page: 1, limit: 10, messageId: `T${id}` } }), expect: 'emptyList' },
      { ep: api.ocppLog.export, input: (id) => ({ body: { format: 'csv', messageId: `T${id}` } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'station',
    table: schema.station,
    create: async (env) => {
      const body = stationBody(env);
      const { id } = await ok(env.s.call<{ id: number }>('POST', api.station.add.path, { token: env.a.token, body }));
      stationNames.set(id, body.stationName);
      return id;
    },
    snapshot: row(schema.station, schema.station.id),
    stationOf: async (_, id) => id,
    endpoints: [
      { ep: api.station.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.station.edit,
        input: (id, env) => ({ body: { ...stationBody(env), id, providerId: env.b.providerId, stationName: 'stolen' } }),
      },
      { ep: api.station.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.common.dayZone, input: (id) => ({ query: { stationId: id } }) },
      { ep: api.operateStatistics.get, input: (id) => ({ query: { stationId: id } }) },
      { ep: api.financialStatistics.get, input: (id) => ({ query: { stationId: id } }) },
      // The station's own row: one per station when grouped by station.
      { ep: api.financialStatistics.export, input: (id) => ({ body: { stationId: id, groupBy: 'station', format: 'csv' } }) },
      { ep: api.point.add, input: (id) => ({ body: pointBody(id) }) },
      {
        ep: api.station.add,
        input: (_, env) => ({ body: stationBody(env) }),
        bound: {
          other: 409,
          own: 409,
          reason: 'A user bound to stations creates no station (errors.station.boundUser), whichever it names.',
        },
      },
      { ep: api.station.list, input: (_, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }), expect: 'emptyList' },
      { ep: api.station.export, input: (_, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
      { ep: api.station.options, input: (_, env) => ({ body: { providerId: env.a.providerId } }), expect: 'emptyArray' },
      {
        ep: api.monitor.stations,
        input: (id) => ({ query: { page: 1, limit: 10, stationName: stationNames.get(id) ?? 'missing' } }),
        expect: 'emptyList',
      },
      {
        ep: api.systemUser.add,
        input: (id, env) => ({ body: { ...userBody(env, { roleId: env.b.roleId, providerId: env.b.providerId }), stationIds: [id] } }),
        bound: {
          other: 400,
          own: 200,
          reason: 'Binding a user to a station outside your own binding is a field error (errors.systemUser.stationsOutOfScope).',
        },
      },
      {
        ep: api.systemUser.edit,
        input: (id, env) => ({
          body: { id: env.bOther.id, roleId: env.b.roleId, providerId: env.b.providerId, phone: phone(), stationIds: [id] },
        }),
        bound: {
          other: 403,
          own: 403,
          reason:
            'The colleague (bOther) is bound to no station: a user bound to stations manages nobody who sees more than it does (errors.systemUser.seesMoreStations), whatever binding it would give. Adding a user covers the field error.',
        },
      },
    ],
  },
  {
    name: 'point',
    table: schema.chargePoint,
    create: async (env) => {
      const st = await ok(env.s.call<{ id: number }>('POST', api.station.add.path, { token: env.a.token, body: stationBody(env) }));
      const point = await ok(env.s.call<{ id: number }>('POST', api.point.add.path, { token: env.a.token, body: pointBody(st.id) }));
      pointStations.set(point.id, st.id);
      return point.id;
    },
    snapshot: row(schema.chargePoint, schema.chargePoint.id),
    stationOf: stationCol(schema.chargePoint, schema.chargePoint.id, schema.chargePoint.stationId),
    endpoints: [
      { ep: api.point.get, input: (id) => ({ query: { id } }) },
      // The point's own row (a station's table lists its points).
      { ep: api.operateStatistics.export, input: (id) => ({ body: { pointId: id, format: 'csv' } }) },
      { ep: api.point.edit, input: (id) => ({ body: { ...pointBody(0), id, pointName: 'stolen' } }) },
      {
        ep: api.point.move,
        input: (id) => ({ body: { id, stationId: pointStations.get(id) ?? 0 } }),
        bound: {
          other: 404,
          own: 409,
          reason: 'Moved into its own station, the only one a user bound to it sees: found, then refused (errors.point.moveSameStation).',
        },
      },
      { ep: api.point.newKey, input: (id) => ({ body: { id } }) },
      { ep: api.point.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.point.stationOf, input: (id) => ({ query: { pointId: id } }) },
      { ep: api.common.dayZone, input: (id) => ({ query: { pointId: id } }) },
      // Points filtered by their station: the station of this point, so the list is not empty for those who see it.
      { ep: api.point.options, input: (id) => ({ body: { stationId: pointStations.get(id) ?? 0 } }), expect: 'emptyArray' },
      {
        ep: api.point.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: pointStations.get(id) ?? 0 } }),
        expect: 'emptyList',
      },
      { ep: api.point.export, input: (id) => ({ body: { format: 'csv', stationId: pointStations.get(id) ?? 0 } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'chargingProfile',
    table: schema.chargingProfile,
    create: async (env) => {
      const st = await ok(env.s.call<{ id: number }>('POST', api.station.add.path, { token: env.a.token, body: stationBody(env) }));
      const pb = pointBody(st.id);
      await ok(env.s.call<{ id: number }>('POST', api.point.add.path, { token: env.a.token, body: pb }));
      const profile = await ok(
        env.s.call<{ id: number }>('POST', api.chargingProfile.add.path, { token: env.a.token, body: profileBody(st.id, pb.serialNumber) }),
      );
      profileTargets.set(profile.id, { stationId: st.id, serialNumber: pb.serialNumber, providerId: env.a.providerId });
      if (!callerPoints.has(env.b.providerId))
        callerPoints.set(env.b.providerId, (await insertPoint(env.s.database.db, env.b.providerId)).serialNumber);
      return profile.id;
    },
    snapshot: async (env, id) => [
      await row(schema.chargingProfile, schema.chargingProfile.id)(env, id),
      await env.s.database.db.select().from(schema.chargingProfileTarget).where(eq(schema.chargingProfileTarget.profileId, id)),
    ],
    stationOf: stationCol(schema.chargingProfile, schema.chargingProfile.id, schema.chargingProfile.stationId),
    endpoints: [
      { ep: api.chargingProfile.get, input: (id) => ({ query: { id } }) },
      // A new profile for A's station and point: B cannot name them.
      { ep: api.chargingProfile.add, input: (id) => ({ body: profileBody(profileOf(id).stationId, profileOf(id).serialNumber) }) },
      {
        ep: api.chargingProfile.edit,
        input: (id) => ({ body: { ...profileBody(profileOf(id).stationId, profileOf(id).serialNumber), id, stackLevel: 5 } }),
      },
      { ep: api.chargingProfile.send, input: (id) => ({ body: { id } }) },
      {
        // A remote start carrying A's profile: provider B names it on a point of its own (404, nothing sent); a
        // user of the profile's own provider names it on the profile's point.
        ep: api.pointAction.remoteStart,
        input: (id, env) => ({
          body: {
            serialNumber: env.b.providerId === profileOf(id).providerId ? profileOf(id).serialNumber : callerPoints.get(env.b.providerId),
            connectorId: 1,
            idTag: 'TAG1',
            chargingProfileId: id,
          },
        }),
        bound: {
          other: 404,
          own: 400,
          reason:
            "S2's point is not found; on S1's the profile is found and refused on its field: a remote start carries a TxProfile only.",
        },
      },
      { ep: api.chargingProfile.clear, input: (id) => ({ body: { serialNumber: profileOf(id).serialNumber, id } }) },
      { ep: api.chargingProfile.inForce, input: (id) => ({ query: { serialNumber: profileOf(id).serialNumber } }), expect: 'notFound' },
      { ep: api.chargingProfile.remove, input: (id) => ({ body: { ids: [id] } }) },
      {
        ep: api.chargingProfile.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: profileOf(id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.chargingProfile.export,
        input: (id) => ({ body: { format: 'csv', stationId: profileOf(id).stationId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'localController',
    table: schema.localController,
    create: async (env) => {
      const st = await ok(env.s.call<{ id: number }>('POST', api.station.add.path, { token: env.a.token, body: stationBody(env) }));
      const pb = pointBody(st.id);
      await ok(env.s.call<{ id: number }>('POST', api.point.add.path, { token: env.a.token, body: pb }));
      const c = await ok(
        env.s.call<{ id: number }>('POST', api.localController.add.path, {
          token: env.a.token,
          body: { name: uniq('lc'), stationId: st.id, limitW: 7000, serialNumbers: [pb.serialNumber] },
        }),
      );
      controllerTargets.set(c.id, { stationId: st.id, serialNumber: pb.serialNumber });
      return c.id;
    },
    snapshot: async (env, id) => [
      await row(schema.localController, schema.localController.id)(env, id),
      await env.s.database.db.select().from(schema.localControllerPoint).where(eq(schema.localControllerPoint.controllerId, id)),
    ],
    stationOf: stationCol(schema.localController, schema.localController.id, schema.localController.stationId),
    endpoints: [
      { ep: api.localController.get, input: (id) => ({ query: { id } }) },
      // A new controller over A's station and point: B cannot name them.
      {
        ep: api.localController.add,
        input: (id) => ({
          body: { name: 'stolen', stationId: controllerOf(id).stationId, limitW: 7000, serialNumbers: [controllerOf(id).serialNumber] },
        }),
        bound: {
          other: 404,
          own: 400,
          reason: 'The point already belongs to the controller created for the test (errors.localController.pointTaken).',
        },
      },
      { ep: api.localController.history, input: (id) => ({ query: { id } }) },
      {
        ep: api.localController.edit,
        input: (id) => ({
          body: { id, name: 'stolen', stationId: controllerOf(id).stationId, limitW: 7000, serialNumbers: [controllerOf(id).serialNumber] },
        }),
      },
      { ep: api.localController.remove, input: (id) => ({ body: { ids: [id] } }) },
      {
        ep: api.localController.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: controllerOf(id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.localController.export,
        input: (id) => ({ body: { format: 'csv', stationId: controllerOf(id).stationId } }),
        expect: 'emptyList',
      },
      { ep: api.localController.live, input: (id) => ({ query: { stationId: controllerOf(id).stationId } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'timedCharge',
    table: schema.timedCharge,
    create: async (env) => {
      const t = await pointAndDriver(env);
      const row = await ok(env.s.call<{ id: number }>('POST', api.timedCharge.add.path, { token: env.a.token, body: timedBody(t) }));
      smartTargets.set(`timedCharge:${row.id}`, t);
      return row.id;
    },
    snapshot: row(schema.timedCharge, schema.timedCharge.id),
    stationOf: stationCol(schema.timedCharge, schema.timedCharge.id, schema.timedCharge.stationId),
    endpoints: [
      { ep: api.timedCharge.get, input: (id) => ({ query: { id } }) },
      { ep: api.timedCharge.runs, input: (id) => ({ query: { id } }) },
      // A new timed charge on A's point for A's user: B cannot name them.
      { ep: api.timedCharge.add, input: (id) => ({ body: timedBody(smartOf('timedCharge', id)) }) },
      { ep: api.timedCharge.edit, input: (id) => ({ body: { ...timedBody(smartOf('timedCharge', id)), id, startTime: '03:00' } }) },
      {
        ep: api.timedCharge.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: smartOf('timedCharge', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.timedCharge.export,
        input: (id) => ({ body: { format: 'csv', stationId: smartOf('timedCharge', id).stationId } }),
        expect: 'emptyList',
      },
      // Last: it ends the row's schedule.
      { ep: api.timedCharge.cancel, input: (id) => ({ body: { ids: [id] } }) },
    ],
  },
  {
    name: 'reservation',
    table: schema.reservation,
    // Written to the database: reserving over the API needs a connected charger to answer ReserveNow.
    create: async (env) => {
      const t = await pointAndDriver(env);
      const [r] = await env.s.database.db
        .insert(schema.reservation)
        .values({
          providerId: env.a.providerId,
          stationId: t.stationId,
          chargePointId: t.pointId,
          connectorNo: 1,
          chargeUserId: t.chargeUserId,
          cardId: t.cardId,
          idTag: t.tag,
          expiryAt: new Date(Date.now() + 3_600_000),
          status: 'reserved',
        })
        .returning();
      smartTargets.set(`reservation:${r!.id}`, t);
      return r!.id;
    },
    snapshot: row(schema.reservation, schema.reservation.id),
    stationOf: stationCol(schema.reservation, schema.reservation.id, schema.reservation.stationId),
    endpoints: [
      { ep: api.reservation.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.reservation.add,
        input: (id) => ({
          body: {
            serialNumber: smartOf('reservation', id).serialNumber,
            connectorNo: 1,
            chargeUserId: smartOf('reservation', id).chargeUserId,
            expiryTime: new Date(Date.now() + 3_600_000).toISOString(),
          },
        }),
        bound: {
          other: 404,
          own: 409,
          reason: 'Found, then refused: the test’s point has no charger connected (errors.reservation.offline).',
        },
      },
      {
        ep: api.reservation.cancel,
        input: (id) => ({ body: { id } }),
        bound: {
          other: 404,
          own: 409,
          reason: 'Found, then refused: the test’s point has no charger connected (errors.reservation.offline).',
        },
      },
      {
        ep: api.reservation.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: smartOf('reservation', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.reservation.export,
        input: (id) => ({ body: { format: 'csv', stationId: smartOf('reservation', id).stationId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'workOrder',
    table: schema.workOrder,
    // Opened by hand over the API on a point of A (a charger's fault opens one the same way, by a trigger).
    create: async (env) => {
      const t = await pointAndDriver(env);
      const w = await ok(
        env.s.call<{ id: number; serialNumber: string }>('POST', api.workOrder.add.path, {
          token: env.a.token,
          body: {
            serialNumber: t.serialNumber,
            connectorNo: 1,
            faultCode: uniq('F'),
            description: 'Cable holder broken off',
            priority: 'normal',
          },
        }),
      );
      smartTargets.set(`workOrder:${w.id}`, t);
      return w.id;
    },
    snapshot: row(schema.workOrder, schema.workOrder.id),
    stationOf: stationCol(schema.workOrder, schema.workOrder.id, schema.workOrder.stationId),
    endpoints: [
      { ep: api.workOrder.detail, input: (id) => ({ body: { taskId: taskIdOf(id) } }) },
      {
        ep: api.workOrder.add,
        input: (id) => ({
          body: {
            serialNumber: smartOf('workOrder', id).serialNumber,
            connectorNo: 0,
            faultCode: uniq('F'),
            description: 'Display cracked, needs a new one',
            priority: 'low',
          },
        }),
      },
      {
        ep: api.workOrder.assign,
        input: (id, env) => ({ body: { taskId: taskIdOf(id), serviceManId: env.a.userId } }),
        bound: {
          other: 404,
          own: 409,
          reason: 'Found, then refused: the order’s station is in no service area (errors.workOrder.noArea).',
        },
      },
      {
        ep: api.workOrder.reassign,
        input: (id, env) => ({ body: { taskId: taskIdOf(id), serviceManId: env.a.userId } }),
        bound: { other: 404, own: 409, reason: 'Found, then refused: a new order is not failed (errors.workOrder.wrongState).' },
      },
      {
        ep: api.workOrder.accept,
        input: (id) => ({ body: { taskId: taskIdOf(id) } }),
        bound: {
          other: 404,
          own: 403,
          reason: 'Found, then refused: the order is not given to the caller (errors.workOrder.notServiceMan).',
        },
      },
      {
        ep: api.workOrder.report,
        input: (id) => ({ body: { taskId: taskIdOf(id), result: 'resolved', description: 'Replaced the holder, tested' } }),
        bound: {
          other: 404,
          own: 403,
          reason: 'Found, then refused: the order is not given to the caller (errors.workOrder.notServiceMan).',
        },
      },
      {
        ep: api.workOrder.archive,
        input: (id) => ({ body: { taskId: taskIdOf(id) } }),
        bound: { other: 404, own: 409, reason: 'Found, then refused: a new order is not resolved (errors.workOrder.wrongState).' },
      },
      { ep: api.workOrder.serviceMen, input: (id) => ({ query: { taskId: taskIdOf(id) } }) },
      { ep: api.workOrder.scheme, input: (id) => ({ body: { faultCode: 'E-1', taskId: taskIdOf(id) } }) },
      {
        ep: api.workOrder.feedback,
        input: (id) => ({
          body: { serialNumber: smartOf('workOrder', id).serialNumber, connectorNo: 0, description: 'Holster broken, cable on the floor' },
        }),
      },
      { ep: api.workOrder.flowChart, input: (id) => ({ query: { taskId: taskIdOf(id) } }) },
      {
        ep: api.workOrder.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: smartOf('workOrder', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.workOrder.search,
        input: (id) => ({ body: { page: 1, limit: 10, stationId: smartOf('workOrder', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.workOrder.export,
        input: (id) => ({ body: { format: 'csv', stationId: smartOf('workOrder', id).stationId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'faultCode',
    table: schema.faultCode,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ id: number }>('POST', api.workOrder.saveFaultCode.path, {
            token: env.a.token,
            body: { code: uniq('E'), title: 'Fan stalled', steps: 'Replace the fan' },
          }),
        )
      ).id,
    snapshot: row(schema.faultCode, schema.faultCode.id),
    notStationScoped: "A vendor's fault codes are the provider's catalogue, used at every station of it.",
    endpoints: [
      { ep: api.workOrder.saveFaultCode, input: (id) => ({ body: { id, code: uniq('E'), title: 'Fan stalled', steps: 'Replace it' } }) },
      { ep: api.workOrder.removeFaultCode, input: (id) => ({ body: { id } }) },
      {
        ep: api.workOrder.faultCodes,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'componentUse',
    table: schema.componentUse,
    // Written with a work order's resolved report; here straight into the table, on a work order of A's point.
    create: async (env) => {
      const t = await pointAndDriver(env);
      const w = await ok(
        env.s.call<{ id: number }>('POST', api.workOrder.add.path, {
          token: env.a.token,
          body: { serialNumber: t.serialNumber, connectorNo: 1, faultCode: uniq('F'), description: 'Fan noisy, replaced', priority: 'low' },
        }),
      );
      const [c] = await env.s.database.db
        .insert(schema.componentUse)
        .values({
          providerId: env.a.providerId,
          stationId: t.stationId,
          chargePointId: t.pointId,
          connectorNo: 1,
          workOrderId: w.id,
          component: 'fan',
          action: 'replaced',
          quantity: 1,
        })
        .returning({ id: schema.componentUse.id });
      smartTargets.set(`componentUse:${c!.id}`, t);
      return c!.id;
    },
    snapshot: row(schema.componentUse, schema.componentUse.id),
    stationOf: stationCol(schema.componentUse, schema.componentUse.id, schema.componentUse.stationId),
    endpoints: [
      {
        ep: api.component.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: smartOf('componentUse', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.component.search,
        input: (id) => ({ body: { page: 1, limit: 10, stationId: smartOf('componentUse', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.component.export,
        input: (id) => ({ body: { format: 'csv', stationId: smartOf('componentUse', id).stationId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'serviceArea',
    table: schema.serviceArea,
    create: async (env) => {
      const t = await pointAndDriver(env);
      const a = await ok(
        env.s.call<{ id: number }>('POST', api.workOrder.saveArea.path, {
          token: env.a.token,
          body: {
            name: uniq('area'),
            stationIds: [t.stationId],
            leaderIds: [env.a.userId],
            serviceManIds: [env.a.userId],
            archivistIds: [],
          },
        }),
      );
      return a.id;
    },
    snapshot: row(schema.serviceArea, schema.serviceArea.id),
    notStationScoped:
      'A service area spans stations of its provider: its own stations are checked against the caller’s binding when they are set.',
    endpoints: [
      {
        ep: api.workOrder.saveArea,
        input: (id, env) => ({
          body: { id, name: uniq('area'), stationIds: [], leaderIds: [env.b.userId], serviceManIds: [env.b.userId], archivistIds: [] },
        }),
      },
      { ep: api.workOrder.removeArea, input: (id) => ({ body: { id } }) },
      { ep: api.workOrder.userOptions, input: (_id, env) => ({ query: { providerId: env.a.providerId } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'corporateTransfer',
    table: schema.corporateTransfer,
    create: async (env) => {
      const user = await financeUser(env);
      return (
        await ok(
          env.s.call<{ id: number }>('POST', api.corporateTransfer.add.path, {
            token: env.a.token,
            body: transferBody(env.a.providerId, user),
          }),
        )
      ).id;
    },
    snapshot: row(schema.corporateTransfer, schema.corporateTransfer.id),
    notStationScoped: "A bank transfer credits the provider's charge users and cards, usable at any of its stations: no station owns it.",
    endpoints: [
      { ep: api.corporateTransfer.get, input: (id) => ({ query: { id } }) },
      { ep: api.corporateTransfer.confirm, input: (id) => ({ body: { id } }) },
      { ep: api.corporateTransfer.reject, input: (id) => ({ body: { id, reason: 'stolen' } }) },
      { ep: api.corporateTransfer.add, input: (_id, env) => ({ body: transferBody(env.a.providerId, env.bOther.id) }) },
      { ep: api.corporateTransfer.list, input: (id) => ({ query: { page: 1, limit: 10, id } }), expect: 'emptyList' },
      {
        ep: api.corporateTransfer.export,
        input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      {
        ep: api.transferRecord.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      { ep: api.transferRecord.export, input: (id) => ({ body: { format: 'csv', id } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'invoice',
    table: schema.invoice,
    // An invoice over the recharge of a new charge user of A.
    create: async (env) => {
      const user = await financeUser(env);
      const items = await ok(
        env.s.call<{ kind: string; refId: number }[]>('GET', `${api.invoice.billable.path}?chargeUserId=${user}`, { token: env.a.token }),
      );
      const inv = await ok(
        env.s.call<{ id: number }>('POST', api.invoice.add.path, {
          token: env.a.token,
          body: { chargeUserId: user, rechargeIds: items.map((i) => i.refId), ...invoiceInfo },
        }),
      );
      invoiceUsers.set(inv.id, user);
      return inv.id;
    },
    snapshot: row(schema.invoice, schema.invoice.id),
    notStationScoped: "An invoice covers a charge user's records at any of the provider's stations: no station owns it.",
    endpoints: [
      { ep: api.invoice.get, input: (id) => ({ query: { id } }) },
      { ep: api.invoice.issue, input: (id) => ({ body: { id, fileName: 'x.pdf' } }) },
      { ep: api.invoice.reject, input: (id) => ({ body: { id, reason: 'stolen' } }) },
      {
        ep: api.invoice.add,
        input: (id) => ({ body: { chargeUserId: invoiceUserOf(id), rechargeIds: [1], ...invoiceInfo } }),
      },
      { ep: api.invoice.billable, input: (id) => ({ query: { chargeUserId: invoiceUserOf(id) } }) },
      {
        ep: api.invoice.list,
        input: (id) => ({ query: { page: 1, limit: 10, chargeUserId: invoiceUserOf(id) } }),
        expect: 'emptyList',
      },
      { ep: api.invoice.export, input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'memberLevel',
    table: schema.memberLevel,
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.memberLevel.add.path, { token: env.a.token, body: levelBody(env.a.providerId) })))
        .id,
    snapshot: row(schema.memberLevel, schema.memberLevel.id),
    notStationScoped: NO_STATION.operations,
    endpoints: [
      { ep: api.memberLevel.get, input: (id) => ({ query: { id } }) },
      { ep: api.memberLevel.add, input: (_id, env) => ({ body: levelBody(env.a.providerId) }) },
      { ep: api.memberLevel.edit, input: (id) => ({ body: { id, ...levelBody(0), providerId: undefined } }) },
      { ep: api.memberLevel.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.memberLevel.options, input: (_id, env) => ({ query: { providerId: env.a.providerId } }), expect: 'emptyArray' },
      {
        ep: api.memberLevel.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      { ep: api.memberLevel.export, input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
    ],
  },
  {
    // A charge user of A with an override to a level of A: the membership row, by the charge user's id.
    name: 'memberStatus',
    table: schema.memberStatus,
    create: async (env) => {
      const user = await ok(
        env.s.call<{ id: number }>('POST', api.chargeUser.add.path, {
          token: env.a.token,
          body: { account: uniq('mem'), userType: 'card', providerId: env.a.providerId },
        }),
      );
      const level = await ok(
        env.s.call<{ id: number }>('POST', api.memberLevel.add.path, { token: env.a.token, body: levelBody(env.a.providerId) }),
      );
      memberLevels.set(user.id, level.id);
      await ok(env.s.call('POST', api.member.override.path, { token: env.a.token, body: overrideBody(user.id, level.id) }));
      return user.id;
    },
    snapshot: row(schema.memberStatus, schema.memberStatus.chargeUserId),
    notStationScoped: NO_STATION.operations,
    endpoints: [
      { ep: api.member.get, input: (id) => ({ query: { id } }) },
      { ep: api.member.override, input: (id) => ({ body: overrideBody(id, memberLevels.get(id) ?? 0) }) },
      { ep: api.member.clearOverride, input: (id) => ({ body: { id } }) },
      { ep: api.member.recompute, input: (_id, env) => ({ body: { providerId: env.a.providerId } }) },
      {
        ep: api.member.list,
        input: (id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId, levelId: memberLevels.get(id) ?? 0 } }),
        expect: 'emptyList',
      },
      { ep: api.member.export, input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'voucherTemplate',
    table: schema.voucherTemplate,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ id: number }>('POST', api.voucherTemplate.add.path, { token: env.a.token, body: templateBody(env.a.providerId) }),
        )
      ).id,
    snapshot: row(schema.voucherTemplate, schema.voucherTemplate.id),
    notStationScoped: NO_STATION.operations,
    endpoints: [
      { ep: api.voucherTemplate.get, input: (id) => ({ query: { id } }) },
      { ep: api.voucherTemplate.add, input: (_id, env) => ({ body: templateBody(env.a.providerId) }) },
      { ep: api.voucherTemplate.edit, input: (id) => ({ body: { id, ...templateBody(0), providerId: undefined } }) },
      { ep: api.voucherTemplate.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.voucherTemplate.options, input: () => ({ query: { limit: 100 } }), expect: 'emptyArray' },
      {
        ep: api.voucherTemplate.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      {
        ep: api.voucherTemplate.export,
        input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      // B's own users, A's template: not found.
      { ep: api.voucher.issue, input: (id, env) => ({ body: { templateId: id, chargeUserIds: [env.bOther.id] } }) },
    ],
  },
  {
    // A voucher of A's template issued to a charge user of A.
    name: 'voucher',
    table: schema.voucher,
    create: async (env) => {
      const user = await ok(
        env.s.call<{ id: number }>('POST', api.chargeUser.add.path, {
          token: env.a.token,
          body: { account: uniq('vch'), userType: 'card', providerId: env.a.providerId },
        }),
      );
      const t = await ok(
        env.s.call<{ id: number }>('POST', api.voucherTemplate.add.path, { token: env.a.token, body: templateBody(env.a.providerId) }),
      );
      await ok(env.s.call('POST', api.voucher.issue.path, { token: env.a.token, body: { templateId: t.id, chargeUserIds: [user.id] } }));
      const [v] = await env.s.database.db
        .select({ id: schema.voucher.id })
        .from(schema.voucher)
        .where(eq(schema.voucher.chargeUserId, user.id));
      return v!.id;
    },
    snapshot: row(schema.voucher, schema.voucher.id),
    notStationScoped: NO_STATION.operations,
    endpoints: [
      { ep: api.voucher.get, input: (id) => ({ query: { id } }) },
      { ep: api.voucher.revoke, input: (id) => ({ body: { id, revokeReason: 'conformance' } }) },
      { ep: api.voucher.choose, input: (id) => ({ body: { transactionId: 1, voucherId: id } }) },
      { ep: api.voucher.list, input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }), expect: 'emptyList' },
      { ep: api.voucher.export, input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'activity',
    table: schema.activity,
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.activity.add.path, { token: env.a.token, body: activityBody(env.a.providerId) })))
        .id,
    snapshot: row(schema.activity, schema.activity.id),
    notStationScoped: NO_STATION.operations,
    endpoints: [
      { ep: api.activity.get, input: (id) => ({ query: { id } }) },
      { ep: api.activity.add, input: (_id, env) => ({ body: activityBody(env.a.providerId) }) },
      { ep: api.activity.edit, input: (id) => ({ body: { id, ...activityBody(0), providerId: undefined } }) },
      { ep: api.activity.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.activity.activate, input: (id) => ({ body: { id } }) },
      { ep: api.activity.end, input: (id) => ({ body: { id } }) },
      {
        ep: api.activity.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      { ep: api.activity.export, input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'material',
    table: schema.material,
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.material.add.path, { token: env.a.token, body: materialBody(env.a.providerId) })))
        .id,
    snapshot: row(schema.material, schema.material.id),
    notStationScoped: "Spare parts are the provider's stock, sent to any of its stations: no station owns them.",
    endpoints: [
      { ep: api.material.get, input: (id) => ({ query: { id } }) },
      { ep: api.material.add, input: (_id, env) => ({ body: materialBody(env.a.providerId) }) },
      { ep: api.material.edit, input: (id) => ({ body: { id, ...materialBody(0), providerId: undefined } }) },
      { ep: api.material.remove, input: (id) => ({ body: { ids: [id] } }) },
      {
        ep: api.material.options,
        input: (id, env) => ({ query: { providerId: env.a.providerId, ids: String(id) } }),
        expect: 'emptyArray',
      },
      {
        ep: api.material.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      { ep: api.material.export, input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'materialApply',
    table: schema.materialApply,
    // A work order opened by hand on a new point of A, a part of A in stock, and the apply order for them.
    create: async (env) => {
      const t = await pointAndDriver(env);
      const w = await ok(
        env.s.call<{ id: number }>('POST', api.workOrder.add.path, {
          token: env.a.token,
          body: {
            serialNumber: t.serialNumber,
            connectorNo: 0,
            faultCode: uniq('F'),
            description: 'Contactor welded shut',
            priority: 'normal',
          },
        }),
      );
      const part = await ok(
        env.s.call<{ id: number }>('POST', api.material.add.path, {
          token: env.a.token,
          body: { ...materialBody(env.a.providerId), stock: 1000 },
        }),
      );
      const a = await ok(
        env.s.call<{ id: number }>('POST', api.materialApply.add.path, {
          token: env.a.token,
          body: applyBody(taskIdOf(w.id), part.id),
        }),
      );
      applyTargets.set(a.id, { workOrderTaskId: taskIdOf(w.id), materialId: part.id });
      return a.id;
    },
    snapshot: row(schema.materialApply, schema.materialApply.id),
    stationOf: stationCol(schema.materialApply, schema.materialApply.id, schema.materialApply.stationId),
    endpoints: [
      { ep: api.materialApply.add, input: (id) => ({ body: applyBody(applyOf(id).workOrderTaskId, applyOf(id).materialId) }) },
      { ep: api.materialApply.confirm, input: (id) => ({ body: { taskId: applyTaskIdOf(id), result: 'agreed' } }) },
      { ep: api.materialApply.flowChart, input: (id) => ({ query: { taskId: applyTaskIdOf(id) } }) },
      {
        ep: api.materialApply.list,
        input: (id) => ({ query: { page: 1, limit: 10, workOrderTaskId: applyOf(id).workOrderTaskId } }),
        expect: 'emptyList',
      },
      {
        ep: api.materialApply.search,
        input: (id) => ({ body: { page: 1, limit: 10, taskId: applyTaskIdOf(id) } }),
        expect: 'emptyList',
      },
      {
        ep: api.materialApply.workOrders,
        input: (id) => ({ query: { text: applyOf(id).workOrderTaskId } }),
        expect: 'emptyArray',
      },
      {
        ep: api.materialApply.export,
        input: (id) => ({ body: { format: 'csv', workOrderTaskId: applyOf(id).workOrderTaskId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'weatherWarning',
    table: schema.weatherWarning,
    // A manual warning on a station of A (the forecast's are written by the feed on the same rows).
    create: async (env) => {
      const st = await ok(env.s.call<{ id: number }>('POST', api.station.add.path, { token: env.a.token, body: stationBody(env) }));
      const w = await ok(
        env.s.call<{ id: number }>('POST', api.warn.add.path, {
          token: env.a.token,
          body: { stationId: st.id, kind: 'storm', level: 'high', day: warnDay(), note: 'Typhoon' },
        }),
      );
      warningStations.set(w.id, st.id);
      return w.id;
    },
    snapshot: row(schema.weatherWarning, schema.weatherWarning.id),
    stationOf: stationCol(schema.weatherWarning, schema.weatherWarning.id, schema.weatherWarning.stationId),
    endpoints: [
      { ep: api.warn.get, input: (id) => ({ query: { id } }) },
      { ep: api.warn.edit, input: (id) => ({ body: { id, kind: 'other', level: 'low', day: warnDay(), note: 'stolen' } }) },
      { ep: api.warn.end, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.warn.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.warn.add, input: (id) => ({ body: { stationId: warningStationOf(id), kind: 'heat', level: 'low', day: warnDay() } }) },
      { ep: api.warn.list, input: (id) => ({ query: { page: 1, limit: 10, stationId: warningStationOf(id) } }), expect: 'emptyList' },
      { ep: api.warn.export, input: (id) => ({ body: { format: 'csv', stationId: warningStationOf(id) } }), expect: 'emptyList' },
      {
        ep: api.warn.stationWeather,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: warningStationOf(id) } }),
        expect: 'emptyList',
      },
      {
        ep: api.warn.searchStationWeather,
        input: (id) => ({ body: { page: 1, limit: 10, stationId: warningStationOf(id) } }),
        expect: 'emptyList',
      },
      {
        ep: api.warn.exportStationWeather,
        input: (id) => ({ body: { format: 'csv', stationId: warningStationOf(id) } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'weatherRule',
    table: schema.weatherRule,
    // The row is the provider's: its id is the provider's id.
    create: async (env) => {
      const r = await ok(
        env.s.call<{ providerId: number }>('POST', api.warn.saveRules.path, {
          token: env.a.token,
          body: { heatMaxC: 38, frostMinC: -5, stormWindKmh: 70, heavyRainMm: null },
        }),
      );
      return r.providerId;
    },
    snapshot: row(schema.weatherRule, schema.weatherRule.providerId),
    notStationScoped: "A provider's warning rules apply to all of its stations; a station-bound user reads the provider's rules.",
    endpoints: [
      { ep: api.warn.rules, input: (id) => ({ query: { providerId: id } }) },
      {
        ep: api.warn.saveRules,
        input: (id) => ({ body: { providerId: id, heatMaxC: 30, frostMinC: 0, stormWindKmh: 50, heavyRainMm: 20 } }),
      },
      {
        ep: api.warn.stationWeather,
        input: (id) => ({ query: { page: 1, limit: 10, providerId: id } }),
        expect: 'emptyList',
      },
      {
        ep: api.warn.list,
        input: (id) => ({ query: { page: 1, limit: 10, providerId: id } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'firmwareVersion',
    table: schema.firmwareVersion,
    // Written to the database: the upload is multipart, and no endpoint here reads the file before finding the row.
    create: async (env) => {
      const [v] = await env.s.database.db
        .insert(schema.firmwareVersion)
        .values({
          providerId: env.a.providerId,
          version: uniq('v'),
          applicationType: 'AC',
          communicationType: '4G',
          storedName: 'firmware/none',
          fileName: 'fw.bin',
          sizeBytes: 1,
          sha256: '0'.repeat(64),
          token: uniq('t').padEnd(64, '0').slice(0, 64),
        })
        .returning();
      return v!.id;
    },
    snapshot: row(schema.firmwareVersion, schema.firmwareVersion.id),
    notStationScoped: 'Firmware packages are the provider’s, usable on any of its points: no station owns them.',
    endpoints: [
      { ep: api.firmwareVersion.get, input: (id) => ({ query: { id } }) },
      { ep: api.firmwareVersion.download, input: (id) => ({ query: { id } }) },
      {
        ep: api.firmwareVersion.edit,
        input: (id) => ({ body: { id, version: 'stolen', applicationType: 'AC', communicationType: '4G' } }),
      },
      { ep: api.firmwareVersion.remove, input: (id) => ({ body: { ids: [id] } }) },
      {
        ep: api.firmwareVersion.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      // An upgrade with A's package: B's point would not find it (nor does B find the made-up point).
      { ep: api.firmwareUpgrade.add, input: (id) => ({ body: { serialNumbers: ['ANY-POINT'], versionId: id } }) },
    ],
  },
  {
    name: 'firmwareUpgrade',
    table: schema.firmwareUpgrade,
    create: async (env) => {
      const t = await pointAndDriver(env);
      const u = await ok(
        env.s.call<{ id: number }>('POST', api.firmwareUpgrade.add.path, {
          token: env.a.token,
          body: { serialNumbers: [t.serialNumber], location: 'https://firmware.example.com/fw.bin' },
        }),
      );
      smartTargets.set(`firmwareUpgrade:${u.id}`, t);
      return u.id;
    },
    snapshot: async (env, id) => [
      await row(schema.firmwareUpgrade, schema.firmwareUpgrade.id)(env, id),
      await env.s.database.db.select().from(schema.firmwareUpgradePoint).where(eq(schema.firmwareUpgradePoint.upgradeId, id)),
    ],
    notStationScoped:
      'An upgrade may span several stations of its provider; its points are listed only for the stations the caller is bound to.',
    endpoints: [
      { ep: api.firmwareUpgrade.get, input: (id) => ({ query: { id } }) },
      { ep: api.firmwareUpgrade.points, input: (id) => ({ query: { id } }) },
      { ep: api.firmwareUpgrade.retry, input: (id) => ({ body: { id } }) },
      {
        ep: api.firmwareUpgrade.list,
        input: (_id, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      {
        ep: api.firmwareUpgrade.export,
        input: (_id, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      // A new upgrade of A's point: B cannot name it.
      {
        ep: api.firmwareUpgrade.add,
        input: (id) => ({
          body: { serialNumbers: [smartOf('firmwareUpgrade', id).serialNumber], location: 'https://firmware.example.com/x.bin' },
        }),
      },
    ],
  },
  {
    name: 'diagnostics',
    table: schema.diagnosticsRequest,
    // Requested over the API for a point with no charger connected: stored as offline.
    create: async (env) => {
      const t = await pointAndDriver(env);
      const [d] = await ok(
        env.s.call<{ id: number }[]>('POST', api.diagnostics.add.path, { token: env.a.token, body: { serialNumbers: [t.serialNumber] } }),
      );
      smartTargets.set(`diagnostics:${d!.id}`, t);
      return d!.id;
    },
    snapshot: row(schema.diagnosticsRequest, schema.diagnosticsRequest.id),
    stationOf: stationCol(schema.diagnosticsRequest, schema.diagnosticsRequest.id, schema.diagnosticsRequest.stationId),
    endpoints: [
      { ep: api.diagnostics.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.diagnostics.download,
        input: (id) => ({ query: { id } }),
        bound: {
          other: 404,
          own: 404,
          reason: 'Found, then answered 404 for its file: the test’s point never uploaded one (errors.diagnostics.noFile).',
        },
      },
      { ep: api.diagnostics.add, input: (id) => ({ body: { serialNumbers: [smartOf('diagnostics', id).serialNumber] } }) },
      {
        ep: api.diagnostics.list,
        input: (id) => ({ query: { page: 1, limit: 10, stationId: smartOf('diagnostics', id).stationId } }),
        expect: 'emptyList',
      },
      {
        ep: api.diagnostics.export,
        input: (id) => ({ body: { format: 'csv', stationId: smartOf('diagnostics', id).stationId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'exportConfig',
    table: schema.exportConfig,
    endpoints: [],
    optOut: "Addressed by the caller's own provider and an export source, never by id: no endpoint can name another provider's row.",
  },
  {
    name: 'clientError',
    table: schema.clientError,
    endpoints: [],
    optOut:
      "Console error reports are listed, never addressed by id: the list is scoped to the reporter's provider, and client-error.test.ts covers another provider seeing none of them.",
  },
  {
    name: 'storedFile',
    table: schema.storedFile,
    endpoints: [],
    optOut:
      'Files are addressed by a random file name, not an id; download checks the provider and common.test.ts covers another provider getting 404.',
  },
  {
    name: 'userGroup',
    notStationScoped: NO_STATION.cards,
    table: schema.userGroup,
    create: async (env) => {
      await ensureBOwn(env);
      return (
        await ok(
          env.s.call<{ id: number }>('POST', api.userGroup.add.path, {
            token: env.a.token,
            body: { name: uniq('grp'), providerId: env.a.providerId },
          }),
        )
      ).id;
    },
    snapshot: row(schema.userGroup, schema.userGroup.id),
    endpoints: [
      { ep: api.userGroup.get, input: (id) => ({ query: { id } }) },
      { ep: api.userGroup.edit, input: (id) => ({ body: { id, name: 'stolen' } }) },
      { ep: api.userGroup.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.userGroup.members, input: (id) => ({ query: { id, page: 1, limit: 10 } }) },
      { ep: api.userGroup.addMembers, input: (id) => ({ body: { id, chargeUserIds: [bOwn.chargeUser] } }) },
      { ep: api.userGroup.removeMembers, input: (id) => ({ body: { id, chargeUserIds: [bOwn.chargeUser] } }) },
      {
        ep: api.chargeUser.add,
        input: (id, env) => ({ body: { account: uniq('acc'), userType: 'card', providerId: env.b.providerId, groupId: id } }),
      },
      { ep: api.chargeUser.edit, input: (id) => ({ body: { id: bOwn.chargeUser, account: uniq('acc'), userType: 'card', groupId: id } }) },
      { ep: api.chargeUser.list, input: (id) => ({ query: { page: 1, limit: 10, groupId: id } }), expect: 'emptyList' },
      { ep: api.chargeUser.export, input: (id) => ({ body: { format: 'csv', groupId: id } }), expect: 'emptyList' },
      { ep: api.userGroup.add, input: (_, env) => ({ body: { name: uniq('grp'), providerId: env.a.providerId } }) },
      { ep: api.userGroup.list, input: (_, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }), expect: 'emptyList' },
      { ep: api.userGroup.export, input: (_, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }), expect: 'emptyList' },
      { ep: api.userGroup.options, input: (_, env) => ({ query: { providerId: env.a.providerId } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'chargeUser',
    notStationScoped: NO_STATION.cards,
    table: schema.chargeUser,
    create: async (env) => {
      await ensureBOwn(env);
      const user = await ok(
        env.s.call<{ id: number }>('POST', api.chargeUser.add.path, {
          token: env.a.token,
          body: { account: uniq('acc'), userType: 'card', providerId: env.a.providerId },
        }),
      );
      await ok(env.s.call('POST', api.chargeUser.recharge.path, { token: env.a.token, body: { id: user.id, amountCents: 500 } }));
      return user.id;
    },
    snapshot: row(schema.chargeUser, schema.chargeUser.id),
    endpoints: [
      { ep: api.chargeUser.get, input: (id) => ({ query: { id } }) },
      { ep: api.chargeUser.edit, input: (id) => ({ body: { id, account: uniq('stolen'), userType: 'card' } }) },
      { ep: api.chargeUser.status, input: (id) => ({ body: { id, status: 0 } }) },
      { ep: api.chargeUser.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.chargeUser.recharge, input: (id) => ({ body: { id, amountCents: 100 } }) },
      { ep: api.chargeUser.refund, input: (id) => ({ body: { id, amountCents: 100 } }) },
      { ep: api.card.add, input: (id, env) => ({ body: { ...cardBody(env.b.providerId), chargeUserId: id } }) },
      { ep: api.card.edit, input: (id) => ({ body: { id: bOwn.card, expireTime: inAYear(), email: 'x@x.test', chargeUserId: id } }) },
      { ep: api.car.add, input: (id, env) => ({ body: { ...carBody(env.b.providerId), chargeUserId: id } }) },
      { ep: api.car.edit, input: (id, env) => ({ body: { id: bOwn.car, ...carBody(env.b.providerId), chargeUserId: id } }) },
      { ep: api.userGroup.addMembers, input: (id) => ({ body: { id: bOwn.group, chargeUserIds: [id] } }) },
      { ep: api.userGroup.removeMembers, input: (id) => ({ body: { id: bOwn.group, chargeUserIds: [id] } }) },
      { ep: api.card.list, input: (id) => ({ query: { page: 1, limit: 10, chargeUserId: id } }), expect: 'emptyList' },
      { ep: api.car.list, input: (id) => ({ query: { page: 1, limit: 10, chargeUserId: id } }), expect: 'emptyList' },
      { ep: api.car.export, input: (id) => ({ body: { format: 'csv', chargeUserId: id } }), expect: 'emptyList' },
      { ep: api.card.export, input: (id) => ({ body: { format: 'csv', chargeUserId: id } }), expect: 'emptyList' },
      { ep: api.chargeUser.options, input: (_, env) => ({ query: { providerId: env.a.providerId } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'card',
    notStationScoped: NO_STATION.cards,
    table: schema.card,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ id: number }>('POST', api.card.add.path, {
            token: env.a.token,
            body: { ...cardBody(env.a.providerId), prepaidCents: 500 },
          }),
        )
      ).id,
    snapshot: row(schema.card, schema.card.id),
    endpoints: [
      { ep: api.card.get, input: (id) => ({ query: { id } }) },
      { ep: api.card.edit, input: (id) => ({ body: { id, expireTime: inAYear(), email: 'x@x.test' } }) },
      { ep: api.card.reportLoss, input: (id) => ({ body: { id } }) },
      { ep: api.card.cancelLoss, input: (id) => ({ body: { id } }) },
      { ep: api.card.expire, input: (id) => ({ body: { id } }) },
      { ep: api.card.recharge, input: (id) => ({ body: { id, amountCents: 100 } }) },
      { ep: api.card.refund, input: (id) => ({ body: { id, amountCents: 100 } }) },
      { ep: api.card.options, input: (_, env) => ({ query: { providerId: env.a.providerId } }), expect: 'emptyArray' },
    ],
  },
  {
    name: 'ledger (recharge records)',
    notStationScoped: NO_STATION.cards,
    table: schema.ledger,
    create: async (env) => {
      const c = await ok(
        env.s.call<{ id: number }>('POST', api.card.add.path, {
          token: env.a.token,
          body: { ...cardBody(env.a.providerId), prepaidCents: 700 },
        }),
      );
      const [r] = await env.s.database.db.select({ id: schema.ledger.id }).from(schema.ledger).where(eq(schema.ledger.cardId, c.id));
      return r!.id;
    },
    snapshot: row(schema.ledger, schema.ledger.id),
    endpoints: [
      { ep: api.rechargeRecord.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.rechargeRecord.list,
        input: (_, env) => ({ query: { page: 1, limit: 10, providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
      {
        ep: api.rechargeRecord.export,
        input: (_, env) => ({ body: { format: 'csv', providerId: env.a.providerId } }),
        expect: 'emptyList',
      },
    ],
  },
  {
    name: 'car',
    notStationScoped: NO_STATION.cards,
    table: schema.car,
    create: async (env) => {
      await ensureBOwn(env);
      return (await ok(env.s.call<{ id: number }>('POST', api.car.add.path, { token: env.a.token, body: carBody(env.a.providerId) }))).id;
    },
    snapshot: row(schema.car, schema.car.id),
    endpoints: [
      { ep: api.car.get, input: (id) => ({ query: { id } }) },
      { ep: api.car.edit, input: (id, env) => ({ body: { id, ...carBody(env.b.providerId) } }) },
      { ep: api.car.remove, input: (id) => ({ body: { ids: [id] } }) },
    ],
  },
  {
    // Platform-level (issue 21): an application belongs to no provider until approved (then `providerId` names the
    // provider it made). Only users who see every provider (the super provider's) find one; B, a common provider
    // holding every permission, finds none. Made signed out through the public form, as applicants do.
    name: 'application',
    table: schema.application,
    create: async (env) => {
      const form = new FormData();
      form.append('file', new Blob([png()]), 'licence.png');
      const res = await fetch(`${env.s.url}/prod-api${api.apply.uploadLicense.path}`, { method: 'POST', body: form });
      const { data } = (await res.json()) as { data: { fileName: string } };
      const r = await ok(
        env.s.call<{ referenceNo: string }>('POST', api.apply.submit.path, {
          body: {
            companyName: uniq('Applicant'),
            contact: 'Li Lei',
            phone: '13900000000',
            email: `${uniq('a')}@applicant.test`,
            licenseNumber: '91310000MA1K000001',
            licenseImage: data.fileName,
            address: 'x',
            expectedPoints: 1,
            expectedStations: 1,
            agreed: true,
          },
        }),
      );
      return Number(r.referenceNo.slice(2));
    },
    snapshot: row(schema.application, schema.application.id),
    notStationScoped: 'Applications are the platform’s, made before any provider or station exists: no station owns them.',
    endpoints: [
      { ep: api.apply.get, input: (id) => ({ query: { id } }) },
      { ep: api.apply.approve, input: (id) => ({ body: { id, validity: 1, authCount: 5, username: uniq('applicant') } }) },
      { ep: api.apply.reject, input: (id) => ({ body: { id, reason: 'no' } }) },
      { ep: api.apply.list, input: (id) => ({ query: { page: 1, limit: 10, referenceNo: applyReferenceOf(id) } }), expect: 'emptyList' },
    ],
  },
];

/** Row counts of every table but those that move on any call (the system log records refused attempts, sessions are sign-ins). */
export async function tableCounts(env: TenantEnv) {
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(schema)) {
    if (['systemLog', 'captcha', 'loginAttempt', 'session'].includes(name)) continue;
    out[name] = (await env.s.database.db.select({ n: count() }).from(table as typeof schema.provider))[0]!.n;
  }
  return out;
}

/** Endpoints that take a tenant's id yet answer anyone on purpose, each with its reason. */
export const publicById: { ep: EndpointDef; reason: string }[] = [
  {
    ep: api.provider.agreement,
    reason: "A provider's disclaimer and privacy agreement are public pages for its drivers; they hold nothing else.",
  },
];

/** Rows that live inside a registered resource (recipients of a message) or are not tenant-owned. */
export const notTenantTables: { table: PgTable; reason: string }[] = [
  { table: schema.messageRecipient, reason: 'part of a message: covered through the message resource' },
  {
    table: schema.chargingDay,
    reason:
      'derived totals of the charging records, written only by their triggers and read only by the dashboard statistics, which scope it',
  },
  {
    table: schema.pointMonth,
    reason:
      'derived totals of the charging records per point and month, written only by their triggers and read only by the operation statistics, which scope it',
  },
  {
    table: schema.startMonth,
    reason:
      'derived counts of session starts per station, month, weekday and hour, written only by the triggers on the charging records and read only by the operation statistics, which scope it',
  },
  {
    table: schema.settlementDay,
    reason: 'derived totals of the settled bills, written only by their triggers and read only by the financial statistics, which scope it',
  },
  {
    table: schema.ledgerDay,
    reason: 'derived totals of the ledger, written only by its trigger and read only by the financial statistics, which scope it',
  },
  {
    table: schema.rechargeBonus,
    reason:
      "the link of a recharge's ledger row to its activity bonus row, written in the recharge's transaction; both rows are read through the scoped recharge records",
  },
];
