import { theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import EChart, { type LineChartOption } from '../../shared/charts/EChart';
import { formatDateTime } from '../../shared/resource/cells';

export interface Schedule {
  chargingRateUnit: string;
  duration: number | null;
  chargingSchedulePeriod: { startPeriod: number; limit: number; numberPhases: number | null }[];
}

/**
 * A composite schedule as the charger answered it: the limit over time as steps, from the schedule's
 * start (or from 0 s when it names none) to the end of its duration. Loaded with the answer.
 */
export default function ScheduleChart({ schedule, start }: { schedule: Schedule; start: string | null }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const option = useMemo<LineChartOption>(() => {
    const periods = schedule.chargingSchedulePeriod;
    const last = periods.at(-1);
    const end = schedule.duration ?? (last ? last.startPeriod + 3600 : 3600);
    const t0 = start ? Date.parse(start) : null;
    const x = (s: number) => (t0 === null ? s : t0 + s * 1000);
    const data = [...periods.map((p) => [x(p.startPeriod), p.limit]), ...(last ? [[x(end), last.limit]] : [])];
    const axisText = { color: token.colorTextSecondary, fontSize: 11 };
    const unit = schedule.chargingRateUnit;
    return {
      animation: false,
      grid: { left: 8, right: 16, top: 16, bottom: 8, outerBoundsMode: 'same' },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v) => `${Array.isArray(v) ? v[0] : v} ${unit}`,
        axisPointer: { label: { formatter: (p) => (t0 === null ? `${p.value} s` : formatDateTime(Number(p.value))) } },
      },
      xAxis:
        t0 === null
          ? { type: 'value', min: 0, max: end, axisLabel: { ...axisText, formatter: '{value} s' } }
          : { type: 'time', min: x(0), max: x(end), axisLabel: { ...axisText, formatter: '{HH}:{mm}' } },
      yAxis: { type: 'value', min: 0, name: unit, axisLabel: axisText, splitLine: { lineStyle: { color: token.colorSplit } } },
      series: [
        {
          type: 'line',
          name: t('monitor.dialog.limit'),
          step: 'end',
          data,
          showSymbol: true,
          color: token.colorPrimary,
          areaStyle: { opacity: 0.12 },
        },
      ],
    };
  }, [schedule, start, t, token]);
  return <EChart option={option} label={t('monitor.dialog.scheduleChart')} height={220} testId="schedule-chart" />;
}
