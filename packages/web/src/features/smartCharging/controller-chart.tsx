import type { ControllerSample } from '@csms/contract';
import { theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import EChart, { type LineChartOption, type LineSeriesOption } from '../../shared/charts/EChart';

/**
 * A local controller's last hour: its limit, what the balancer allocated and what the chargers drew
 * (DESIGN.md §10: ECharts, tree-shaken core). Loaded lazily by the load balancing view, so the
 * Smart Charging route does not carry ECharts until a chart is drawn.
 */
export default function ControllerChart({ samples }: { samples: ControllerSample[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const option = useMemo<LineChartOption>(() => {
    const at = (s: ControllerSample) => Date.parse(s.at);
    const series = (key: 'limitW' | 'allocatedW' | 'measuredW', color: string, extra: LineSeriesOption): LineSeriesOption => ({
      type: 'line',
      name: t(`fields.localController.${key}`),
      data: samples.map((s) => [at(s), s[key]]),
      showSymbol: false,
      color,
      ...extra,
    });
    const axisText = { color: token.colorTextSecondary, fontSize: 11 };
    return {
      animation: false,
      grid: { left: 8, right: 16, top: 36, bottom: 8, outerBoundsMode: 'same' },
      legend: { top: 0, textStyle: { color: token.colorText } },
      tooltip: { trigger: 'axis', valueFormatter: (v) => t('loadBalancing.watts', { value: Array.isArray(v) ? v[0] : v }) },
      xAxis: { type: 'time', axisLabel: { ...axisText, formatter: '{HH}:{mm}' } },
      yAxis: { type: 'value', min: 0, axisLabel: axisText, splitLine: { lineStyle: { color: token.colorSplit } } },
      series: [
        // A limit and an allocation hold from one plan to the next: steps, not slopes.
        series('limitW', token.colorError, { step: 'end', lineStyle: { type: 'dashed', width: 1.5 } }),
        series('allocatedW', token.colorPrimary, { step: 'end', lineStyle: { width: 1.5 } }),
        series('measuredW', token.colorSuccess, { lineStyle: { width: 1.5 }, areaStyle: { opacity: 0.15 } }),
      ],
    };
  }, [samples, t, token]);

  return <EChart option={option} label={t('loadBalancing.lastHour')} testId="controller-chart" />;
}
