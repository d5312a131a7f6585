/** Meter values: reading OCPP sampled values, and the meter sanity rules of DESIGN.md §6. Pure. */

export interface SampledValue {
  value: string;
  context?: string;
  format?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unit?: string;
}

/** One sampled timestamp, in our units (Wh, W, A, V, %, °C). */
export interface Sample {
  energyWh?: number;
  powerW?: number;
  currentImportA?: number;
  currentOfferedA?: number;
  voltageV?: number;
  soc?: number;
  temperatureC?: number;
}

interface Bucket {
  total?: number;
  phases: number[];
}

const SCALE: Record<string, number> = { kWh: 1000, kW: 1000, kvarh: 1000, kvar: 1000, kVA: 1000 };

function toCelsius(v: number, unit: string | undefined): number {
  if (unit === 'K') return v - 273.15;
  if (unit === 'Fahrenheit') return ((v - 32) * 5) / 9;
  return v;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Reads one sampledValue array. The measurand defaults to Energy.Active.Import.Register and units
 * to the measurand's base unit, as OCPP 1.6 says. A value without a phase is the total; without
 * one, phase values are summed (energy, power), the highest taken (currents, temperature) or
 * averaged (voltage). Signed data and non-numeric values are kept only in the raw column.
 */
export function readSample(values: readonly SampledValue[]): Sample {
  const buckets = new Map<string, Bucket>();
  for (const sv of values) {
    if (sv.format === 'SignedData') continue;
    const measurand = sv.measurand ?? 'Energy.Active.Import.Register';
    let v = Number(sv.value);
    if (sv.value.trim() === '' || !Number.isFinite(v)) continue;
    if (measurand === 'Temperature') v = toCelsius(v, sv.unit);
    else v *= SCALE[sv.unit ?? ''] ?? 1;
    let b = buckets.get(measurand);
    if (!b) buckets.set(measurand, (b = { phases: [] }));
    if (sv.phase === undefined) b.total ??= v;
    else if (sv.phase !== 'N') b.phases.push(v);
  }
  const pick = (m: string, combine: (xs: number[]) => number): number | undefined => {
    const b = buckets.get(m);
    if (!b) return undefined;
    if (b.total !== undefined) return b.total;
    return b.phases.length > 0 ? combine(b.phases) : undefined;
  };
  const out: Sample = {};
  const energy = pick('Energy.Active.Import.Register', sum);
  if (energy !== undefined) out.energyWh = Math.round(energy);
  const power = pick('Power.Active.Import', sum);
  if (power !== undefined) out.powerW = Math.round(power);
  const ci = pick('Current.Import', (xs) => Math.max(...xs));
  if (ci !== undefined) out.currentImportA = ci;
  const co = pick('Current.Offered', (xs) => Math.max(...xs));
  if (co !== undefined) out.currentOfferedA = co;
  const volt = pick('Voltage', (xs) => sum(xs) / xs.length);
  if (volt !== undefined) out.voltageV = volt;
  const soc = pick('SoC', (xs) => Math.max(...xs));
  if (soc !== undefined) out.soc = Math.round(soc);
  const temp = pick('Temperature', (xs) => Math.max(...xs));
  if (temp !== undefined) out.temperatureC = Math.round(temp * 10) / 10;
  return out;
}

/** What a transaction's energy accounting needs, mirrored in its row (`last_meter_wh`, `energy_wh`, …). */
export interface MeterState {
  meterStartWh: number;
  /** Last register reading taken into account (meterStart at first). */
  lastMeterWh: number;
  /** Its time, ms since epoch. */
  lastSampleAt: number;
  /** Energy delivered so far: the sum of the plausible increments. */
  energyWh: number;
  valid: boolean;
  invalidReason: string | null;
}

export type InvalidReason = 'meterBelowStart' | 'meterReset' | 'meterJump' | 'notStopped';

/** Energy a register may gain in `ms` at `maxPowerW`, with 1 kWh of slack for coarse registers. */
const plausibleWh = (maxPowerW: number, ms: number) => (maxPowerW * Math.max(ms, 0)) / 3_600_000 + 1000;

/**
 * Takes one register reading into a transaction's accounting (DESIGN.md §6). Energy is the sum of
 * increments between consecutive readings, so it is never negative and never a lifetime
 * register: a reading below the previous one (below meterStart, or a reset) and a jump larger
 * than the point can deliver in the elapsed time (at 1.5× its rated power, 1 MW when unknown)
 * add nothing, flag the transaction invalid with the first reason seen, and restart the
 * accounting from that reading. A reading older than the last one (out of order) is ignored
 * unless `final` (the stop value always counts).
 */
export function advance(state: MeterState, registerWh: number, atMs: number, ratedPowerW: number, final = false): void {
  if (!final && atMs < state.lastSampleAt) return;
  const flag = (reason: InvalidReason) => {
    if (state.valid) {
      state.valid = false;
      state.invalidReason = reason;
    }
  };
  const delta = registerWh - state.lastMeterWh;
  const maxPowerW = ratedPowerW > 0 ? ratedPowerW * 1.5 : 1_000_000;
  if (delta < 0) flag(registerWh < state.meterStartWh ? 'meterBelowStart' : 'meterReset');
  else if (delta > plausibleWh(maxPowerW, atMs - state.lastSampleAt)) flag('meterJump');
  else state.energyWh += delta;
  state.lastMeterWh = registerWh;
  state.lastSampleAt = Math.max(state.lastSampleAt, atMs);
}
