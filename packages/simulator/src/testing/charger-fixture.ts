import { afterEach, beforeEach, expect } from 'vitest';
import { createChargePoint, type ChargePoint } from '../charge-point.js';
import { createManualClock, type ManualClock } from '../clock.js';
import type { ChargePointOptions } from '../types.js';
import { startFakeCsms, type FakeCsms } from './fake-csms.js';
import { settle } from './helpers.js';

/**
 * One simulated charger against a fake CSMS on a manual clock, fresh for every test of the file
 * that calls this (its hooks are registered here); the fake must have seen only valid frames.
 */
export function chargerFixture(serialNumber: string, defaults: Partial<ChargePointOptions>) {
  const f = {
    csms: undefined as unknown as FakeCsms,
    clock: undefined as unknown as ManualClock,
    cp: undefined as unknown as ChargePoint,
    /** Starts the charger (defaults, then `extra`) and waits until it has booted and settled. */
    async boot(extra: Partial<ChargePointOptions> = {}) {
      f.cp = createChargePoint({
        url: f.csms.url,
        serialNumber,
        clock: f.clock,
        random: () => 0.5,
        clockAlignedDataInterval: 0,
        ...defaults,
        ...extra,
      });
      f.cp.start();
      await f.cp.ready();
      await settle(f.cp);
    },
    call: (action: string, payload: Record<string, unknown>) => f.csms.call(serialNumber, action, payload),
    /** The status of a CALLRESULT, else the CALLERROR's code. */
    async answer(action: string, payload: Record<string, unknown>) {
      const r = await f.call(action, payload);
      return r.result?.status ?? r.error;
    },
    /** Every status the charger reported for a connector, in order. */
    statuses: (connectorId: number) =>
      f.csms.of(serialNumber, 'StatusNotification').flatMap((r) => (r.payload.connectorId === connectorId ? [r.payload.status] : [])),
  };
  beforeEach(async () => {
    f.csms = await startFakeCsms();
    f.clock = createManualClock();
  });
  afterEach(async () => {
    await f.cp?.stop();
    await f.csms.close();
    expect(f.csms.invalid).toEqual([]);
  });
  return f;
}
