import { ThunderboltOutlined } from '@ant-design/icons';
import { statisticsApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatKwh, formatMoney, formatPercent } from '../../shared/format/units';
import { DrillLink } from '../../shared/resource/DrillLink';

/** Dashboard: today's energy, income, charge count and connector utilisation, in the caller's scope. */
export default function TodayWidget() {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: [statisticsApi.today.path],
    queryFn: ({ signal }) => call(statisticsApi.today, {}, { signal, silent: true }),
    refetchInterval: 60_000,
  });
  // Today's figures open today's records (days of the same zone); utilisation the sessions charging now.
  const today = data ? { startTime: data.date, endTime: data.date } : {};
  const records = { to: '/historyRecord/chargeRecord', query: today, permi: 'record:charge:list' };
  const items = [
    { key: 'energy', value: formatKwh(data?.energyWh ?? 0), drill: records },
    { key: 'income', value: formatMoney(data?.incomeCents ?? 0), drill: records },
    { key: 'count', value: String(data?.chargeCount ?? 0), drill: records },
    {
      key: 'utilisation',
      value: formatPercent(data?.utilisation ?? 0),
      drill: { to: '/realTimeMonitor/charging', query: {}, permi: 'monitor:charging:list' },
    },
  ];
  return (
    <Card
      title={t('statistics.today.title')}
      extra={
        <Tooltip title={t('statistics.today.hint', { tz: data?.timeZone ?? '' })}>
          <ThunderboltOutlined />
        </Tooltip>
      }
      data-testid="widget-today"
    >
      <Row gutter={[16, 16]}>
        {items.map((i) => (
          <Col key={i.key} xs={12} md={6}>
            <DrillLink {...i.drill} testId={`drill-today-${i.key}`}>
              <Statistic title={t(`statistics.today.${i.key}`)} value={i.value} loading={isLoading} data-testid={`today-${i.key}`} />
            </DrillLink>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
