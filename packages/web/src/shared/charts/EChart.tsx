import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { use as register, type ComposeOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { ChartBox, type ChartBoxProps } from './ChartBox';

// Only what the console's charts draw: lines (and steps) on a grid with a tooltip and a legend, as SVG.
register([LineChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

export type LineChartOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;
export type { LineSeriesOption };

/**
 * An ECharts line chart (DESIGN.md §10: the tree-shaken core). Import it lazily from the screen that
 * draws, so that a route does not carry ECharts until a chart is shown.
 */
export default function EChart(props: ChartBoxProps<LineChartOption>) {
  return <ChartBox {...props} />;
}
