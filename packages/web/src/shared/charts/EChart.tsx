import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { init, use as register, type ComposeOption, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what the console's charts draw: lines (and steps) on a grid with a tooltip and a legend, as SVG.
register([LineChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

export type LineChartOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;
export type { LineSeriesOption };

/**
 * An ECharts line chart (DESIGN.md §10: the tree-shaken core). Import it lazily from the screen that
 * draws, so that a route does not carry ECharts until a chart is shown.
 */
export default function EChart({
  option,
  label,
  height = 240,
  testId,
}: {
  option: LineChartOption;
  label: string;
  height?: number;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = box.current!;
    const c = init(el, null, { renderer: 'svg' });
    chart.current = c;
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

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} data-testid={testId} />;
}
