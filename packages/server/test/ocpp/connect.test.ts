import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { MAX_WAITING_CALLS } from '../../src/ocpp/session.js';
import { chargePoint, connector, ocppLog, station, systemLog } from '../../src/db/schema.js';
import type { ConsoleEvent } from '../../src/lib/events.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, TestCharger } from './support.js';

const ocppDefaults = loadConfig({}).ocpp;

async function refusals(s: TestServer, serialNumber: string) {
  await s.app.ocpp.flush();
  return s.database.db
    .select()
    .from(ocppLog)
    .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.direction, 'refused')));
}

async function refusedWith(s: TestServer, serialNumber: string, opts: Parameters<typeof TestCharger.connect>[2]) {
  const err = await TestCharger.connect(s.url, serialNumber, opts).then(
    (c) => {
      c.ws.terminate();
      return null;
    },
    (e: { status?: number }) => e,
  );
  return err?.status;
}

describe('OCPP connections (security profile 1)', () => {
  let s: TestServer;
  const seen: ConsoleEvent[] = [];
  beforeAll(async () => {
    s = await startServer();
    s.app.events.subscribe({ userId: 0, canSee: () => true, send: (e) => seen.push(e) });
  });
  afterAll(() => s.close());

  it('accepts the point with its key and marks it online, then offline when the socket closes', async () => {
    const { serialNumber, key, point } = await createPoint(s.database.db);
    const c = await TestCharger.connect(s.url, serialNumber, { key });
    expect(c.ws.protocol).toBe('ocpp1.6');
    const online = await eventually(async () => {
      const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, point.id));
      return row?.online ? row : null;
    });
    expect(online.connectedAt).toBeTruthy();
    // The event follows the write's answer, which can come a moment after the row is visible.
    const up = await eventually(
      async () =>
        seen.find((e) => e.type === 'point.online' && e.payload.serialNumber === serialNumber && e.payload.online === true) ?? null,
    );
    expect(up.stationId).toBe(point.stationId);
    await c.close();
    await eventually(async () => {
      const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, point.id));
      return row && !row.online;
    });
    await eventually(
      async () =>
        seen.find((e) => e.type === 'point.online' && e.payload.serialNumber === serialNumber && e.payload.online === false) ?? null,
    );
  });

  it('refuses unknown identities, bad keys, missing credentials, keyless points, disabled points, other paths and no subprotocol, logging each reason', async () => {
    const { serialNumber, key } = await createPoint(s.database.db);
    const keyless = await createPoint(s.database.db, { key: false });
    const disabled = await createPoint(s.database.db, { enabled: false });

    expect(await refusedWith(s, 'NO-SUCH-POINT', { key: 'whatever' })).toBe(404);
    expect(await refusedWith(s, serialNumber, { key: 'wrong-key' })).toBe(401);
    expect(await refusedWith(s, serialNumber, {})).toBe(401);
    expect(await refusedWith(s, serialNumber, { key, user: 'someone-else' })).toBe(401);
    expect(await refusedWith(s, serialNumber, { key, protocols: ['ocpp2.1'] })).toBe(400);
    expect(await refusedWith(s, serialNumber, { key, protocols: [] })).toBe(400);
    expect(await refusedWith(s, keyless.serialNumber, { key: 'anything' })).toBe(401);
    expect(await refusedWith(s, disabled.serialNumber, { key: disabled.key })).toBe(404);
    expect(await refusedWith(s, serialNumber, { key, path: `/ocpp/${serialNumber}/extra` })).toBe(400);

    // One summary row per identity (and counting window), with the count of each reason (attempts.test.ts).
    expect((await refusals(s, 'NO-SUCH-POINT')).map((r) => r.payload)).toMatchObject([
      { reason: 'unknownIdentity', count: 1, reasons: { unknownIdentity: 1 }, addresses: ['127.0.0.1'] },
    ]);
    const summary = await refusals(s, serialNumber);
    expect(summary).toHaveLength(1);
    expect(summary[0]!.payload).toMatchObject({
      reason: 'badKey',
      httpStatus: 401,
      count: 5,
      reasons: { badKey: 1, noCredentials: 1, subprotocol: 2, usernameMismatch: 1 },
    });
    const [k] = await refusals(s, keyless.serialNumber);
    expect(k).toMatchObject({ payload: { reason: 'noKey', httpStatus: 401, count: 1 }, chargePointId: keyless.point.id, providerId: 1 });
    expect((await refusals(s, disabled.serialNumber)).map((r) => (r.payload as { reason: string }).reason)).toEqual(['disabled']);
    expect(await refusals(s, `${serialNumber}/extra`)).toHaveLength(1);

    // Nothing was registered and the endpoint still works.
    expect(await s.database.db.select().from(chargePoint).where(eq(chargePoint.serialNumber, 'NO-SUCH-POINT'))).toHaveLength(0);
    const c = await TestCharger.connect(s.url, serialNumber, { key });
    await c.close();
  });

  it(`answers at once, past ${MAX_WAITING_CALLS} waiting, the CALLs of a charger that does not wait for its answers`, async () => {
    const { serialNumber, key } = await createPoint(s.database.db);
    const c = await TestCharger.connect(s.url, serialNumber, { key });
    const boot = await c.call('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' });
    expect(boot[0]).toBe(3);
    // Sent in one go: the server reads them faster than it answers them.
    const answers = await Promise.all(Array.from({ length: 200 }, () => c.call('Heartbeat', {})));
    const refused = answers.filter((m) => m[0] === 4);
    expect(answers.length - refused.length).toBeGreaterThanOrEqual(MAX_WAITING_CALLS);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.slice(2, 4)).toEqual([
      'GenericError',
      `more than ${MAX_WAITING_CALLS} calls wait for an answer: send one at a time`,
    ]);
    // Waiting for each answer, as OCPP-J asks, it is served as ever.
    expect((await c.call('Heartbeat', {}))[0]).toBe(3);
    await c.close();
  });

  it('lets a second connection of the same identity replace the first', async () => {
    const { serialNumber, key, point } = await createPoint(s.database.db);
    const first = await TestCharger.connect(s.url, serialNumber, { key });
    const second = await TestCharger.connect(s.url, serialNumber, { key });
    expect(await first.closed).toBe(1000);
    const boot = await second.ok('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' });
    expect(boot.status).toBe('Accepted');
    expect(s.app.ocpp.connections).toBeGreaterThan(0);
    const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, point.id));
    expect(row!.online).toBe(true);
    // The bus reaches the new socket.
    second.onCall = () => ({ status: 'Accepted' });
    expect(await s.app.bus.request(serialNumber, { action: 'ClearCache', payload: {} })).toEqual({
      kind: 'result',
      payload: { status: 'Accepted' },
    });
    await second.close();
  });

  it('disconnects a point that an operator disables', async () => {
    const { serialNumber, key, point } = await createPoint(s.database.db);
    const c = await TestCharger.connect(s.url, serialNumber, { key });
    await s.database.db.update(chargePoint).set({ enabled: false }).where(eq(chargePoint.id, point.id));
    await s.app.ocpp.invalidate([serialNumber]);
    expect(await c.closed).toBe(1008);
  });
});

describe('OCPP connections without credentials (CSMS_OCPP_ALLOW_NO_AUTH)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ ocpp: { ...ocppDefaults, allowNoAuth: true } });
  });
  afterAll(() => s.close());

  it('accepts a keyless point without credentials but still checks a point that has a key', async () => {
    const keyless = await createPoint(s.database.db, { key: false });
    const c = await TestCharger.connect(s.url, keyless.serialNumber);
    await c.close();
    const keyed = await createPoint(s.database.db);
    expect(await refusedWith(s, keyed.serialNumber, {})).toBe(401);
    expect(await refusedWith(s, 'UNKNOWN-1', {})).toBe(404);
  });
});

describe('auto-registration, security profile 2 and offline detection', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    s = await startServer({
      ocpp: {
        ...ocppDefaults,
        autoRegister: true,
        heartbeatIntervalSec: 1,
        tlsCert: path.join(dir, 'cert.pem'),
        tlsKey: path.join(dir, 'key.pem'),
        tlsPort: 0,
      },
    });
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('registers an unknown identity in the Unassigned station, Pending until placed, then learns its connectors and keeps its password', async () => {
    const serialNumber = 'AUTO-001';
    const c = await TestCharger.connect(s.url, serialNumber, { key: 'first-password-1234' });
    const pending = await c.ok('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'X1' });
    expect(pending).toMatchObject({ status: 'Pending', interval: 1 });
    // Pending: nothing but its boot (and what we ask for) is taken (OCPP 1.6 §4.2.1).
    const refused = await c.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    expect(refused.slice(0, 3)).toEqual([4, expect.any(String), 'SecurityError']);
    const [p] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.serialNumber, serialNumber));
    // What it said at boot is kept, so that the operator can tell which charger it is.
    expect(p).toMatchObject({ providerId: 1, needsPlacement: true, vendor: 'Acme', model: 'X1' });
    const [st] = await s.database.db.select().from(station).where(eq(station.id, p!.stationId));
    expect(st).toMatchObject({ name: 'Unassigned', isUnassigned: true, providerId: 1 });

    // Placed into a station of its own: asked to boot again, and accepted.
    const home = await createPoint(s.database.db);
    const admin = await s.login();
    const triggered = new Promise<Record<string, unknown>>((resolve) => {
      c.onCall = (action, payload) => {
        if (action === 'TriggerMessage') resolve(payload);
        return { status: 'Accepted' };
      };
    });
    expect(await s.call('POST', '/web/point/move', { token: admin, body: { id: p!.id, stationId: home.stationId } })).toMatchObject({
      code: 200,
    });
    expect(await triggered).toEqual({ requestedMessage: 'BootNotification' });
    expect(await c.ok('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'X1' })).toMatchObject({
      status: 'Accepted',
      interval: 1,
    });
    await c.ok('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: iso() });
    await c.ok('StatusNotification', { connectorId: 2, errorCode: 'NoError', status: 'Preparing' });
    await c.close();
    expect((await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, p!.id)))[0]).toMatchObject({
      needsPlacement: false,
      stationId: home.stationId,
    });
    const conns = await s.database.db.select().from(connector).where(eq(connector.chargePointId, p!.id));
    expect(conns.map((x) => [x.connectorNo, x.status]).sort()).toEqual([
      [1, 'Available'],
      [2, 'Preparing'],
    ]);
    const audit = await s.database.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.operand, `point:${serialNumber}`), eq(systemLog.mode, 'ocpp')));
    expect(audit).toMatchObject([{ mode: 'ocpp', operation: 'autoRegister' }]);

    // The same password opens it again; another does not; a second unknown joins the same station.
    const again = await TestCharger.connect(s.url, serialNumber, { key: 'first-password-1234' });
    await again.close();
    expect(await refusedWith(s, serialNumber, { key: 'another-password' })).toBe(401);
    const other = await TestCharger.connect(s.url, 'AUTO-002', { key: 'second-password-99' });
    await other.close();
    const [p2] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.serialNumber, 'AUTO-002'));
    expect(p2!.stationId).toBe(p!.stationId);
    // Without credentials (profile 0 not allowed) an unknown identity is still refused.
    expect(await refusedWith(s, 'AUTO-003', {})).toBe(401);
  });

  it('OCTT TC_A_19_CSMS Upgrade Charging Station Security Profile: a 2.0.1 station on profile 1 gets a profile-2 network profile for our TLS port, first in its order, and a reset; it comes back over wss:// and is accepted', async () => {
    const { serialNumber, key } = await createPoint(s.database.db, { connectors: 1 });
    const c = await TestCharger.connect(s.url, serialNumber, { key, protocols: ['ocpp2.0.1'] });
    await c.ok('BootNotification', { reason: 'PowerUp', chargingStation: { model: 'OCTT', vendorName: 'OCA' } });
    const asked: [string, Record<string, unknown>][] = [];
    const each = (list: unknown, extra: Record<string, unknown>) =>
      (list as { component: unknown; variable: unknown }[]).map((d) => ({
        attributeStatus: 'Accepted',
        component: d.component,
        variable: d.variable,
        ...extra,
      }));
    c.onCall = (action, payload) => {
      asked.push([action, payload]);
      if (action === 'GetVariables') return { getVariableResult: each(payload.getVariableData, { attributeValue: '1' }) };
      if (action === 'SetVariables') return { setVariableResult: each(payload.setVariableData, {}) };
      return { status: 'Accepted' };
    };
    const url = `wss://localhost:${s.app.ocpp.tlsPort}/ocpp`;
    const r = await s.call<{ status: string; activated: boolean }>('POST', '/web/point/setNetworkProfile', {
      token: await s.login(),
      body: {
        serialNumber,
        configurationSlot: 2,
        ocppCsmsUrl: url,
        securityProfile: 2,
        ocppInterface: 'Wired0',
        messageTimeout: 30,
        activate: true,
      },
    });
    expect(r.data).toMatchObject({ status: 'accepted', activated: true });
    expect(asked.map(([a]) => a)).toEqual(['SetNetworkProfile', 'GetVariables', 'SetVariables', 'Reset']);
    expect(asked[0]![1]).toMatchObject({ configurationSlot: 2, connectionData: { ocppCsmsUrl: url, securityProfile: 2 } });
    expect(asked[2]![1]).toMatchObject({ setVariableData: [{ attributeValue: '2,1' }] });
    await c.close();
    // It restarts and connects with the new profile: TLS, the same key.
    const ca = fs.readFileSync(path.join(dir, 'cert.pem'));
    const upgraded = await TestCharger.connect(`https://localhost:${s.app.ocpp.tlsPort}`, serialNumber, {
      key,
      protocols: ['ocpp2.0.1'],
      options: { ca },
    });
    expect(
      await upgraded.ok('BootNotification', { reason: 'RemoteReset', chargingStation: { model: 'OCTT', vendorName: 'OCA' } }),
    ).toMatchObject({
      status: 'Accepted',
    });
    await upgraded.close();
  });

  it('accepts wss:// with Basic auth on the TLS port', async () => {
    const { serialNumber, key } = await createPoint(s.database.db);
    const base = `https://localhost:${s.app.ocpp.tlsPort}`;
    const ca = fs.readFileSync(path.join(dir, 'cert.pem'));
    const c = await TestCharger.connect(base, serialNumber, { key, options: { ca } });
    const hb = await c.ok<{ currentTime: string }>('Heartbeat', {});
    expect(Date.parse(hb.currentTime)).not.toBeNaN();
    await c.close();
    const bad = await TestCharger.connect(base, serialNumber, { key: 'nope', options: { ca } }).catch((e: { status: number }) => e.status);
    expect(bad).toBe(401);
  });

  it('drops a charger that stops answering pings and marks it offline', async () => {
    const { serialNumber, key, point } = await createPoint(s.database.db);
    const c = await TestCharger.connect(s.url, serialNumber, { key, options: { autoPong: false } });
    expect(await c.closed).toBe(1006);
    await eventually(async () => {
      const [row] = await s.database.db.select().from(chargePoint).where(eq(chargePoint.id, point.id));
      return row && !row.online;
    });
  });
});
