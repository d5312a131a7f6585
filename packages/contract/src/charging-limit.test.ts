import { describe, expect, it } from 'vitest';
import { externalLimitW, type ExternalSchedule } from './api/charging-limit.js';

const reported = new Date('2026-11-26T10:00:00Z');
const at = (minutes: number) => new Date(reported.getTime() + minutes * 60_000);

describe('an external limit in force', () => {
  const steps: ExternalSchedule = {
    chargingRateUnit: 'W',
    duration: 3_600,
    chargingSchedulePeriod: [
      { startPeriod: 1_800, limit: 4_000 },
      { startPeriod: 0, limit: 11_000 },
    ],
  };

  it('follows the periods from the time it was reported, and ends with its duration', () => {
    expect(externalLimitW([steps], reported, at(0))).toBe(11_000);
    expect(externalLimitW([steps], reported, at(29))).toBe(11_000);
    expect(externalLimitW([steps], reported, at(30))).toBe(4_000);
    expect(externalLimitW([steps], reported, at(60))).toBeNull();
  });

  it('starts at startSchedule when given; amperes count per phase at 230 V (three phases unless named)', () => {
    const amps: ExternalSchedule = {
      startSchedule: at(10).toISOString(),
      chargingRateUnit: 'A',
      chargingSchedulePeriod: [{ startPeriod: 0, limit: 16 }],
    };
    expect(externalLimitW([amps], reported, at(5))).toBeNull();
    expect(externalLimitW([amps], reported, at(600))).toBe(16 * 230 * 3);
    const onePhase = { ...amps, chargingSchedulePeriod: [{ startPeriod: 0, limit: 16, numberPhases: 1 }] };
    expect(externalLimitW([onePhase], reported, at(11))).toBe(16 * 230);
  });

  it('takes the lowest of several schedules; none sent, none in force', () => {
    const flat: ExternalSchedule = { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 7_000 }] };
    expect(externalLimitW([steps, flat], reported, at(1))).toBe(7_000);
    expect(externalLimitW([steps, flat], reported, at(31))).toBe(4_000);
    expect(externalLimitW(null, reported, at(1))).toBeNull();
    expect(externalLimitW([], reported, at(1))).toBeNull();
  });
});
