import { ruleKeyOf, ruleKinds, WARNING_HIGH_MARGIN, type RuleKind, type WarningLevel } from '@csms/contract';
import type { ForecastDay } from './forecast-client.js';

export interface Thresholds {
  heatMaxC: number | null;
  frostMinC: number | null;
  stormWindKmh: number | null;
  heavyRainMm: number | null;
}

export interface Crossing {
  kind: RuleKind;
  day: string;
  level: WarningLevel;
  value: number;
  threshold: number;
}

/** The forecast value each rule reads, and whether it crosses upwards (heat, storm, rain) or downwards (frost). */
const reading: Record<RuleKind, { value: (d: ForecastDay) => number | null; below: boolean }> = {
  heat: { value: (d) => d.tempMaxC, below: false },
  frost: { value: (d) => d.tempMinC, below: true },
  storm: { value: (d) => d.windMaxKmh, below: false },
  heavyRain: { value: (d) => d.precipitationMm, below: false },
};

/** The level past the threshold: `high` beyond its margin (`WARNING_HIGH_MARGIN`), else `medium`. */
function levelOf(kind: RuleKind, value: number, threshold: number): WarningLevel {
  const m = WARNING_HIGH_MARGIN[kind];
  const high = m.times !== undefined ? threshold * m.times : threshold + (m.add ?? 0);
  return (reading[kind].below ? value <= high : value >= high) ? 'high' : 'medium';
}

/** Every rule the days' forecast crosses: at most one per kind and day. A rule that is off (null) raises nothing. */
export function crossings(days: ForecastDay[], rules: Thresholds): Crossing[] {
  const out: Crossing[] = [];
  for (const d of days) {
    for (const kind of ruleKinds) {
      const threshold = rules[ruleKeyOf[kind]];
      const value = reading[kind].value(d);
      if (threshold === null || value === null) continue;
      if (reading[kind].below ? value <= threshold : value >= threshold)
        out.push({ kind, day: d.day, value, threshold, level: levelOf(kind, value, threshold) });
    }
  }
  return out;
}
