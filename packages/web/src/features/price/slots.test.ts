import { decimalToUnits, unitsToDecimal } from '@csms/contract';
import { describe, expect, it } from 'vitest';
import { bodyFrom, feeUnits, reserveCents, valuesFrom } from './price-form';
import { fillAll, paintRange, runsOf, slotTime } from './slots';
import { instantOf, wallClock } from '../../shared/format/zone-time';

describe('slots', () => {
  it('names the half hours', () => {
    expect([slotTime(0), slotTime(1), slotTime(17), slotTime(47), slotTime(48)]).toEqual(['00:00', '00:30', '08:30', '23:30', '24:00']);
  });

  it('paints a range in either direction and leaves the rest', () => {
    const day = paintRange(fillAll('flat'), 23, 16, 'peak');
    expect(day.filter((s) => s === 'peak')).toHaveLength(8);
    expect(day.indexOf('peak')).toBe(16);
    expect(day.lastIndexOf('peak')).toBe(23);
    expect(paintRange(day, -5, 100, 'valley')).toEqual(fillAll('valley'));
  });

  it('describes the day as runs that cover it without gaps', () => {
    const day = paintRange(paintRange(fillAll('flat'), 0, 15, 'valley'), 16, 23, 'peak');
    expect(runsOf(day)).toEqual([
      { tier: 'valley', from: 0, to: 16 },
      { tier: 'peak', from: 16, to: 24 },
      { tier: 'flat', from: 24, to: 48 },
    ]);
  });
});

describe('fees typed as decimals', () => {
  it('convert exactly to integer units, without float drift', () => {
    expect(decimalToUnits('0.1234', 4)).toBe(1234);
    expect(decimalToUnits('1.1', 4)).toBe(11000);
    expect(decimalToUnits('0.29', 4)).toBe(2900); // 0.29 * 10000 = 2899.9999999999995 in floating point
    expect(decimalToUnits('100', 4)).toBe(1_000_000);
    expect(decimalToUnits('0.12345', 4)).toBeUndefined();
    expect(decimalToUnits('-1', 4)).toBeUndefined();
    expect(decimalToUnits('1e3', 4)).toBeUndefined();
    expect(unitsToDecimal(1234, 4)).toBe('0.1234');
    expect(unitsToDecimal(5, 2)).toBe('0.05');
  });

  it('are refused past 100 $/kWh or 1000 $ per reservation', () => {
    expect(feeUnits('100.0000')).toBe(1_000_000);
    expect(feeUnits('100.0001')).toBeUndefined();
    expect(feeUnits('')).toBeUndefined();
    expect(reserveCents('1000')).toBe(100_000);
    expect(reserveCents('1000.01')).toBeUndefined();
    expect(reserveCents('2.5')).toBe(250);
  });
});

describe("the station's wall clock", () => {
  it('shows and reads instants in the station zone', () => {
    expect(wallClock('2026-03-01T00:00:00Z', 'Asia/Shanghai')).toBe('2026-03-01 08:00:00');
    expect(instantOf('2026-03-01 08:00', 'Asia/Shanghai')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(instantOf('2026-07-01 14:30:00', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T12:30:00.000Z');
    expect(instantOf('soon', 'UTC')).toBeUndefined();
  });

  it('resolves daylight-saving gaps forward and repeated hours to their first occurrence', () => {
    expect(instantOf('2026-03-29 02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(instantOf('2026-10-25 02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('round-trips a version through the form', () => {
    const v = {
      sharpElec: 15000,
      sharpService: 5000,
      peakElec: 12345,
      peakService: 4000,
      flatElec: 8000,
      flatService: 3000,
      valleyElec: 3333,
      valleyService: 1000,
      reserveFeeCents: 250,
      slots: fillAll('flat'),
      effectiveFrom: '2026-03-01T00:00:00.000Z',
    };
    const values = valuesFrom(v, 'Asia/Shanghai', true);
    expect(values).toMatchObject({ peakElec: '1.2345', reserveFeeCents: '2.50', effectiveMode: 'at' });
    const { effectiveFrom, ...rest } = v;
    expect(bodyFrom(values, 'Asia/Shanghai')).toEqual({ ...rest, effectiveFrom });
    expect(bodyFrom({ ...values, effectiveMode: 'now' }, 'Asia/Shanghai')).toEqual(rest);
  });
});
