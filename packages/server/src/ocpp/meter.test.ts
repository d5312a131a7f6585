import { describe, expect, it } from 'vitest';
import { advance, readSample, type MeterState } from './meter.js';

describe('readSample', () => {
  it('defaults to the energy register in Wh and converts units', () => {
    expect(readSample([{ value: '1234.6' }])).toEqual({ energyWh: 1235 });
    expect(
      readSample([
        { value: '1.5', unit: 'kWh' },
        { value: '11', measurand: 'Power.Active.Import', unit: 'kW' },
      ]),
    ).toEqual({
      energyWh: 1500,
      powerW: 11_000,
    });
    expect(readSample([{ value: '86', measurand: 'Temperature', unit: 'Fahrenheit' }])).toEqual({ temperatureC: 30 });
  });

  it('prefers a total, else combines phases: power summed, current the highest, voltage averaged', () => {
    const phases = (measurand: string, values: number[], unit: string) =>
      values.map((v, i) => ({ value: String(v), measurand, unit, phase: `L${i + 1}` }));
    expect(
      readSample([
        ...phases('Power.Active.Import', [1000, 2000, 3000], 'W'),
        ...phases('Current.Import', [10, 16, 12], 'A'),
        ...phases('Voltage', [229, 231, 233], 'V'),
        { value: '4', measurand: 'Current.Import', phase: 'N', unit: 'A' },
      ]),
    ).toEqual({ powerW: 6000, currentImportA: 16, voltageV: 231 });
    expect(readSample([...phases('Power.Active.Import', [1000, 2000], 'W'), { value: '2500', measurand: 'Power.Active.Import' }])).toEqual({
      powerW: 2500,
    });
  });

  it('skips signed and non-numeric values and ignores measurands it does not keep', () => {
    expect(
      readSample([
        { value: 'abc' },
        { value: '', measurand: 'SoC' },
        { value: 'deadbeef', format: 'SignedData', measurand: 'Voltage' },
        { value: '50', measurand: 'Frequency' },
      ]),
    ).toEqual({});
  });
});

describe('advance (meter sanity)', () => {
  const MIN = 60_000;
  const state = (meterStartWh: number): MeterState => ({
    meterStartWh,
    lastMeterWh: meterStartWh,
    lastSampleAt: 0,
    energyWh: 0,
    valid: true,
    invalidReason: null,
  });

  it('sums plausible increments: energy equals the register difference', () => {
    const s = state(1000);
    advance(s, 2000, 10 * MIN, 22_000);
    advance(s, 3500, 20 * MIN, 22_000);
    advance(s, 4000, 25 * MIN, 22_000, true);
    expect(s).toMatchObject({ energyWh: 3000, valid: true, lastMeterWh: 4000 });
  });

  it('ignores out-of-order samples, but not the final reading', () => {
    const s = state(0);
    advance(s, 3000, 20 * MIN, 22_000);
    advance(s, 1000, 10 * MIN, 22_000);
    expect(s).toMatchObject({ energyWh: 3000, valid: true });
    advance(s, 3500, 15 * MIN, 22_000, true);
    expect(s).toMatchObject({ energyWh: 3500, valid: true });
  });

  it('flags a reading below the start, a reset and a jump, keeps the first reason and never goes negative', () => {
    const below = state(5000);
    advance(below, 4000, MIN, 22_000, true);
    expect(below).toMatchObject({ energyWh: 0, valid: false, invalidReason: 'meterBelowStart' });

    const reset = state(1000);
    advance(reset, 3000, 10 * MIN, 22_000);
    advance(reset, 2000, 20 * MIN, 22_000);
    advance(reset, 2500, 30 * MIN, 22_000);
    advance(reset, 100, 40 * MIN, 22_000);
    expect(reset).toMatchObject({ energyWh: 2500, valid: false, invalidReason: 'meterReset' });

    // 1.5 MWh in a minute from a 22 kW point, or from an unknown one (1 MW assumed).
    for (const rated of [22_000, 0]) {
      const jump = state(0);
      advance(jump, 1_500_000, MIN, rated);
      advance(jump, 1_500_200, 2 * MIN, rated, true);
      expect(jump).toMatchObject({ energyWh: 200, valid: false, invalidReason: 'meterJump' });
    }
  });
});
