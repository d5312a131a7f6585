import type { ControllerSample } from '@csms/contract';
import { theme } from 'antd';
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
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';

// Only what this chart draws: lines on a grid with a tooltip and a legend, as SVG.
register([LineChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

type Option = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

/**
 * A local controller's last hour: its limit, what the balancer allocated and what the chargers drew
 * (DESIGN.md §10: ECharts, tree-shaken core). Loaded lazily by the load balancing view, so the
 * Smart Charging route does not carry ECharts until a chart is drawn.
 */
export default function ControllerChart({ samples }: { samples: ControllerSample[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = box.current!;
    const c = init(el, null, { renderer: 'svg' });
    chart.current = c;
    const resized = new ResizeObserver(() => c.resize());
    resized.observe(el);
    return () => {
      resized.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  const option = useMemo<Option>(() => {
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

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={box}
      role="img"
      aria-label={t('loadBalancing.lastHour')}
      style={{ width: '100%', height: 240 }}
      data-testid="controller-chart"
    />
  );
}
