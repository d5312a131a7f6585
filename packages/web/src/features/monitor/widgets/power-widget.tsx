import { powerBucketMinutes, monitorApi } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Segmented, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../shared/api/client';
import { TrendChart } from '../../../shared/charts/TrendChart';
import { formatKw } from '../../../shared/format/units';
import { DrillLink } from '../../../shared/resource/DrillLink';

type Bucket = (typeof powerBucketMinutes)[number];

/** Dashboard: total charging power over the last 24 hours (meter values, caller's scope). */
export default function PowerWidget() {
  const { t } = useTranslation();
  const [bucket, setBucket] = useState<Bucket>(60);
  const { data } = useQuery({
    queryKey: [monitorApi.powerTrend.path, { bucketMinutes: bucket }],
    queryFn: ({ signal }) => call(monitorApi.powerTrend, { query: { bucketMinutes: bucket } }, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const points = (data?.points ?? []).map((p) => ({ x: Date.parse(p.at), y: p.powerW }));
  const peak = Math.max(0, ...points.map((p) => p.y));
  const last = points[points.length - 1]?.y ?? 0;
  return (
    <Card
      title={t('monitor.widgets.power')}
      extra={
        <Segmented<Bucket>
          size="small"
          value={bucket}
          onChange={setBucket}
          options={powerBucketMinutes.map((m) => ({ value: m, label: t(`monitor.widgets.bucket${m}`) }))}
        />
      }
    >
      <Space size={16} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('monitor.widgets.now', { value: formatKw(last) })}</Typography.Text>
        <Typography.Text type="secondary">{t('monitor.widgets.peak', { value: formatKw(peak) })}</Typography.Text>
        <DrillLink to="/realTimeMonitor/charging" permi="monitor:charging:list" testId="drill-power" plain>
          {t('monitor.widgets.chargingNow')}
        </DrillLink>
      </Space>
      <TrendChart
        points={points}
        label={t('monitor.widgets.power')}
        formatX={(x) => dayjs(x).format('HH:mm')}
        formatY={(y) => formatKw(y)}
        time
        yStep={10}
      />
    </Card>
  );
}
