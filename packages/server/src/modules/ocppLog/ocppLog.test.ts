import { api, type OcppLogDto } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { insertOcppLog, insertPoint, insertStation } from '../monitor/monitor.fixtures.js';

let s: TestServer;
let db: Db;
let admin: string;
let a: { token: string; providerId: number; roleId: number };
let b: { token: string };
let point: Awaited<ReturnType<typeof insertPoint>>;
const T0 = Date.parse('2026-03-01T08:00:00Z');
const at = (ms: number) => new Date(T0 + ms);
const ids = { boot: 0, hb: 0, reset: 0, open: 0, stray: 0, refused: 0, unknown: 0 };

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  admin = await s.login();
  const opA = await createOperator(db, {
    permissions: ['config:ocppLog:list', 'config:ocppLog:export'],
    rolePaths: ['/configurationManagement'],
  });
  a = { token: await s.login(opA.user.username, opA.user.password), providerId: opA.providerId, roleId: opA.role.id };
  const opB = await createOperator(db, {
    permissions: ['config:ocppLog:list', 'config:ocppLog:export'],
    rolePaths: ['/configurationManagement'],
  });
  b = { token: await s.login(opB.user.username, opB.user.password) };
  point = await insertPoint(db, a.providerId);
  const row = (v: Partial<Parameters<typeof insertOcppLog>[1]>) =>
    insertOcppLog(db, {
      providerId: a.providerId,
      chargePointId: point.id,
      serialNumber: point.serialNumber,
      direction: 'in',
      ...v,
    } as never);
  // A boot answered after 40 ms (request and answer rows of their own, as logged before 0041); a heartbeat answered
  // by an error (one row for the exchange, as the server logs a charger's CALL now); a command out answered later;
  // a call never answered.
  ids.boot = (
    await row({ messageType: 2, action: 'BootNotification', messageId: 'm1', payload: { chargePointVendor: 'Acme' }, createdAt: at(0) })
  ).id;
  await row({
    direction: 'out',
    messageType: 3,
    action: 'BootNotification',
    messageId: 'm1',
    payload: { status: 'Accepted' },
    latencyMs: 40,
    createdAt: at(40),
  });
  ids.hb = (
    await row({
      messageType: 2,
      action: 'Heartbeat',
      messageId: 'm2',
      payload: {},
      createdAt: at(1000),
      latencyMs: 10,
      responseType: 4,
      responsePayload: { errorCode: 'InternalError', errorDescription: 'boom', errorDetails: {} },
      responseAt: at(1010),
    })
  ).id;
  // A second answer with the same id (none is ever sent): the exchange keeps its own, and this one is not listed.
  await row({ direction: 'out', messageType: 3, action: 'Heartbeat', messageId: 'm2', payload: {}, createdAt: at(1020) });
  ids.reset = (
    await row({ direction: 'out', messageType: 2, action: 'Reset', messageId: 'c1', payload: { type: 'Soft' }, createdAt: at(2000) })
  ).id;
  // The charger's answer to the reset, 250 ms later.
  await row({ messageType: 3, action: 'Reset', messageId: 'c1', payload: { status: 'Accepted' }, latencyMs: 250, createdAt: at(2250) });
  ids.open = (
    await row({ messageType: 2, action: 'StatusNotification', messageId: 'm3', payload: { status: 'Available' }, createdAt: at(3000) })
  ).id;
  ids.stray = (await row({ messageType: 3, action: null, messageId: 'zz', payload: {}, createdAt: at(3500) })).id;
  // Refused attempts: one for A's point, one of an unknown identity (no provider).
  ids.refused = (await row({ direction: 'refused', messageType: null, payload: { reason: 'badKey' }, createdAt: at(4000) })).id;
  ids.unknown = (
    await insertOcppLog(db, {
      providerId: null,
      chargePointId: null,
      serialNumber: 'UNKNOWN-1',
      direction: 'refused',
      payload: { reason: 'unknown' },
      createdAt: at(5000),
    })
  ).id;
});
afterAll(() => s.close());

const list = async (qs: string, token = a.token) => {
  const r = await s.call<{ list: OcppLogDto[]; total: number }>('GET', `${api.ocppLog.list.path}?limit=50&${qs}`, { token });
  expect(r.code, r.msg).toBe(200);
  return r.data;
};

describe('OCPP log', () => {
  it('pairs requests with responses, newest first; refused and unpaired frames are rows of their own', async () => {
    const data = await list(`serialNumber=${point.serialNumber}`);
    expect(data.list.map((r) => r.id)).toEqual([ids.refused, ids.stray, ids.open, ids.reset, ids.hb, ids.boot]);
    expect(data.total).toBe(6);
    const byId = new Map(data.list.map((r) => [r.id, r]));
    expect(byId.get(ids.boot)).toMatchObject({
      direction: 'in',
      action: 'BootNotification',
      responseType: 3,
      latencyMs: 40,
      errorCode: null,
    });
    expect(byId.get(ids.boot)!.responseTime).toBe(at(40).toISOString());
    expect(byId.get(ids.hb)).toMatchObject({ responseType: 4, errorCode: 'InternalError', latencyMs: 10 });
    expect(byId.get(ids.hb)!.responseTime).toBe(at(1010).toISOString());
    expect(byId.get(ids.reset)).toMatchObject({ direction: 'out', action: 'Reset', responseType: 3, latencyMs: 250 });
    expect(byId.get(ids.open)).toMatchObject({ responseType: null, latencyMs: null });
    expect(byId.get(ids.refused)).toMatchObject({ direction: 'refused', messageType: null });
  });

  it('searches by action, direction, message id and time', async () => {
    expect((await list('action=heart')).list.map((r) => r.id)).toEqual([ids.hb]);
    expect((await list('direction=out')).list.map((r) => r.id)).toEqual([ids.reset]);
    expect((await list('messageId=m1')).list.map((r) => r.id)).toEqual([ids.boot]);
    const window = await list(`startTime=${at(900).toISOString()}&endTime=${at(2100).toISOString()}`);
    expect(window.list.map((r) => r.id)).toEqual([ids.reset, ids.hb]);
  });

  it('shows both payloads in the detail', async () => {
    const r = await s.call<{ payload: unknown; responsePayload: unknown }>('GET', `${api.ocppLog.get.path}?id=${ids.boot}`, {
      token: a.token,
    });
    expect(r.data).toMatchObject({ payload: { chargePointVendor: 'Acme' }, responsePayload: { status: 'Accepted' } });
    const hb = await s.call<{ payload: unknown; responsePayload: unknown }>('GET', `${api.ocppLog.get.path}?id=${ids.hb}`, {
      token: a.token,
    });
    expect(hb.data).toMatchObject({ payload: {}, responsePayload: { errorCode: 'InternalError', errorDescription: 'boom' } });
  });

  it('keeps rows of unknown identities for the super provider, and other providers’ rows from everyone else', async () => {
    expect((await list('direction=refused', admin)).list.map((r) => r.id)).toEqual([ids.unknown, ids.refused]);
    expect((await list('direction=refused')).list.map((r) => r.id)).toEqual([ids.refused]);
    expect((await list('', b.token)).total).toBe(0);
    expect((await s.call('GET', `${api.ocppLog.get.path}?id=${ids.boot}`, { token: b.token })).code).toBe(404);
    const elsewhere = await insertStation(db, a.providerId);
    const bound = await createUser(db, { providerId: a.providerId, roleId: a.roleId, stationIds: [elsewhere.id] });
    expect((await list('', await s.login(bound.username, bound.password))).total).toBe(0);
  });

  it('finds a serial number by any part of it, identities that are no charge point included, through the identities the log holds', async () => {
    // The trigger noted every identity written, the refused unknown one too.
    const known = (await db.execute(sql`select serial_number from ocpp_log_identity order by 1`)) as unknown as {
      rows: { serial_number: string }[];
    };
    expect(known.rows.map((r) => r.serial_number)).toEqual(expect.arrayContaining([point.serialNumber, 'UNKNOWN-1']));
    const part = point.serialNumber.slice(2, -1).toLowerCase();
    expect((await list(`serialNumber=${encodeURIComponent(part)}`)).total).toBe(6);
    expect((await list('serialNumber=known-', admin)).list.map((r) => r.id)).toEqual([ids.unknown]);
    expect((await list('serialNumber=known-')).total).toBe(0);
    expect((await list('serialNumber=no-such-identity', admin)).total).toBe(0);
  });

  it('exports the exchanges with their payloads', async () => {
    const res = await fetch(`${s.url}/prod-api${api.ocppLog.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', serialNumber: point.serialNumber }),
    });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]).toContain('Serial number');
    const boot = lines.find((l) => l.includes('BootNotification'))!;
    expect(boot).toContain('In (charger → CSMS)');
    expect(boot).toContain('CALLRESULT');
    expect(boot).toContain('""chargePointVendor"":""Acme""');
  });
});
