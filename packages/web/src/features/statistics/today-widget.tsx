import { ThunderboltOutlined } from '@ant-design/icons';
import { api } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatKwh, formatMoney, formatPercent } from '../../shared/format/units';

/** Dashboard: today's energy, income, charge count and connector utilisation, in the caller's scope. */
export default function TodayWidget() {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: [api.statistics.today.path],
    queryFn: ({ signal }) => call(api.statistics.today, {}, { signal, silent: true }),
    refetchInterval: 60_000,
  });
  const items = [
    { key: 'energy', value: formatKwh(data?.energyWh ?? 0) },
    { key: 'income', value: formatMoney(data?.incomeCents ?? 0) },
    { key: 'count', value: String(data?.chargeCount ?? 0) },
    { key: 'utilisation', value: formatPercent(data?.utilisation ?? 0) },
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
            <Statistic title={t(`statistics.today.${i.key}`)} value={i.value} loading={isLoading} data-testid={`today-${i.key}`} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
