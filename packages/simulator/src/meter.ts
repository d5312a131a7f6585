import type { Measurand, MeterValue, ReadingContext, SampledValue } from './ocpp.js';

/**
 * The electrical model of one connector: an energy register that grows with power × time, an
 * EV battery whose state of charge rises (charging tapers above 80 % and stops at 100 %), and
 * the voltage, current and temperature readings that follow from them.
 */

export interface ElectricalSpec {
  /** Highest power the connector delivers, W. */
  maxPowerW: number;
  current: 'AC' | 'DC';
  /** AC: 1 or 3 phases. */
  phases: 1 | 3;
  /** AC: phase-to-neutral voltage; DC: nominal battery voltage. */
  voltageV: number;
  /** Capacity of the EVs that plug in, Wh. */
  batteryWh: number;
}

export interface Meter {
  /** Lifetime energy register, Wh (fractional; reported rounded). */
  registerWh: number;
  /** Power drawn now, W. */
  powerW: number;
  /** State of charge of the plugged EV, %. */
  soc: number;
  /** Time the model was last brought up to date, epoch ms. */
  at: number;
  /** Whether a session is drawing power. */
  active: boolean;
  /** What the charging profiles let the connector offer now, W (none while the point holds no profile: its maximum). */
  limitW?: number;
}

const STEP_MS = 60_000;

/** The register as reported: whole Wh, immune to float crumbs (10.5 min × 11 kW is 1925 Wh, not 1924). */
export const wholeWh = (meter: Meter) => Math.floor(meter.registerWh + 1e-6);
const TAPER_FROM = 80;

/** What the EV accepts at this state of charge, within what the connector offers. */
export function powerAt(spec: ElectricalSpec, soc: number, limitW = Infinity): number {
  if (soc >= 100) return 0;
  const wanted = soc <= TAPER_FROM ? spec.maxPowerW : Math.max(spec.maxPowerW * 0.1, (spec.maxPowerW * (100 - soc)) / (100 - TAPER_FROM));
  return Math.max(0, Math.min(wanted, limitW));
}

/** What the connector offers: its maximum, or less when a charging profile says so. */
export const offeredW = (spec: ElectricalSpec, meter: Meter) => Math.min(spec.maxPowerW, meter.limitW ?? Infinity);

/**
 * Integrates energy and state of charge up to `now`, in steps short enough for the taper. The
 * limit is the one in force over the whole span: whoever changes it advances the meter first.
 */
export function advance(meter: Meter, spec: ElectricalSpec, now: number): void {
  if (!meter.active) meter.at = Math.max(meter.at, now); // nothing flows: no need to walk the time
  while (meter.at < now) {
    const to = Math.min(now, meter.at + STEP_MS);
    if (meter.active) {
      meter.powerW = powerAt(spec, meter.soc, meter.limitW);
      const wh = (meter.powerW * (to - meter.at)) / 3_600_000;
      meter.registerWh += wh;
      meter.soc = Math.min(100, meter.soc + (wh / spec.batteryWh) * 100);
    }
    meter.at = to;
  }
  meter.powerW = meter.active ? powerAt(spec, meter.soc, meter.limitW) : 0;
}

export function voltage(spec: ElectricalSpec, meter: Meter, jitter: number): number {
  // A DC battery's voltage climbs with its charge; the AC grid wobbles a little.
  return spec.current === 'DC' ? spec.voltageV * (0.9 + 0.2 * (meter.soc / 100)) : spec.voltageV + jitter * 4 - 2;
}

const perPhase = (spec: ElectricalSpec, w: number, v: number) => (spec.current === 'DC' ? w / v : w / (v * spec.phases));

const fixed1 = (n: number) => (Math.round(n * 10) / 10).toString();

/** Readings of `measurands` at the meter's current state, in OCPP's sampled-value form. */
export function sample(
  spec: ElectricalSpec,
  meter: Meter,
  measurands: readonly string[],
  context: ReadingContext,
  timestamp: string,
  random: () => number,
): MeterValue {
  const v = voltage(spec, meter, random());
  const sampledValue: SampledValue[] = [];
  const add = (measurand: Measurand, value: string, unit?: string, location?: SampledValue['location']) =>
    sampledValue.push({ value, context, format: 'Raw', measurand, ...(location ? { location } : {}), ...(unit ? { unit } : {}) });
  for (const m of measurands) {
    switch (m) {
      case 'Energy.Active.Import.Register':
        add(m, wholeWh(meter).toString(), 'Wh', 'Outlet');
        break;
      case 'Power.Active.Import':
        add(m, Math.round(meter.powerW).toString(), 'W', 'Outlet');
        break;
      case 'Power.Offered':
        add(m, Math.round(offeredW(spec, meter)).toString(), 'W', 'Outlet');
        break;
      case 'Current.Import':
        add(m, fixed1(perPhase(spec, meter.powerW, v)), 'A', 'Outlet');
        break;
      case 'Current.Offered':
        add(m, fixed1(perPhase(spec, offeredW(spec, meter), v)), 'A', 'Outlet');
        break;
      case 'Voltage':
        add(m, fixed1(v), 'V', 'Outlet');
        break;
      case 'SoC':
        if (meter.active || meter.soc > 0) add(m, Math.floor(meter.soc).toString(), 'Percent', 'EV');
        break;
      case 'Temperature':
        // The connector warms with the load it carries.
        add(m, fixed1(24 + 18 * (meter.powerW / spec.maxPowerW) + random()), 'Celsius', 'Outlet');
        break;
      case 'Frequency':
        add(m, fixed1(49.9 + random() * 0.2)); // OCPP 1.6 has no unit for frequency
        break;
      default:
        break; // a measurand this meter does not have
    }
  }
  return { timestamp, sampledValue };
}
