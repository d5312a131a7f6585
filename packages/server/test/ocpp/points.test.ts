import { MAX_CONNECTORS } from '@csms/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { alarm, chargePoint, connector } from '../../src/db/schema.js';
import type { ConsoleEvent } from '../../src/lib/events.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, iso, TestCharger } from './support.js';

let s: TestServer;
let db: Db;
const events: ConsoleEvent[] = [];
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  s.app.events.subscribe({ userId: 0, canSee: () => true, send: (e) => events.push(e) });
});
afterAll(() => s.close());

async function connect(opts: Parameters<typeof createPoint>[1] = {}) {
  const p = await createPoint(db, opts);
  const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
  return { ...p, c };
}

describe('point messages', () => {
  it('stores boot data, heartbeats, diagnostics and firmware statuses', async () => {
    const { c, point } = await connect();
    const boot = await c.ok<{ status: string; interval: number; currentTime: string }>('BootNotification', {
      chargePointVendor: 'Acme',
      chargePointModel: 'Fast-1',
      chargePointSerialNumber: 'SN-1',
      firmwareVersion: '2.3.4',
      iccid: '89860000',
      imsi: '46000',
      meterType: 'DC-M',
      meterSerialNumber: 'M-9',
    });
    expect(boot).toMatchObject({ status: 'Accepted', interval: 300 });
    await c.ok('Heartbeat', {});
    await c.ok('DiagnosticsStatusNotification', { status: 'Uploading' });
    await c.ok('FirmwareStatusNotification', { status: 'Downloaded' });
    await s.app.ocpp.flush();
    const [row] = await db.select().from(chargePoint).where(eq(chargePoint.id, point.id));
    expect(row).toMatchObject({
      vendor: 'Acme',
      model: 'Fast-1',
      chargeBoxSerial: 'SN-1',
      firmwareVersion: '2.3.4',
      iccid: '89860000',
      imsi: '46000',
      meterType: 'DC-M',
      meterSerial: 'M-9',
      diagnosticsStatus: 'Uploading',
      firmwareStatus: 'Downloaded',
    });
    expect(row!.lastBootAt).toBeTruthy();
    expect(row!.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(row!.lastBootAt!.getTime());
    await c.close();
  });

  it('keeps connector statuses, raises one alarm per fault and clears it on NoError', async () => {
    const { c, point } = await connect();
    await c.ok('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Available' });
    await c.ok('StatusNotification', {
      connectorId: 1,
      errorCode: 'GroundFailure',
      status: 'Faulted',
      info: 'rcd',
      vendorErrorCode: 'E42',
      timestamp: iso(),
    });
    await c.ok('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted' });
    await c.ok('StatusNotification', { connectorId: 2, errorCode: 'HighTemperature', status: 'Charging' });
    const open = await db
      .select()
      .from(alarm)
      .where(and(eq(alarm.chargePointId, point.id), isNull(alarm.clearedAt)))
      .orderBy(asc(alarm.connectorNo));
    expect(open.map((a) => [a.connectorNo, a.level, a.errorCode, a.status])).toEqual([
      [1, 'serious', 'GroundFailure', 'Faulted'],
      [2, 'common', 'HighTemperature', 'Charging'],
    ]);
    expect(open[0]).toMatchObject({ info: 'rcd', vendorErrorCode: 'E42', stationId: point.stationId, providerId: 1 });
    expect(events.filter((e) => e.type === 'point.fault' && e.payload.chargePointId === point.id)).toHaveLength(2);

    await c.ok('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    const [cleared] = await db.select().from(alarm).where(eq(alarm.id, open[0]!.id));
    expect(cleared!.clearedAt).toBeTruthy();
    const [still] = await db.select().from(alarm).where(eq(alarm.id, open[1]!.id));
    expect(still!.clearedAt).toBeNull();

    const conns = await db.select().from(connector).where(eq(connector.chargePointId, point.id)).orderBy(asc(connector.connectorNo));
    expect(conns.map((x) => [x.connectorNo, x.status, x.errorCode])).toEqual([
      [1, 'Available', 'NoError'],
      [2, 'Charging', 'HighTemperature'],
    ]);
    const [p] = await db.select().from(chargePoint).where(eq(chargePoint.id, point.id));
    expect(p).toMatchObject({ status: 'Available', errorCode: 'NoError' });
    expect(events.filter((e) => e.type === 'point.status' && e.payload.chargePointId === point.id)).toHaveLength(5);
    // A connector beyond the console's limit is refused, not learnt: a charger cannot make rows up by the million.
    const beyond = await c.call('StatusNotification', { connectorId: MAX_CONNECTORS + 1, errorCode: 'NoError', status: 'Available' });
    expect(beyond.slice(2, 4)).toEqual(['PropertyConstraintViolation', `connectorId must be at most ${MAX_CONNECTORS}`]);
    expect(await db.select().from(connector).where(eq(connector.chargePointId, point.id))).toHaveLength(2);
    await c.close();
  });

  it('answers DataTransfer from registered vendors and UnknownVendorId otherwise', async () => {
    const { c, point } = await connect();
    const seen: unknown[] = [];
    const off = s.app.ocpp.vendors.register('com.example.test', (req) => {
      seen.push(req);
      return { status: 'Accepted', data: `echo:${req.data}` };
    });
    expect(await c.ok('DataTransfer', { vendorId: 'com.example.test', messageId: 'ping', data: 'x' })).toEqual({
      status: 'Accepted',
      data: 'echo:x',
    });
    expect(seen).toEqual([{ serialNumber: point.serialNumber, chargePointId: point.id, providerId: 1, messageId: 'ping', data: 'x' }]);
    off();
    expect(await c.ok('DataTransfer', { vendorId: 'com.example.test' })).toEqual({ status: 'UnknownVendorId' });
    await c.close();
  });
});
