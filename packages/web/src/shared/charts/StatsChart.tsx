import { BarChart, HeatmapChart, LineChart, type BarSeriesOption, type HeatmapSeriesOption, type LineSeriesOption } from 'echarts/charts';
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

// The statistics screens' charts: bars and lines per day, and a heat map (weekday × hour) coloured per cell.
register([BarChart, LineChart, HeatmapChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

export type StatsChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | HeatmapSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

/**
 * An ECharts chart of the statistics screens (DESIGN.md §10: the tree-shaken core, SVG). Import it lazily
 * from the screen, so that ECharts arrives only with a chart.
 */
export default function StatsChart({ height = 280, ...props }: ChartBoxProps<StatsChartOption>) {
  return <ChartBox height={height} {...props} />;
}
