import { DatabaseOutlined } from '@ant-design/icons';
import { statisticsApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { DrillLink } from '../../shared/resource/DrillLink';

const STATIONS = '/configurationManagement/stationManagement';

/** Dashboard: what the caller's scope holds (stations, points by kind, connectors, charge users, cards), each opening its list. */
export default function AssetsWidget() {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: [statisticsApi.assets.path],
    queryFn: ({ signal }) => call(statisticsApi.assets, {}, { signal, silent: true }),
    refetchInterval: 300_000,
  });
  const items = [
    { key: 'stations', value: data?.stations, to: STATIONS, query: {}, permi: 'config:station:list' },
    {
      key: 'points',
      value: data?.points,
      to: STATIONS,
      query: { tab: 'points' },
      permi: 'config:point:list',
      detail: data ? t('statistics.assets.kinds', { ac: data.acPoints, dc: data.dcPoints, acdc: data.acdcPoints }) : undefined,
    },
    { key: 'connectors', value: data?.connectors, to: STATIONS, query: { tab: 'points' }, permi: 'config:point:list' },
    { key: 'chargeUsers', value: data?.chargeUsers, to: '/userManagement/chargeUser', query: {}, permi: 'user:chargeUser:list' },
    { key: 'cards', value: data?.cards, to: '/userManagement/cardManage', query: {}, permi: 'user:card:list' },
  ];
  return (
    <Card title={t('statistics.assets.title')} extra={<DatabaseOutlined />} data-testid="widget-assets">
      <Row gutter={[16, 16]}>
        {items.map((i) => (
          <Col key={i.key} xs={12} md={8} xl={{ flex: '20%' }}>
            <DrillLink to={i.to} query={i.query} permi={i.permi} testId={`drill-assets-${i.key}`}>
              <Statistic title={t(`statistics.assets.${i.key}`)} value={i.value ?? 0} loading={isLoading} data-testid={`assets-${i.key}`} />
            </DrillLink>
            {i.detail && <Typography.Text type="secondary">{i.detail}</Typography.Text>}
          </Col>
        ))}
      </Row>
    </Card>
  );
}
