import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChargePoint, type ChargePoint } from './charge-point.js';
import { createManualClock, type ManualClock } from './clock.js';
import { startFakeCsms, type FakeCsms } from './testing/fake-csms.js';
import { CallTimeoutError } from './ocpp.js';
import { reading, settle, tick as tickBy, values } from './testing/helpers.js';
import type { ChargePointOptions } from './types.js';

let csms: FakeCsms;
let clock: ManualClock;
const points: ChargePoint[] = [];

function point(serialNumber: string, extra: Partial<ChargePointOptions> = {}) {
  const cp = createChargePoint({ url: csms.url, serialNumber, clock, connectors: 2, random: () => 0.5, ...extra });
  points.push(cp);
  return cp;
}

const tick = (cp: ChargePoint, ms: number) => tickBy(clock, cp, ms);

beforeEach(async () => {
  csms = await startFakeCsms();
  clock = createManualClock();
});
afterEach(async () => {
  await Promise.all(points.splice(0).map((p) => p.stop()));
  await csms.close();
  expect(csms.invalid).toEqual([]);
});

describe('boot, heartbeat and status', () => {
  it('connects with ocpp1.6 and HTTP Basic auth, boots, reports every connector and heartbeats at the server interval', async () => {
    const cp = point('CP-BOOT', { key: 'secret-key-0123456789' });
    cp.start();
    await cp.ready();
    const expected = `Basic ${Buffer.from('CP-BOOT:secret-key-0123456789').toString('base64')}`;
    expect(csms.authHeaders.get('CP-BOOT')).toBe(expected);
    const boot = await csms.waitFor('CP-BOOT', 'BootNotification');
    expect(boot.payload).toMatchObject({ chargePointSerialNumber: 'CP-BOOT', chargePointVendor: 'CSMS Simulator' });
    await csms.waitFor('CP-BOOT', 'StatusNotification', (p) => p.connectorId === 2);
    expect(csms.of('CP-BOOT', 'StatusNotification').map((r) => [r.payload.connectorId, r.payload.status])).toEqual([
      [0, 'Available'],
      [1, 'Available'],
      [2, 'Available'],
    ]);
    expect(cp.state().heartbeatIntervalS).toBe(300);

    clock.advance(299_000);
    expect(csms.of('CP-BOOT', 'Heartbeat')).toHaveLength(0);
    clock.advance(1000);
    await csms.waitFor('CP-BOOT', 'Heartbeat');
    clock.advance(300_000);
    await csms.waitFor('CP-BOOT', 'Heartbeat', undefined, csms.received.indexOf(csms.of('CP-BOOT', 'Heartbeat')[0]!) + 1);
    expect(csms.of('CP-BOOT', 'Heartbeat')).toHaveLength(2);
  });

  it('sends no Authorization header without a key', async () => {
    const cp = point('CP-NOKEY');
    cp.start();
    await cp.ready();
    expect(csms.authHeaders.get('CP-NOKEY')).toBeUndefined();
  });

  it('takes a new AuthorizationKey from the CSMS, never reads it back, and reconnects with it at once', async () => {
    const cp = point('CP-KEY', { key: 'secret-key-0123456789' });
    cp.start();
    await cp.ready();
    const change = (value: string) => csms.call('CP-KEY', 'ChangeConfiguration', { key: 'AuthorizationKey', value });
    expect(await change('too-short')).toEqual({ result: { status: 'Rejected' } });
    expect((await csms.call('CP-KEY', 'GetConfiguration', { key: ['AuthorizationKey'] })).result).toEqual({
      configurationKey: [{ key: 'AuthorizationKey', readonly: false }],
    });
    const next = 'a-new-key-of-24-chars-00';
    const offline = cp.next('connection', (c) => c.state === 'offline');
    const booted = csms.received.length;
    expect(await change(next)).toEqual({ result: { status: 'Accepted' } });
    await offline;
    clock.advance(1000);
    await csms.waitFor('CP-KEY', 'BootNotification', undefined, booted);
    expect(csms.authHeaders.get('CP-KEY')).toBe(`Basic ${Buffer.from(`CP-KEY:${next}`).toString('base64')}`);
  });

  it('retries a Pending boot after the interval the CSMS named, and only then reports status', async () => {
    await csms.close();
    csms = await startFakeCsms({ boot: (_s, n) => (n === 1 ? { status: 'Pending', interval: 20 } : { status: 'Accepted', interval: 60 }) });
    const cp = point('CP-PEND');
    const registrations: string[] = [];
    cp.on('registration', (r) => registrations.push(r.status));
    cp.start();
    await cp.next('registration');
    expect(cp.state().registration).toBe('Pending');
    expect(csms.of('CP-PEND', 'StatusNotification')).toHaveLength(0);
    clock.advance(20_000);
    await cp.ready();
    expect(registrations).toEqual(['Pending', 'Accepted']);
    expect(cp.state().heartbeatIntervalS).toBe(60);
    await csms.waitFor('CP-PEND', 'StatusNotification', (p) => p.connectorId === 2);
  });

  it('answers no CSMS call while Rejected, and retries the boot after the interval', async () => {
    await csms.close();
    csms = await startFakeCsms({
      boot: (_s, n) => (n === 1 ? { status: 'Rejected', interval: 30 } : { status: 'Accepted', interval: 300 }),
    });
    const cp = point('CP-REJ');
    cp.start();
    await cp.next('registration');
    const replies: string[] = [];
    cp.on('traffic', (t) => (t.type === 'replySent' || t.type === 'errorSent' ? replies.push(t.action) : undefined));
    void csms.call('CP-REJ', 'GetLocalListVersion', {});
    await csms.waitFor('CP-REJ', 'BootNotification');
    await settle(cp);
    expect(replies).toEqual([]);
    expect(csms.received.map((r) => r.action)).toEqual(['BootNotification']);
    clock.advance(30_000);
    await cp.ready();
    expect(await csms.call('CP-REJ', 'GetLocalListVersion', {})).toEqual({ result: { listVersion: 0 } });
  });

  it('times out a call the CSMS never answers, then carries on with the next', async () => {
    await csms.close();
    csms = await startFakeCsms({ answers: { DataTransfer: (p) => (p.messageId === 'hang' ? null : { status: 'Accepted' }) } });
    const cp = point('CP-HANG', { callTimeoutMs: 5000 });
    cp.start();
    await cp.ready();
    await settle(cp);
    const hung = cp.send('DataTransfer', { vendorId: 'X', messageId: 'hang' });
    const next = cp.send('DataTransfer', { vendorId: 'X', messageId: 'next' });
    await csms.waitFor('CP-HANG', 'DataTransfer');
    expect(csms.of('CP-HANG', 'DataTransfer')).toHaveLength(1); // one call in flight at a time
    clock.advance(5000);
    await expect(hung).rejects.toThrow(CallTimeoutError);
    expect(await next).toEqual({ status: 'Accepted' });
  });

  it('rejects a call answered with CALLERROR', async () => {
    await csms.close();
    csms = await startFakeCsms({
      answers: {
        DataTransfer: () => {
          throw Object.assign(new Error('no'), { code: 'NotSupported' });
        },
      },
    });
    const cp = point('CP-ERR');
    cp.start();
    await cp.ready();
    await expect(cp.send('DataTransfer', { vendorId: 'X' })).rejects.toMatchObject({ name: 'OcppError', code: 'NotSupported' });
  });

  it('reports each status change: plug in, fault, clear, unplug', async () => {
    const cp = point('CP-STAT');
    cp.start();
    await cp.ready();
    await csms.waitFor('CP-STAT', 'StatusNotification', (p) => p.connectorId === 2);
    cp.plugIn(1);
    await csms.waitFor('CP-STAT', 'StatusNotification', (p) => p.status === 'Preparing');
    cp.fault(2, 'GroundFailure', 'RCD tripped');
    const faulted = await csms.waitFor('CP-STAT', 'StatusNotification', (p) => p.status === 'Faulted');
    expect(faulted.payload).toMatchObject({ connectorId: 2, errorCode: 'GroundFailure' });
    cp.clearFault(2);
    await csms.waitFor(
      'CP-STAT',
      'StatusNotification',
      (p) => p.connectorId === 2 && p.status === 'Available' && p.errorCode === 'NoError',
      4,
    );
    await cp.unplug(1);
    await csms.waitFor('CP-STAT', 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Available', 4);
    expect(cp.state().connectors.map((c) => c.status)).toEqual(['Available', 'Available', 'Available']);
  });
});

describe('a charging session', () => {
  it('authorizes, starts, samples periodic and clock-aligned meter values with a growing register, stops and unplugs', async () => {
    const cp = point('CP-TX', {
      connectors: [{ maxPowerW: 11_000, phases: 3 }],
      meterValueSampleInterval: 60,
      clockAlignedDataInterval: 300,
    });
    cp.start();
    await cp.ready();
    expect(await cp.swipe('TAG-1')).toEqual({ status: 'Accepted' });
    cp.plugIn(1);
    const started = await cp.startCharging(1, 'TAG-1');
    expect(started).toMatchObject({ accepted: true, connectorId: 1, transactionId: 101 });
    expect(csms.of('CP-TX', 'Authorize')).toHaveLength(2);
    const start = await csms.waitFor('CP-TX', 'StartTransaction');
    expect(start.payload).toMatchObject({ connectorId: 1, idTag: 'TAG-1', meterStart: 0, timestamp: '2026-01-01T00:00:00.000Z' });
    await csms.waitFor('CP-TX', 'StatusNotification', (p) => p.status === 'Charging');

    await tick(cp, 600_000);
    const samples = csms.of('CP-TX', 'MeterValues');
    const periodic = samples.filter((s) => values(s.payload)[0]!.context === 'Sample.Periodic');
    const aligned = samples.filter((s) => values(s.payload)[0]!.context === 'Sample.Clock');
    expect(periodic).toHaveLength(10);
    expect(aligned.map((s) => values(s.payload)[0]!.timestamp)).toEqual(['2026-01-01T00:05:00.000Z', '2026-01-01T00:10:00.000Z']);
    for (const s of samples) expect(s.payload.transactionId).toBe(101);

    const first = periodic[0]!.payload;
    expect(values(first).map((v) => v.measurand)).toEqual([
      'Energy.Active.Import.Register',
      'Power.Active.Import',
      'Current.Import',
      'Current.Offered',
      'Voltage',
      'SoC',
      'Temperature',
    ]);
    expect(reading(first, 'Power.Active.Import')).toBe(11_000);
    expect(reading(first, 'Energy.Active.Import.Register')).toBe(183); // 11 kW for one minute
    expect(reading(first, 'Current.Offered')).toBeCloseTo(11_000 / (3 * 230), 0);
    const energy = periodic.map((s) => reading(s.payload, 'Energy.Active.Import.Register'));
    const socs = periodic.map((s) => reading(s.payload, 'SoC'));
    for (let i = 1; i < energy.length; i++) {
      expect(energy[i]!).toBeGreaterThan(energy[i - 1]!);
      expect(socs[i]!).toBeGreaterThanOrEqual(socs[i - 1]!);
    }
    expect(socs.at(-1)!).toBeGreaterThan(socs[0]!);
    expect(energy.at(-1)).toBe(1833); // 11 kW for ten minutes
    expect(values(aligned[0]!.payload).map((v) => v.measurand)).toEqual(['Energy.Active.Import.Register', 'Power.Active.Import']);

    clock.advance(30_000);
    const stopped = await cp.stopCharging(1);
    expect(stopped).toMatchObject({ transactionId: 101, meterStopWh: 1925, reason: 'Local' });
    const stop = await csms.waitFor('CP-TX', 'StopTransaction');
    expect(stop.payload).toMatchObject({ transactionId: 101, meterStop: 1925, reason: 'Local', idTag: 'TAG-1' });
    expect((stop.payload.transactionData as unknown[]).length).toBe(2);
    await csms.waitFor('CP-TX', 'StatusNotification', (p) => p.status === 'Finishing');
    await cp.unplug(1);
    await csms.waitFor('CP-TX', 'StatusNotification', (p) => p.status === 'Available', csms.received.indexOf(stop));

    await tick(cp, 600_000);
    expect(csms.of('CP-TX', 'MeterValues')).toHaveLength(samples.length);
  });

  it('does not start for a rejected idTag', async () => {
    await csms.close();
    csms = await startFakeCsms({ authorize: (tag) => (tag === 'BAD' ? 'Blocked' : 'Accepted') });
    const cp = point('CP-BAD');
    cp.start();
    await cp.ready();
    const result = await cp.startCharging(1, 'BAD');
    expect(result).toMatchObject({ accepted: false, idTagInfo: { status: 'Blocked' } });
    expect(csms.of('CP-BAD', 'StartTransaction')).toHaveLength(0);
    expect(cp.state().connectors[1]!.status).toBe('Preparing');
  });

  it('suspends when the battery is full', async () => {
    const cp = point('CP-FULL', { connectors: [{ maxPowerW: 50_000, current: 'DC', batteryWh: 10_000 }], clockAlignedDataInterval: 0 });
    cp.start();
    await cp.ready();
    await cp.startCharging(1, 'TAG-1');
    await tick(cp, 3_600_000);
    expect(cp.state().connectors[1]!.status).toBe('SuspendedEV');
    await csms.waitFor('CP-FULL', 'StatusNotification', (p) => p.status === 'SuspendedEV');
    const last = csms.of('CP-FULL', 'MeterValues').at(-1)!;
    expect(reading(last.payload, 'SoC')).toBe(100);
    expect(reading(last.payload, 'Power.Active.Import')).toBe(0);
  });
});
