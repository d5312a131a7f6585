import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChargePoint, type ChargePoint } from './charge-point.js';
import { createManualClock, type ManualClock } from './clock.js';
import { startFakeCsms, type FakeCsms } from './testing/fake-csms.js';
import { settle, values } from './testing/helpers.js';
import type { ChargePointOptions } from './types.js';

let csms: FakeCsms;
let clock: ManualClock;
let cp: ChargePoint;
const SN = 'CP-CMD';

async function boot(extra: Partial<ChargePointOptions> = {}) {
  cp = createChargePoint({
    url: csms.url,
    serialNumber: SN,
    clock,
    connectors: [{ maxPowerW: 22_000 }, { maxPowerW: 50_000, current: 'DC', lockable: false }],
    random: () => 0.5,
    rebootDelayMs: 5000,
    ...extra,
  });
  cp.start();
  await cp.ready();
  await settle(cp);
}

const call = (action: string, payload: Record<string, unknown>) => csms.call(SN, action, payload);
const after = (action: string, match?: (p: Record<string, unknown>) => boolean) => csms.waitFor(SN, action, match, csms.received.length);
const status = (connectorId: number) => cp.state().connectors[connectorId]!.status;

beforeEach(async () => {
  csms = await startFakeCsms();
  clock = createManualClock();
  await boot();
});
afterEach(async () => {
  await cp.stop();
  await csms.close();
  expect(csms.invalid).toEqual([]);
});

describe('remote start and stop', () => {
  it('accepts a remote start on a free connector and then starts with that idTag, without Authorize by default', async () => {
    const start = after('StartTransaction');
    expect(await call('RemoteStartTransaction', { connectorId: 2, idTag: 'REMOTE-1' })).toEqual({ result: { status: 'Accepted' } });
    expect((await start).payload).toMatchObject({ connectorId: 2, idTag: 'REMOTE-1' });
    await settle(cp);
    expect(csms.of(SN, 'Authorize')).toHaveLength(0);
    expect(status(2)).toBe('Charging');
    expect(await call('RemoteStartTransaction', { connectorId: 2, idTag: 'REMOTE-2' })).toEqual({ result: { status: 'Rejected' } });
    expect(await call('RemoteStartTransaction', { connectorId: 9, idTag: 'REMOTE-2' })).toEqual({ result: { status: 'Rejected' } });
  });

  it('picks a free connector when none is named, and authorizes first when AuthorizeRemoteTxRequests is on', async () => {
    expect(await call('ChangeConfiguration', { key: 'AuthorizeRemoteTxRequests', value: 'true' })).toEqual({
      result: { status: 'Accepted' },
    });
    const start = after('StartTransaction');
    expect(await call('RemoteStartTransaction', { idTag: 'REMOTE-3' })).toEqual({ result: { status: 'Accepted' } });
    expect((await start).payload).toMatchObject({ connectorId: 1, idTag: 'REMOTE-3' });
    expect(csms.of(SN, 'Authorize').map((r) => r.payload.idTag)).toEqual(['REMOTE-3']);
  });

  it('stops the transaction a remote stop names, and rejects an unknown one', async () => {
    const { transactionId } = await cp.startCharging(1, 'TAG-1');
    expect(await call('RemoteStopTransaction', { transactionId: 99_999 })).toEqual({ result: { status: 'Rejected' } });
    const stop = after('StopTransaction');
    expect(await call('RemoteStopTransaction', { transactionId })).toEqual({ result: { status: 'Accepted' } });
    expect((await stop).payload).toMatchObject({ transactionId, reason: 'Remote' });
  });
});

describe('reset', () => {
  it('soft reset stops transactions with SoftReset, goes offline and boots again', async () => {
    await cp.startCharging(1, 'TAG-1');
    const stop = after('StopTransaction');
    const offline = cp.next('connection', (c) => c.state === 'offline');
    expect(await call('Reset', { type: 'Soft' })).toEqual({ result: { status: 'Accepted' } });
    expect((await stop).payload).toMatchObject({ reason: 'SoftReset' });
    await offline;
    const boot = after('BootNotification');
    clock.advance(5000);
    await boot;
    await cp.ready();
    expect(csms.of(SN, 'BootNotification')).toHaveLength(2);
  });

  it('hard reset goes down at once and sends the HardReset stop after it boots again', async () => {
    await cp.startCharging(2, 'TAG-1');
    await settle(cp);
    const offline = cp.next('connection', (c) => c.state === 'offline');
    expect(await call('Reset', { type: 'Hard' })).toEqual({ result: { status: 'Accepted' } });
    await offline;
    const stop = after('StopTransaction');
    clock.advance(5000);
    expect((await stop).payload).toMatchObject({ reason: 'HardReset', transactionId: 101 });
    expect(csms.of(SN, 'BootNotification')).toHaveLength(2);
  });

  it('an immediate reset of one EVSE (2.0.1, handed over by its link) ends only its transaction and stays online', async () => {
    const one = await cp.startCharging(1, 'TAG-1');
    const two = await cp.startCharging(2, 'TAG-2');
    const stop = after('StopTransaction');
    expect(await call('Reset', { type: 'Hard', connectorId: 2 })).toEqual({ result: { status: 'Accepted' } });
    expect((await stop).payload).toMatchObject({ reason: 'HardReset', transactionId: two.transactionId });
    await settle(cp);
    expect(status(1)).toBe('Charging');
    expect(cp.state().connectors[1]!.transactionId).toBe(one.transactionId);
    expect(csms.of(SN, 'BootNotification')).toHaveLength(1);
    // An idle EVSE resets at once; an unknown one is refused.
    expect(await call('Reset', { type: 'Hard', connectorId: 2 })).toEqual({ result: { status: 'Accepted' } });
    expect(await call('Reset', { type: 'Hard', connectorId: 9 })).toEqual({ result: { status: 'Rejected' } });
  });
});

describe('connector commands', () => {
  it('unlocks a lockable connector (ending its transaction) and says NotSupported for a tethered or unknown one', async () => {
    await cp.startCharging(1, 'TAG-1');
    const stop = after('StopTransaction');
    expect(await call('UnlockConnector', { connectorId: 1 })).toEqual({ result: { status: 'Unlocked' } });
    expect((await stop).payload).toMatchObject({ reason: 'UnlockCommand' });
    expect(await call('UnlockConnector', { connectorId: 2 })).toEqual({ result: { status: 'NotSupported' } });
    expect(await call('UnlockConnector', { connectorId: 7 })).toEqual({ result: { status: 'NotSupported' } });
  });

  it('changes availability at once when idle, Scheduled while charging, and reports Unavailable / Available', async () => {
    const unavailable = after('StatusNotification', (p) => p.connectorId === 2 && p.status === 'Unavailable');
    expect(await call('ChangeAvailability', { connectorId: 2, type: 'Inoperative' })).toEqual({ result: { status: 'Accepted' } });
    await unavailable;
    expect(await call('RemoteStartTransaction', { connectorId: 2, idTag: 'X' })).toEqual({ result: { status: 'Rejected' } });
    const available = after('StatusNotification', (p) => p.connectorId === 2 && p.status === 'Available');
    expect(await call('ChangeAvailability', { connectorId: 2, type: 'Operative' })).toEqual({ result: { status: 'Accepted' } });
    await available;

    await cp.startCharging(1, 'TAG-1');
    expect(await call('ChangeAvailability', { connectorId: 0, type: 'Inoperative' })).toEqual({ result: { status: 'Scheduled' } });
    await settle(cp);
    expect(cp.state().connectors.map((c) => c.status)).toEqual(['Unavailable', 'Charging', 'Unavailable']);
    await cp.stopCharging(1);
    await settle(cp);
    expect(status(1)).toBe('Unavailable');
    expect(await call('ChangeAvailability', { connectorId: 5, type: 'Operative' })).toEqual({ result: { status: 'Rejected' } });
    expect(await call('ChangeAvailability', { connectorId: 0, type: 'Operative' })).toEqual({ result: { status: 'Accepted' } });
    await settle(cp);
    expect(cp.state().connectors.map((c) => c.status)).toEqual(['Available', 'Finishing', 'Available']);
  });

  it('answers GetCompositeSchedule with the connector limit in W or A, and rejects an unknown connector', async () => {
    const w = await call('GetCompositeSchedule', { connectorId: 1, duration: 3600 });
    expect(w.result).toMatchObject({
      status: 'Accepted',
      connectorId: 1,
      chargingSchedule: {
        duration: 3600,
        chargingRateUnit: 'W',
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 22_000, numberPhases: 3 }],
      },
    });
    const a = await call('GetCompositeSchedule', { connectorId: 1, duration: 60, chargingRateUnit: 'A' });
    expect(a.result).toMatchObject({ chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ limit: 31.8 }] } });
    const all = await call('GetCompositeSchedule', { connectorId: 0, duration: 60 });
    expect(all.result).toMatchObject({ chargingSchedule: { chargingSchedulePeriod: [{ limit: 72_000 }] } });
    expect(await call('GetCompositeSchedule', { connectorId: 3, duration: 60 })).toEqual({ result: { status: 'Rejected' } });
  });
});

describe('authorization lists', () => {
  it('keeps the local list version across full and differential updates, answers VersionMismatch, and authorizes from it offline', async () => {
    expect(await call('GetLocalListVersion', {})).toEqual({ result: { listVersion: 0 } });
    const full = { listVersion: 3, updateType: 'Full', localAuthorizationList: [{ idTag: 'LIST-1', idTagInfo: { status: 'Accepted' } }] };
    expect(await call('SendLocalList', full)).toEqual({ result: { status: 'Accepted' } });
    expect(await call('GetLocalListVersion', {})).toEqual({ result: { listVersion: 3 } });
    const stale = {
      listVersion: 3,
      updateType: 'Differential',
      localAuthorizationList: [{ idTag: 'LIST-2', idTagInfo: { status: 'Accepted' } }],
    };
    expect(await call('SendLocalList', stale)).toEqual({ result: { status: 'VersionMismatch' } });
    const diff = {
      listVersion: 4,
      updateType: 'Differential',
      localAuthorizationList: [{ idTag: 'LIST-2', idTagInfo: { status: 'Blocked' } }, { idTag: 'LIST-1' }],
    };
    expect(await call('SendLocalList', diff)).toEqual({ result: { status: 'Accepted' } });
    expect(await call('GetLocalListVersion', {})).toEqual({ result: { listVersion: 4 } });
    expect(await call('SendLocalList', { listVersion: 5, updateType: 'Full', localAuthorizationList: [{ idTag: 'A' }] })).toEqual({
      result: { status: 'Failed' },
    });

    const offline = cp.next('connection', (c) => c.state === 'offline');
    cp.disconnect(3_600_000);
    await offline;
    expect(await cp.swipe('LIST-2')).toEqual({ status: 'Blocked' });
    expect(await cp.swipe('LIST-1')).toEqual({ status: 'Invalid' });
  });

  it('pre-authorizes from the local list without asking the CSMS when LocalPreAuthorize is on', async () => {
    const list = { listVersion: 1, updateType: 'Full', localAuthorizationList: [{ idTag: 'LOCAL-OK', idTagInfo: { status: 'Accepted' } }] };
    expect(await call('SendLocalList', list)).toEqual({ result: { status: 'Accepted' } });
    expect(await cp.swipe('LOCAL-OK')).toEqual({ status: 'Accepted' });
    expect(csms.of(SN, 'Authorize')).toHaveLength(1);
    expect(await call('ChangeConfiguration', { key: 'LocalPreAuthorize', value: 'true' })).toEqual({ result: { status: 'Accepted' } });
    expect(await cp.swipe('LOCAL-OK')).toEqual({ status: 'Accepted' });
    expect(await cp.swipe('OTHER')).toEqual({ status: 'Accepted' });
    expect(csms.of(SN, 'Authorize').map((r) => r.payload.idTag)).toEqual(['LOCAL-OK', 'OTHER']);
  });

  it('answers NotSupported and version -1 when the local list is disabled', async () => {
    expect(await call('ChangeConfiguration', { key: 'LocalAuthListEnabled', value: 'false' })).toEqual({ result: { status: 'Accepted' } });
    expect(await call('GetLocalListVersion', {})).toEqual({ result: { listVersion: -1 } });
    expect(await call('SendLocalList', { listVersion: 1, updateType: 'Full' })).toEqual({ result: { status: 'NotSupported' } });
  });

  it('clears the authorization cache', async () => {
    await cp.swipe('CACHED');
    expect(await call('ClearCache', {})).toEqual({ result: { status: 'Accepted' } });
    const offline = cp.next('connection', (c) => c.state === 'offline');
    cp.disconnect(3_600_000);
    await offline;
    expect(await cp.swipe('CACHED')).toEqual({ status: 'Invalid' });
  });
});

describe('trigger, data transfer and configuration', () => {
  it('triggers each message it supports and then sends it', async () => {
    for (const [requestedMessage, action] of [
      ['BootNotification', 'BootNotification'],
      ['Heartbeat', 'Heartbeat'],
      ['StatusNotification', 'StatusNotification'],
      ['DiagnosticsStatusNotification', 'DiagnosticsStatusNotification'],
      ['FirmwareStatusNotification', 'FirmwareStatusNotification'],
    ] as const) {
      const sent = after(action);
      expect(
        await call('TriggerMessage', { requestedMessage, connectorId: requestedMessage === 'StatusNotification' ? 2 : undefined }),
      ).toEqual({
        result: { status: 'Accepted' },
      });
      await sent;
    }
    expect(csms.of(SN, 'StatusNotification').at(-1)!.payload).toMatchObject({ connectorId: 2 });
    // Nothing is being downloaded or uploaded.
    expect(csms.of(SN, 'DiagnosticsStatusNotification').map((r) => r.payload)).toEqual([{ status: 'Idle' }]);
    expect(csms.of(SN, 'FirmwareStatusNotification').map((r) => r.payload)).toEqual([{ status: 'Idle' }]);
    await settle(cp);

    await cp.startCharging(1, 'TAG-1');
    const meter = after('MeterValues');
    expect(await call('TriggerMessage', { requestedMessage: 'MeterValues', connectorId: 1 })).toEqual({ result: { status: 'Accepted' } });
    const mv = (await meter).payload;
    expect(mv).toMatchObject({ connectorId: 1, transactionId: 101 });
    expect(values(mv)[0]!.context).toBe('Trigger');
    expect(await call('TriggerMessage', { requestedMessage: 'MeterValues', connectorId: 8 })).toEqual({ result: { status: 'Rejected' } });
    expect(await call('TriggerMessage', { requestedMessage: 'SignChargePointCertificate' })).toEqual({
      result: { status: 'NotImplemented' },
    });
  });

  it('answers DataTransfer for its own vendor and UnknownVendorId otherwise', async () => {
    expect(await call('DataTransfer', { vendorId: 'CSMS Simulator', messageId: 'echo', data: 'ping' })).toEqual({
      result: { status: 'Accepted', data: 'ping' },
    });
    expect(await call('DataTransfer', { vendorId: 'com.other' })).toEqual({ result: { status: 'UnknownVendorId' } });
  });

  it('reads configuration with unknown keys listed, and changes it as a charger would', async () => {
    const all = (await call('GetConfiguration', {})).result!;
    const keys = (all.configurationKey as { key: string }[]).map((k) => k.key);
    expect(keys).toEqual(
      expect.arrayContaining(['HeartbeatInterval', 'MeterValueSampleInterval', 'NumberOfConnectors', 'SupportedFeatureProfiles']),
    );
    expect(all.unknownKey).toBeUndefined();
    expect((await call('GetConfiguration', { key: ['NumberOfConnectors', 'NoSuchKey'] })).result).toEqual({
      configurationKey: [{ key: 'NumberOfConnectors', readonly: true, value: '2' }],
      unknownKey: ['NoSuchKey'],
    });
    const change = (key: string, value: string) => call('ChangeConfiguration', { key, value }).then((r) => r.result!.status);
    expect(await change('NumberOfConnectors', '4')).toBe('Rejected');
    expect(await change('NoSuchKey', '1')).toBe('NotSupported');
    expect(await change('HeartbeatInterval', 'soon')).toBe('Rejected');
    expect(await change('MeterValuesSampledData', 'Energy.Active.Import.Register,Nonsense')).toBe('Rejected');
    expect(await change('ConnectorPhaseRotation', '1.RST,2.RST')).toBe('RebootRequired');

    expect(await change('HeartbeatInterval', '10')).toBe('Accepted');
    const heartbeat = after('Heartbeat');
    clock.advance(10_000);
    await heartbeat;

    expect(await change('MeterValueSampleInterval', '15')).toBe('Accepted');
    expect(await change('MeterValuesSampledData', 'Energy.Active.Import.Register,Power.Active.Import')).toBe('Accepted');
    await cp.startCharging(1, 'TAG-1');
    const meter = after('MeterValues');
    clock.advance(15_000);
    const mv = (await meter).payload;
    expect(values(mv).map((v) => v.measurand)).toEqual(['Energy.Active.Import.Register', 'Power.Active.Import']);
    expect(values(mv)[0]!.timestamp).toBe(new Date(clock.now()).toISOString());
  });
});

describe('errors', () => {
  it('answers an unknown action with CALLERROR NotImplemented and a malformed request with the matching error', async () => {
    expect(await call('MakeCoffee', {})).toEqual({ error: 'NotImplemented' });
    expect(await call('SignedUpdateFirmware', { requestId: 1 })).toEqual({ error: 'NotImplemented' });
    expect(await call('GetDiagnostics', {})).toEqual({ error: 'OccurenceConstraintViolation' });
    expect(await call('RemoteStartTransaction', {})).toEqual({ error: 'OccurenceConstraintViolation' });
    expect(await call('RemoteStopTransaction', { transactionId: 'one' })).toEqual({ error: 'TypeConstraintViolation' });
    expect(await call('Reset', { type: 'Gentle' })).toEqual({ error: 'PropertyConstraintViolation' });
    csms.raw(SN, 'not json');
    csms.raw(SN, JSON.stringify([9, 'x']));
    expect(await call('GetLocalListVersion', {})).toEqual({ result: { listVersion: 0 } });
  });
});
