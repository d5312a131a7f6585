import { Card } from 'antd';
import { lazy, Suspense } from 'react';
import type { StatsChartOption } from '../../shared/charts/StatsChart';

// ECharts arrives with the first chart drawn, not with the screen.
const StatsChart = lazy(() => import('../../shared/charts/StatsChart'));

/** A statistics screen's chart under its title (the title is also the chart's accessible name). */
export function StatsChartCard({ title, option, testId }: { title: string; option: StatsChartOption; testId: string }) {
  return (
    <Card size="small" title={title}>
      <Suspense fallback={<div style={{ height: 280 }} />}>
        <StatsChart option={option} label={title} testId={testId} />
      </Suspense>
    </Card>
  );
}
