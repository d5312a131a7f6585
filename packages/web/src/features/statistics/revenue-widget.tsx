import { api, trendPeriods, type TrendPeriod } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Segmented, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { AreaChart } from '../../shared/charts/AreaChart';
import { formatMoney } from '../../shared/format/units';

/** Label of a bucket from its first day: the day, the week's Monday, or the month. */
const bucketLabel = (period: TrendPeriod, start: string) => dayjs(start).format(period === 'month' ? 'YYYY-MM' : 'MM-DD');

/** Dashboard: billed income over the past 15 days, 12 weeks or 12 months (by session start, server time zone). */
export default function RevenueWidget() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TrendPeriod>('day');
  const { data } = useQuery({
    queryKey: [api.statistics.revenueTrend.path, { period }],
    queryFn: ({ signal }) => call(api.statistics.revenueTrend, { query: { period } }, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const buckets = data?.period === period ? data.points : [];
  const points = buckets.map((p, i) => ({ x: i, y: p.incomeCents }));
  const total = buckets.reduce((sum, p) => sum + p.incomeCents, 0);
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
      <Typography.Text type="secondary" data-testid="trend-total">
        {`${t('statistics.trend.income')}: ${formatMoney(total)}`}
      </Typography.Text>
      <AreaChart
        points={points}
        label={t('statistics.trend.label')}
        formatX={(x) => (buckets[x] ? bucketLabel(period, buckets[x].start) : '')}
        formatY={(y) => formatMoney(y)}
        xTicks={period === 'day' ? 8 : 6}
      />
    </Card>
  );
}
