import { describe, expect, it } from 'vitest';
import type { OcppError } from './ocpp.js';
import {
  chargingProfileProblem,
  compositeSchedule,
  limitFromW,
  limitToW,
  parseChargingProfile,
  shareLimit,
  type ChargingProfile,
  type ChargingProfilePurpose,
  type CompositeRequest,
  type InstalledProfile,
  type ScheduleConnector,
} from './smart-charging.js';
import { H, profile, T0, type ProfileOptions } from './testing/profiles.js';

const AC22: ScheduleConnector = { connectorId: 1, electrical: { current: 'AC', phases: 3, voltageV: 230 }, maxPowerW: 22_000 };

function periods(req: Partial<CompositeRequest> & { profiles: InstalledProfile[] }) {
  const result = compositeSchedule({ connectors: [AC22], connectorId: 1, start: T0, duration: 3 * 3600, ...req });
  return result!.chargingSchedule.chargingSchedulePeriod.map((p) => [p.startPeriod, p.limit, p.numberPhases]);
}

const on = (connectorId: number, p: ChargingProfile): InstalledProfile => ({ connectorId, profile: p });

describe('compositeSchedule', () => {
  it('gives the hardware limit without profiles, and one TxDefaultProfile where its schedule runs', () => {
    expect(periods({ profiles: [] })).toEqual([[0, 22_000, 3]]);
    const txDefault = profile(
      1,
      'TxDefaultProfile',
      0,
      [
        [0, 11_000],
        [1800, 7000],
      ],
      { start: T0 + H, duration: 3600 },
    );
    expect(periods({ profiles: [on(1, txDefault)] })).toEqual([
      [0, 22_000, 3],
      [3600, 11_000, 3],
      [5400, 7000, 3],
      [7200, 22_000, 3],
    ]);
    const result = compositeSchedule({ profiles: [on(0, txDefault)], connectors: [AC22], connectorId: 1, start: T0 + 1234, duration: 60 });
    expect(result).toEqual({
      scheduleStart: '2026-01-01T00:00:01.000Z',
      chargingSchedule: {
        duration: 60,
        startSchedule: '2026-01-01T00:00:01.000Z',
        chargingRateUnit: 'W',
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 22_000, numberPhases: 3 }],
      },
    });
  });

  it('lets a TxProfile override the TxDefaultProfile while it runs, for its transaction only', () => {
    const txDefault = profile(1, 'TxDefaultProfile', 0, [[0, 16]], { unit: 'A' });
    const tx = profile(
      2,
      'TxProfile',
      0,
      [
        [0, 10],
        [600, 20],
      ],
      { unit: 'A', kind: 'Relative', duration: 1200, transactionId: 7 },
    );
    const connectors = [{ ...AC22, transaction: { transactionId: 7, startedAt: T0 } }];
    expect(periods({ profiles: [on(0, txDefault), on(1, tx)], connectors, unit: 'A', duration: 3600 })).toEqual([
      [0, 10, 3],
      [600, 20, 3],
      [1200, 16, 3],
    ]);
    const other = [{ ...AC22, transaction: { transactionId: 8, startedAt: T0 } }];
    expect(periods({ profiles: [on(0, txDefault), on(1, tx)], connectors: other, unit: 'A', duration: 3600 })).toEqual([[0, 16, 3]]);
    expect(periods({ profiles: [on(0, txDefault), on(1, tx)], unit: 'A', duration: 3600 })).toEqual([[0, 16, 3]]);
  });

  it('caps both TxProfile and TxDefaultProfile by the ChargePointMaxProfile', () => {
    const max = profile(1, 'ChargePointMaxProfile', 0, [[0, 9000]], { duration: 1800 });
    const txDefault = profile(2, 'TxDefaultProfile', 0, [[0, 11_000]]);
    const tx = profile(
      3,
      'TxProfile',
      0,
      [
        [0, 6000],
        [300, 12_000],
      ],
      { kind: 'Relative', duration: 600 },
    );
    const connectors = [{ ...AC22, transaction: { startedAt: T0 } }];
    expect(periods({ profiles: [on(0, max), on(1, txDefault), on(1, tx)], connectors, duration: 3600 })).toEqual([
      [0, 6000, 3],
      [300, 9000, 3],
      [1800, 11_000, 3],
    ]);
  });

  it('repeats a Daily profile every day, across midnight', () => {
    const night = profile(
      1,
      'TxDefaultProfile',
      1,
      [
        [0, 8000],
        [4 * 3600, 4000],
      ],
      {
        kind: 'Recurring',
        recurrencyKind: 'Daily',
        start: Date.UTC(2025, 11, 31, 22),
        duration: 8 * 3600,
      },
    );
    const day = profile(2, 'TxDefaultProfile', 0, [[0, 11_000]]);
    expect(periods({ profiles: [on(0, night), on(0, day)], start: Date.UTC(2026, 0, 1, 20), duration: 14 * 3600 })).toEqual([
      [0, 11_000, 3],
      [2 * 3600, 8000, 3], // 22:00
      [6 * 3600, 4000, 3], // 02:00 the next day
      [10 * 3600, 11_000, 3], // 06:00
    ]);
    // Weekly: the same hours, only on the weekday the schedule started (a Wednesday).
    const weekly = { ...night, recurrencyKind: 'Weekly' as const };
    expect(periods({ profiles: [on(0, weekly)], start: Date.UTC(2026, 0, 7, 20), duration: 14 * 3600 })).toEqual([
      [0, 22_000, 3],
      [2 * 3600, 8000, 3],
      [6 * 3600, 4000, 3],
      [10 * 3600, 22_000, 3],
    ]);
    expect(periods({ profiles: [on(0, weekly)], start: Date.UTC(2026, 0, 5, 20), duration: 14 * 3600 })).toEqual([[0, 22_000, 3]]);
  });

  it('starts a Relative profile with the transaction, or now without one', () => {
    const relative = profile(
      1,
      'TxDefaultProfile',
      0,
      [
        [0, 5000],
        [900, 9000],
      ],
      { kind: 'Relative', duration: 1800 },
    );
    const connectors = [{ ...AC22, transaction: { transactionId: 1, startedAt: T0 - 600_000 } }];
    expect(periods({ profiles: [on(1, relative)], connectors, duration: 3600 })).toEqual([
      [0, 5000, 3],
      [300, 9000, 3],
      [1200, 22_000, 3],
    ]);
    expect(periods({ profiles: [on(1, relative)], duration: 3600 })).toEqual([
      [0, 5000, 3],
      [900, 9000, 3],
      [1800, 22_000, 3],
    ]);
  });

  it('converts between A and W with the voltage and the phases used', () => {
    const ac = { current: 'AC', phases: 3, voltageV: 230 } as const;
    expect(limitToW(16, 'A', ac)).toBe(11_040);
    expect(limitToW(16, 'A', ac, 1)).toBe(3680);
    expect(limitToW(16, 'A', { ...ac, phases: 1 })).toBe(3680); // OCPP's default of 3 phases, on a 1-phase connector
    expect(limitToW(100, 'A', { current: 'DC', phases: 3, voltageV: 400 })).toBe(40_000);
    expect(limitFromW(11_040, 'A', ac)).toBe(16);

    const amps = profile(
      1,
      'TxDefaultProfile',
      0,
      [
        [0, 16],
        [600, 16, 1],
      ],
      { unit: 'A' },
    );
    expect(periods({ profiles: [on(1, amps)], duration: 1200 })).toEqual([
      [0, 11_040, 3],
      [600, 3680, 1],
    ]);
    expect(periods({ profiles: [on(1, amps)], duration: 1200, unit: 'A' })).toEqual([
      [0, 16, 3],
      [600, 16, 1],
    ]);
    const watts = profile(2, 'TxDefaultProfile', 0, [[0, 11_000]]);
    expect(periods({ profiles: [on(1, watts)], duration: 600, unit: 'A' })).toEqual([[0, 15.9, 3]]); // 15.94 A, never rounded up
    const dc: ScheduleConnector = { connectorId: 1, electrical: { current: 'DC', phases: 3, voltageV: 400 }, maxPowerW: 50_000 };
    expect(periods({ profiles: [on(1, amps)], connectors: [dc], duration: 600 })).toEqual([[0, 6400, undefined]]);
  });

  it('merges consecutive periods with the same limit, and falls back to lower stack levels outside validity', () => {
    const base = profile(1, 'TxDefaultProfile', 0, [
      [0, 7000],
      [600, 7000],
      [1200, 7000],
    ]);
    const same = profile(2, 'TxDefaultProfile', 1, [[0, 7000]], { start: T0 + H, duration: 600 });
    expect(periods({ profiles: [on(1, base), on(1, same)] })).toEqual([[0, 7000, 3]]);
    const window = profile(3, 'TxDefaultProfile', 2, [[0, 5000]], { validFrom: T0 + 1800_000, validTo: T0 + H });
    expect(periods({ profiles: [on(1, base), on(1, window)] })).toEqual([
      [0, 7000, 3],
      [1800, 5000, 3],
      [3600, 7000, 3],
    ]);
  });

  it("prefers the connector's own TxDefaultProfile to connector 0's at the same stack level", () => {
    const all = profile(1, 'TxDefaultProfile', 3, [[0, 7000]]);
    const own = profile(2, 'TxDefaultProfile', 3, [[0, 9000]]);
    expect(periods({ profiles: [on(1, own), on(0, all)] })).toEqual([[0, 9000, 3]]);
    expect(periods({ profiles: [on(0, all), on(1, own)] })).toEqual([[0, 9000, 3]]);
  });

  it('adds the connectors up for connector 0, within the ChargePointMaxProfile', () => {
    const connectors = [AC22, { ...AC22, connectorId: 2 }];
    const txDefault = profile(1, 'TxDefaultProfile', 0, [[0, 10_000]]);
    const max = profile(2, 'ChargePointMaxProfile', 0, [[0, 15_000]], { start: T0 + H });
    expect(periods({ profiles: [on(0, txDefault), on(0, max)], connectors, connectorId: 0 })).toEqual([
      [0, 20_000, 3],
      [3600, 15_000, 3],
    ]);
    expect(compositeSchedule({ profiles: [], connectors, connectorId: 3, start: T0, duration: 60 })).toBeUndefined();
  });

  it('shares a point limit: no connector above its own, the rest evenly', () => {
    expect(shareLimit(10_000, [22_000, 22_000])).toEqual([5000, 5000]);
    expect(shareLimit(10_000, [2000, 22_000, 22_000])).toEqual([2000, 4000, 4000]);
    expect(shareLimit(50_000, [11_000, 22_000])).toEqual([11_000, 22_000]);
  });
});

describe('charging profile checks', () => {
  const good = profile(1, 'TxDefaultProfile', 0, [[0, 16]], { unit: 'A' }) as unknown as Record<string, unknown>;
  const code = (raw: unknown) => {
    try {
      parseChargingProfile(raw as Record<string, unknown>);
      return 'ok';
    } catch (e) {
      return (e as OcppError).code;
    }
  };
  const withSchedule = (s: Record<string, unknown>) => ({ ...good, chargingSchedule: { ...(good.chargingSchedule as object), ...s } });

  it('answers a malformed profile with the CALLERROR of its first fault', () => {
    expect(code(good)).toBe('ok');
    const { stackLevel: _, ...noStack } = good;
    expect(code(noStack)).toBe('OccurenceConstraintViolation');
    expect(code({ ...good, stackLevel: '1' })).toBe('TypeConstraintViolation');
    expect(code({ ...good, stackLevel: -1 })).toBe('PropertyConstraintViolation');
    expect(code({ ...good, chargingProfilePurpose: 'Everything' })).toBe('PropertyConstraintViolation');
    expect(code({ ...good, validTo: 'tomorrow' })).toBe('PropertyConstraintViolation');
    expect(code(withSchedule({ chargingRateUnit: 'kW' }))).toBe('PropertyConstraintViolation');
    expect(code(withSchedule({ chargingSchedulePeriod: [7] }))).toBe('FormationViolation');
    expect(code(withSchedule({ chargingSchedulePeriod: [{ startPeriod: 0 }] }))).toBe('OccurenceConstraintViolation');
    expect(code(withSchedule({ chargingSchedulePeriod: [{ startPeriod: 0, limit: 6.25 }] }))).toBe('PropertyConstraintViolation');
    expect(parseChargingProfile({ ...good, extra: 1 } as Record<string, unknown>)).toEqual(good);
  });

  it('finds what a charger refuses in a well-formed profile', () => {
    const p = (periods: [number, number, number?][], o: ProfileOptions = {}, purpose: ChargingProfilePurpose = 'TxDefaultProfile') =>
      chargingProfileProblem(profile(1, purpose, 0, periods, o));
    expect(p([[0, 16]])).toBeUndefined();
    expect(p([[60, 16]])).toBe('the first period starts at 0');
    expect(
      p([
        [0, 16],
        [600, 8],
        [300, 4],
      ]),
    ).toBe('periods start in ascending order');
    expect(p([[0, -1]])).toBe('a limit cannot be negative');
    expect(p([[0, 16, 4]])).toBe('numberPhases is 1 to 3');
    expect(p([[0, 16]], { kind: 'Recurring' })).toBe('a Recurring profile needs a recurrencyKind and a startSchedule');
    expect(p([[0, 16]], { validFrom: T0 + H, validTo: T0 })).toBe('validTo comes after validFrom');
    expect(p([[0, 16]], { transactionId: 3 })).toBe('only a TxProfile names a transaction');
    expect(p([[0, 16]], { kind: 'Relative' }, 'ChargePointMaxProfile')).toBe('a ChargePointMaxProfile needs a startSchedule');
  });
});
