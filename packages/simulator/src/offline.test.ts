import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChargePoint, type ChargePoint } from './charge-point.js';
import { createManualClock, type ManualClock } from './clock.js';
import { startFakeCsms, type FakeCsms } from './testing/fake-csms.js';
import { settle, tick, values } from './testing/helpers.js';
import type { ChargePointOptions } from './types.js';

let csms: FakeCsms;
let clock: ManualClock;
const points: ChargePoint[] = [];
const HOUR = 3_600_000;

function point(serialNumber: string, extra: Partial<ChargePointOptions> = {}) {
  const cp = createChargePoint({
    url: csms.url,
    serialNumber,
    clock,
    connectors: 1,
    clockAlignedDataInterval: 0,
    reconnect: { minMs: 1000, maxMs: 8000 },
    random: () => 0.5,
    ...extra,
  });
  points.push(cp);
  return cp;
}

async function online(cp: ChargePoint) {
  cp.start();
  await cp.ready();
  await settle(cp);
}

/** What the CSMS received from `serial` since index `from`, as `action transactionId timestamp`. */
const since = (serial: string, from: number) =>
  csms.received
    .slice(from)
    .filter((r) => r.serial === serial && ['StartTransaction', 'MeterValues', 'StopTransaction'].includes(r.action))
    .map((r) => `${r.action} ${String(r.payload.transactionId)} ${String(r.payload.timestamp ?? values(r.payload)[0]!.timestamp)}`);

beforeEach(async () => {
  csms = await startFakeCsms();
  clock = createManualClock();
});
afterEach(async () => {
  await Promise.all(points.splice(0).map((p) => p.stop()));
  await csms.close();
  expect(csms.invalid).toEqual([]);
});

describe('offline queue', () => {
  it('keeps meter values and the stop of a running transaction while offline and sends them in order after reconnect and boot', async () => {
    const cp = point('CP-OFF1');
    await online(cp);
    expect((await cp.startCharging(1, 'TAG-1')).transactionId).toBe(101);
    await settle(cp);
    const offline = cp.next('connection', (c) => c.state === 'offline');
    cp.disconnect(HOUR);
    await offline;
    await tick(clock, cp, 180_000);
    const stopped = await cp.stopCharging(1);
    expect(stopped).toMatchObject({ transactionId: 101, reason: 'Local' });
    expect(cp.state()).toMatchObject({ connection: 'offline', queuedMessages: 4 });
    expect(cp.state().connectors[1]!.status).toBe('Finishing');

    const mark = csms.received.length;
    clock.advance(60_000);
    cp.connect();
    await cp.ready();
    await settle(cp);
    expect(csms.received.slice(mark).map((r) => r.action)[0]).toBe('BootNotification');
    expect(since('CP-OFF1', mark)).toEqual([
      'MeterValues 101 2026-01-01T00:01:00.000Z',
      'MeterValues 101 2026-01-01T00:02:00.000Z',
      'MeterValues 101 2026-01-01T00:03:00.000Z',
      'StopTransaction 101 2026-01-01T00:03:00.000Z',
    ]);
    expect(cp.state().queuedMessages).toBe(0);
  });

  it('starts a transaction offline for a cached idTag and gives its later messages the id the CSMS assigns', async () => {
    const cp = point('CP-OFF2');
    await online(cp);
    expect(await cp.swipe('TAG-2')).toEqual({ status: 'Accepted' });
    const offline = cp.next('connection', (c) => c.state === 'offline');
    cp.disconnect(HOUR);
    await offline;

    expect(await cp.startCharging(1, 'UNKNOWN')).toMatchObject({ accepted: false, idTagInfo: { status: 'Invalid' } });
    const started = await cp.startCharging(1, 'TAG-2');
    expect(started).toMatchObject({ accepted: true, transactionId: undefined, localId: 1 });
    await tick(clock, cp, 120_000);
    await cp.stopCharging(1, 'EVDisconnected');
    expect(cp.state().queuedMessages).toBe(4);

    const confirmed = cp.next('transaction', (t) => t.type === 'confirmed');
    const mark = csms.received.length;
    cp.connect();
    expect(await confirmed).toMatchObject({ localId: 1, transactionId: 101 });
    await settle(cp);
    expect(since('CP-OFF2', mark)).toEqual([
      'StartTransaction undefined 2026-01-01T00:00:00.000Z',
      'MeterValues 101 2026-01-01T00:01:00.000Z',
      'MeterValues 101 2026-01-01T00:02:00.000Z',
      'StopTransaction 101 2026-01-01T00:02:00.000Z',
    ]);
  });

  it('reconnects by itself with backoff after the CSMS drops the socket, and boots again', async () => {
    const cp = point('CP-DROP');
    await online(cp);
    const offline = cp.next('connection', (c) => c.state === 'offline');
    csms.drop('CP-DROP');
    await offline;
    expect(cp.state().connection).toBe('offline');
    clock.advance(1000); // first backoff: between half and all of minMs
    await cp.ready();
    expect(csms.of('CP-DROP', 'BootNotification')).toHaveLength(2);
  });

  it('backs off further while the CSMS is unreachable', async () => {
    const cp = point('CP-AWAY', { reconnect: { minMs: 1000, maxMs: 4000 } });
    await online(cp);
    const wentOffline: number[] = [];
    const attempts: number[] = [];
    cp.on('connection', (c) => (c.state === 'offline' ? wentOffline : c.state === 'connecting' ? attempts : []).push(clock.now()));
    const first = cp.next('connection', (c) => c.state === 'offline');
    await csms.close();
    await first;
    for (let i = 0; i < 4; i++) {
      const down = cp.next('connection', (c) => c.state === 'offline');
      for (let step = 0; attempts.length <= i && step < 100; step++) clock.advance(100);
      await down;
    }
    // Delay = backoff × (0.5 + 0.5 × random): 1 s, 2 s, 4 s, then capped at maxMs.
    expect(attempts.map((t, i) => t - wentOffline[i]!)).toEqual([750, 1500, 3000, 3000]);
  });

  it('retries a transaction message the CSMS failed to process', async () => {
    await csms.close();
    let failures = 1;
    csms = await startFakeCsms({
      answers: {
        StartTransaction: () => {
          if (failures-- > 0) throw Object.assign(new Error('database busy'), { code: 'InternalError' });
          return { transactionId: 7, idTagInfo: { status: 'Accepted' } };
        },
      },
    });
    const cp = point('CP-RETRY');
    await online(cp);
    const confirmed = cp.next('transaction', (t) => t.type === 'confirmed');
    void cp.startCharging(1, 'TAG-3');
    await csms.waitFor('CP-RETRY', 'StartTransaction');
    await settle(cp);
    expect(cp.state().queuedMessages).toBe(1);
    clock.advance(10_000); // TransactionMessageRetryInterval
    expect(await confirmed).toMatchObject({ transactionId: 7 });
    expect(csms.of('CP-RETRY', 'StartTransaction')).toHaveLength(2);
  });

  it('stops a transaction the CSMS does not authorize in its StartTransaction answer', async () => {
    await csms.close();
    csms = await startFakeCsms({ answers: { StartTransaction: () => ({ transactionId: 9, idTagInfo: { status: 'Blocked' } }) } });
    const cp = point('CP-DEAUTH');
    await online(cp);
    await cp.startCharging(1, 'TAG-4');
    const stop = await csms.waitFor('CP-DEAUTH', 'StopTransaction');
    expect(stop.payload).toMatchObject({ transactionId: 9, reason: 'DeAuthorized' });
  });
});
