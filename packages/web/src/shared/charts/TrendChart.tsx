import { Skeleton, theme } from 'antd';
import { lazy, Suspense } from 'react';
import { nearestPoint, trendOption, type ChartPoint } from './trend-option';

export type { ChartPoint };

// ECharts comes with the first chart a screen draws, not with the route.
const EChart = lazy(() => import('./EChart'));

export interface TrendChartProps {
  points: ChartPoint[];
  height?: number;
  formatX: (x: number) => string;
  formatY: (y: number) => string;
  /** Accessible name of the chart. */
  label: string;
  /** About how many x labels. */
  xTicks?: number;
  /** x is a time in ms, else a bucket's index. */
  time?: boolean;
  /** The unit's resolution in y's own numbers (default 1). */
  yStep?: number;
  color?: string;
  /** A click in the plot picks the point nearest to it (by x). */
  onPointClick?: (index: number) => void;
}

/**
 * A line-and-area trend drawn by ECharts (DESIGN.md §10): y from zero, the caller's axis and tooltip
 * texts. `data-points` on the frame says how many points it plots.
 */
export function TrendChart({ points, height = 220, formatX, formatY, label, xTicks, time, yStep, color, onPointClick }: TrendChartProps) {
  const { token } = theme.useToken();
  const stroke = color ?? token.colorPrimary;
  // Built on every render: the formatters carry the language and the period, and the data is small.
  const option = trendOption(points, {
    formatX,
    formatY,
    xTicks,
    time,
    yStep,
    color: stroke,
    textColor: token.colorTextSecondary,
    splitColor: token.colorSplit,
  });
  return (
    <div data-testid="chart-line" data-points={points.length} style={{ width: '100%', height }}>
      <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height }} />}>
        <EChart
          option={option}
          label={label}
          height={height}
          onPick={
            onPointClick &&
            ((x) => {
              const i = nearestPoint(points, x);
              if (i >= 0) onPointClick(i);
            })
          }
        />
      </Suspense>
    </div>
  );
}
