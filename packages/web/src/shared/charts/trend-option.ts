import type { LineChartOption } from './EChart';
import { compactTick } from './scale';

export interface ChartPoint {
  /** X value, e.g. a timestamp in ms or a bucket's index. */
  x: number;
  y: number;
}

export interface TrendFormat {
  /** Axis and tooltip texts: the caller formats (and translates) them. */
  formatX: (x: number) => string;
  /** A value at the unit's full precision, as the tooltip shows it; y ticks drop needless decimals from it. */
  formatY: (y: number) => string;
  /** About how many x labels. */
  xTicks?: number;
  /** x is a time in ms (ticks on round times), else a bucket's index (ticks on whole buckets). */
  time?: boolean;
  /** The smallest step the y texts show (the unit's resolution: 1 cent, 10 W for kW with two decimals), so no two ticks read the same. */
  yStep?: number;
  color: string;
  /** Axis text and grid line colours of the theme. */
  textColor: string;
  splitColor: string;
}

/**
 * The ECharts option of a trend: one line with its area from zero, on a value x axis spanning the
 * points (time or bucket index), y from zero, the axis texts and the tooltip in the caller's words.
 */
export function trendOption(points: ChartPoint[], f: TrendFormat): LineChartOption {
  const xs = points.map((p) => p.x);
  const x0 = xs.length ? Math.min(...xs) : 0;
  const x1 = xs.length ? Math.max(...xs) : 1;
  const span = x1 > x0 ? x1 - x0 : 1;
  const ticks = f.xTicks ?? 6;
  return {
    animation: false,
    grid: { top: 12, right: 24, bottom: 24, left: 64 },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const first = Array.isArray(params) ? params[0] : params;
        const value = first?.value as [number, number] | undefined;
        return value ? `${f.formatX(value[0])} · ${f.formatY(value[1])}` : '';
      },
    },
    xAxis: f.time
      ? {
          type: 'time',
          min: x0,
          max: x0 + span,
          splitNumber: ticks,
          splitLine: { show: false },
          axisLabel: { color: f.textColor, formatter: (v: number) => f.formatX(v), hideOverlap: true },
        }
      : {
          type: 'value',
          min: x0,
          max: x0 + span,
          interval: Math.max(1, Math.ceil(span / Math.max(1, ticks - 1))),
          splitLine: { show: false },
          axisLabel: { color: f.textColor, formatter: (v: number) => f.formatX(v), hideOverlap: true },
        },
    yAxis: {
      type: 'value',
      min: 0,
      splitNumber: 4,
      minInterval: f.yStep ?? 1,
      splitLine: { lineStyle: { color: f.splitColor } },
      axisLabel: { color: f.textColor, formatter: (v: number) => compactTick(f.formatY(v)) },
    },
    series: [
      {
        type: 'line',
        data: points.map((p) => [p.x, p.y]),
        showSymbol: points.length <= 1,
        lineStyle: { color: f.color, width: 2 },
        itemStyle: { color: f.color },
        areaStyle: { color: f.color, opacity: 0.15 },
      },
    ],
  };
}

/** The index of the point whose x is nearest to `x`. */
export function nearestPoint(points: ChartPoint[], x: number): number {
  let best = -1;
  points.forEach((p, i) => {
    if (best < 0 || Math.abs(p.x - x) < Math.abs(points[best]!.x - x)) best = i;
  });
  return best;
}
