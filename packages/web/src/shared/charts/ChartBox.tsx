import { init, type EChartsCoreOption, type EChartsType } from 'echarts/core';
import { useEffect, useRef } from 'react';

export interface ChartBoxProps<O extends EChartsCoreOption> {
  option: O;
  label: string;
  height?: number;
  testId?: string;
  /** A click in the plot, as the x value under the pointer. */
  onPick?: (x: number) => void;
}

/**
 * The one React frame of an ECharts chart (SVG, following the box's width, disposed with it). The
 * chart kinds are registered by the module that imports it (EChart: lines; StatsChart: bars and heat
 * maps), so each screen's lazy chunk carries only the kinds it draws.
 */
export function ChartBox<O extends EChartsCoreOption>({ option, label, height = 240, testId, onPick }: ChartBoxProps<O>) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const el = box.current!;
    const c = init(el, null, { renderer: 'svg' });
    chart.current = c;
    c.getZr().on('click', (e) => {
      if (!pick.current || !c.containPixel('grid', [e.offsetX, e.offsetY])) return;
      const x = c.convertFromPixel({ xAxisIndex: 0 }, e.offsetX);
      if (typeof x === 'number' && Number.isFinite(x)) pick.current(x);
    });
    // Follows the box's width; where there is no layout (tests) it keeps its first size.
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => c.resize());
    resized?.observe(el);
    return () => {
      resized?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      style={{ width: '100%', height, cursor: onPick ? 'pointer' : undefined }}
      data-testid={testId}
    />
  );
}
