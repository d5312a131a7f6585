import { UserAddOutlined } from '@ant-design/icons';
import { api } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';

const zone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
};

/** Dashboard: charge users registered today and this month (the browser's days), in the user's scope. */
export default function NewMembersWidget() {
  const { t } = useTranslation();
  const tz = zone();
  const { data, isLoading } = useQuery({
    queryKey: [api.chargeUser.newMembers.path, tz],
    queryFn: ({ signal }) => call(api.chargeUser.newMembers, { query: { tz } }, { signal, silent: true }),
    refetchInterval: 60_000,
  });
  return (
    <Card title={t('chargeUser.newMembers')} extra={<UserAddOutlined />} data-testid="widget-new-members">
      <Row gutter={16}>
        <Col span={12}>
          <Statistic title={t('chargeUser.newToday')} value={data?.today ?? 0} loading={isLoading} />
        </Col>
        <Col span={12}>
          <Statistic title={t('chargeUser.newThisMonth')} value={data?.month ?? 0} loading={isLoading} />
        </Col>
      </Row>
    </Card>
  );
}
