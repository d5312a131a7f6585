import { trendPeriods, type TrendPeriod, statisticsApi } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Segmented, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAuth } from '../../shared/auth/useAuth';
import { call } from '../../shared/api/client';
import { TrendChart } from '../../shared/charts/TrendChart';
import { formatMoney } from '../../shared/format/units';
import { DrillLink } from '../../shared/resource/DrillLink';
import { toSearchParams } from '../../shared/resource/url-query';

/** Label of a bucket from its first day: the day, the week's Monday, or the month. */
const bucketLabel = (period: TrendPeriod, start: string) => dayjs(start).format(period === 'month' ? 'YYYY-MM' : 'MM-DD');

const RECORDS = '/historyRecord/chargeRecord';

/** The records' day filter of bucket `i`: its first day to the day before the next bucket (the last runs to `today`). */
export function bucketDays(starts: string[], i: number, today: string): { startTime: string; endTime: string } {
  const next = starts[i + 1];
  return { startTime: starts[i]!, endTime: next ? dayjs(next).subtract(1, 'day').format('YYYY-MM-DD') : today };
}

/** Dashboard: billed income over the past 15 days, 12 weeks or 12 months (by session start, server time zone). */
export default function RevenueWidget() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TrendPeriod>('day');
  const { data } = useQuery({
    queryKey: [statisticsApi.revenueTrend.path, { period }],
    queryFn: ({ signal }) => call(statisticsApi.revenueTrend, { query: { period } }, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const buckets = data?.period === period ? data.points : [];
  const points = buckets.map((p, i) => ({ x: i, y: p.incomeCents }));
  const total = buckets.reduce((sum, p) => sum + p.incomeCents, 0);
  // A bucket opens its records; the total, the records of the whole span. Days of the server's zone, as the trend's.
  const navigate = useNavigate();
  const canDrill = useAuth().hasPermi('record:charge:list');
  const starts = buckets.map((b) => b.start);
  const today = dayjs().format('YYYY-MM-DD');
  const openBucket = (i: number) => navigate(`${RECORDS}?${toSearchParams(bucketDays(starts, i, today))}`);
  return (
    <Card
      title={t('statistics.trend.title')}
      extra={
        <Segmented<TrendPeriod>
          size="small"
          value={period}
          onChange={setPeriod}
          options={trendPeriods.map((p) => ({ value: p, label: t(`enums.trendPeriod.${p}`) }))}
          data-testid="trend-period"
        />
      }
      data-testid="widget-revenue"
    >
      <DrillLink
        to={RECORDS}
        query={starts.length ? { startTime: starts[0], endTime: today } : {}}
        permi="record:charge:list"
        testId="drill-trend"
      >
        <Typography.Text type="secondary" data-testid="trend-total">
          {`${t('statistics.trend.income')}: ${formatMoney(total)}`}
        </Typography.Text>
      </DrillLink>
      <TrendChart
        points={points}
        label={t('statistics.trend.label')}
        formatX={(x) => (buckets[x] ? bucketLabel(period, buckets[x].start) : '')}
        formatY={(y) => formatMoney(y)}
        xTicks={period === 'day' ? 8 : 6}
        onPointClick={canDrill ? openBucket : undefined}
      />
    </Card>
  );
}
