import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from './clock.js';
import { runFleet, type Fleet } from './fleet.js';
import { createHistogram } from './stats.js';
import { startFakeCsms, type FakeCsms } from './testing/fake-csms.js';

let csms: FakeCsms;
let clock: ManualClock;
let fleet: Fleet | undefined;

/** Waits until no point of the fleet has a call in flight. */
async function settle(f: Fleet) {
  do await new Promise((resolve) => setTimeout(resolve, 5));
  while (f.points.some((p) => p.state().pendingCalls > 0));
}
async function run(f: Fleet, ms: number, step = 60_000) {
  for (let t = 0; t < ms; t += step) {
    clock.advance(Math.min(step, ms - t));
    await settle(f);
  }
}

beforeEach(async () => {
  csms = await startFakeCsms({ boot: () => ({ status: 'Accepted', interval: 120 }) });
  clock = createManualClock();
});
afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
  await csms.close();
  expect(csms.invalid).toEqual([]);
});

describe('fleet', () => {
  it('starts 50 charging points through a connect limit, reports stats, and stops cleanly', async () => {
    fleet = runFleet({ url: csms.url, count: 50, prefix: 'FLT-', key: 'fleet-key', scenario: 'charge', concurrency: 8, clock, seed: 1 });
    await fleet.booted();
    await settle(fleet);
    expect(csms.connections()).toBe(50);
    expect(new Set(csms.received.filter((r) => r.action === 'BootNotification').map((r) => r.serial)).size).toBe(50);
    expect(csms.authHeaders.get('FLT-0001')).toBe(`Basic ${Buffer.from('FLT-0001:fleet-key').toString('base64')}`);
    expect(csms.authHeaders.get('FLT-0050')).toBeDefined();

    await run(fleet, 120_000, 10_000);
    const stats = fleet.stats();
    expect(stats).toMatchObject({ points: 50, connected: 50, booted: 50, charging: 100, errors: 0, timeouts: 0 });
    expect(csms.received.filter((r) => r.action === 'StartTransaction')).toHaveLength(100);
    expect(csms.received.filter((r) => r.action === 'MeterValues').length).toBeGreaterThanOrEqual(100);
    expect(csms.received.filter((r) => r.action === 'Heartbeat')).toHaveLength(50);
    expect(stats.actions.BootNotification!.count).toBe(50);
    expect(stats.actions.StartTransaction!.count).toBe(100);
    expect(stats.actions.StartTransaction!.p99Ms).toBeGreaterThanOrEqual(stats.actions.StartTransaction!.p50Ms);
    expect(stats.callsSent).toBe(stats.replies);

    await fleet.stop();
    fleet = undefined;
    for (let i = 0; i < 100 && csms.connections() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(csms.connections()).toBe(0);
    expect(clock.pending()).toBe(0); // no timer left behind
  }, 30_000);

  it('runs the demo: sessions start and end with the given idTags, faults come and clear', async () => {
    fleet = runFleet({
      url: csms.url,
      count: 10,
      scenario: 'demo',
      idTags: ['CARD-A', 'CARD-B'],
      clock,
      seed: 42,
      demo: { initialChargingShare: 0.5, idleS: [60, 600], sessionS: [300, 900], faultChance: 0.3, faultS: [60, 120] },
      // Calls in flight while the clock jumps five minutes must not time out in virtual time.
      point: { clockAlignedDataInterval: 0, callTimeoutMs: 3_600_000 },
    });
    await fleet.booted();
    await run(fleet, 4 * 3_600_000, 300_000);
    const of = (action: string) => csms.received.filter((r) => r.action === action);
    expect(of('StartTransaction').length).toBeGreaterThan(10);
    expect(of('StopTransaction').length).toBeGreaterThan(5);
    expect(new Set(of('StartTransaction').map((r) => r.payload.idTag))).toEqual(new Set(['CARD-A', 'CARD-B']));
    const statuses = of('StatusNotification');
    expect(statuses.some((r) => r.payload.status === 'Faulted')).toBe(true);
    expect(statuses.some((r) => r.payload.status === 'Finishing')).toBe(true);
    const stats = fleet.stats();
    expect(stats.charging).toBeLessThanOrEqual(20);
    expect(stats.charging).toBe(fleet.points.flatMap((p) => p.state().connectors).filter((c) => c.localTransactionId !== undefined).length);
  }, 30_000);
});

describe('latency histogram', () => {
  it('finds percentiles within a bucket', () => {
    const h = createHistogram();
    for (let i = 1; i <= 1000; i++) h.record(i / 10);
    expect(h.count).toBe(1000);
    expect(h.percentile(50)).toBeGreaterThanOrEqual(50);
    expect(h.percentile(50)).toBeLessThanOrEqual(50 * 1.05);
    expect(h.percentile(99)).toBeGreaterThanOrEqual(99);
    expect(h.percentile(99)).toBeLessThanOrEqual(99 * 1.05);
    expect(h.percentile(100)).toBe(100);
    expect(createHistogram().percentile(50)).toBe(0);
  });
});
