import type { ProcessSample } from '@csms/contract';
import { describe, expect, it } from 'vitest';
import { processTimeFormat } from './process-charts';
import { compactTick } from './scale';
import { nearestPoint, trendOption } from './trend-option';

describe('axis texts', () => {
  it('drops needless decimals from tick texts only', () => {
    expect(['300.00', '7.50', '0.25', '0.00', '1.000', '10.050', '100', '1:02:05'].map(compactTick)).toEqual([
      '300',
      '7.5',
      '0.25',
      '0',
      '1',
      '10.05',
      '100',
      '1:02:05',
    ]);
    expect(compactTick('1,200.50 kW')).toBe('1,200.5 kW');
  });

  it('writes the process curves’ time on the station’s clock, with the day when the session crosses midnight', () => {
    const sample = (at: string) => ({ at }) as ProcessSample;
    const sameDay = processTimeFormat([sample('2026-03-01T23:30:00Z'), sample('2026-03-02T00:40:00Z')], 'Asia/Shanghai');
    expect(sameDay(Date.parse('2026-03-01T23:40:00Z'))).toBe('07:40:00');
    const acrossMidnight = processTimeFormat([sample('2026-03-01T15:30:00Z'), sample('2026-03-01T16:40:00Z')], 'Asia/Shanghai');
    expect(acrossMidnight(Date.parse('2026-03-01T16:05:00Z'))).toBe('03-02 00:05');
  });
});

describe('trend chart option', () => {
  const kw = (w: number) => (w / 1000).toFixed(2);
  const colours = { color: '#1677ff', textColor: '#666', splitColor: '#eee' };
  const power = [0, 1, 2, 3].map((i) => ({ x: i * 3_600_000, y: [0, 7500, 300_000, 4000][i]! }));

  it('plots every point on an x axis spanning them, y from zero, in the caller’s texts', () => {
    const option = trendOption(power, { formatX: (x) => `h${x / 3_600_000}`, formatY: kw, xTicks: 4, ...colours });
    const series = (option.series as { data: number[][] }[])[0]!;
    expect(series.data).toEqual(power.map((p) => [p.x, p.y]));
    const x = option.xAxis as { min: number; max: number; interval: number; axisLabel: { formatter: (v: number) => string } };
    expect([x.min, x.max, x.interval]).toEqual([0, 3 * 3_600_000, 3_600_000]);
    expect(x.axisLabel.formatter(7_200_000)).toBe('h2');
    const y = option.yAxis as { min: number; axisLabel: { formatter: (v: number) => string } };
    expect(y.min).toBe(0);
    // No two y ticks read the same: the axis steps at least by the unit's resolution (1 by default).
    expect(y).toMatchObject({ minInterval: 1 });
    expect(trendOption(power, { formatX: String, formatY: kw, time: true, yStep: 10, ...colours })).toMatchObject({
      xAxis: { type: 'time', min: 0, max: 3 * 3_600_000 },
      yAxis: { minInterval: 10 },
    });
    // Ticks compact, the tooltip at the unit's full precision.
    expect(y.axisLabel.formatter(100_000)).toBe('100');
    const tooltip = option.tooltip as { formatter: (p: unknown) => string };
    expect(tooltip.formatter([{ value: [3_600_000, 7500] }])).toBe('h1 · 7.50');
  });

  it('still draws an axis for one point or none', () => {
    const one = trendOption([{ x: 5, y: 1 }], { formatX: String, formatY: String, ...colours });
    expect(one.xAxis).toMatchObject({ min: 5, max: 6 });
    expect((one.series as { showSymbol: boolean }[])[0]!.showSymbol).toBe(true);
    const none = trendOption([], { formatX: String, formatY: String, ...colours });
    expect(none.xAxis).toMatchObject({ min: 0, max: 1 });
  });
});

describe('picking a point', () => {
  it('picks the point nearest to the click, none of none', () => {
    const points = [0, 10, 20].map((x) => ({ x, y: 1 }));
    expect([nearestPoint(points, -5), nearestPoint(points, 14), nearestPoint(points, 16), nearestPoint(points, 99)]).toEqual([0, 1, 2, 2]);
    expect(nearestPoint([], 3)).toBe(-1);
  });
});
