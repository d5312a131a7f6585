import { UserAddOutlined } from '@ant-design/icons';
import { chargeUserApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { call } from '../../shared/api/client';
import { DrillLink } from '../../shared/resource/DrillLink';

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
    queryKey: [chargeUserApi.newMembers.path, tz],
    queryFn: ({ signal }) => call(chargeUserApi.newMembers, { query: { tz } }, { signal, silent: true }),
    refetchInterval: 60_000,
  });
  // The same browser days as the counts, as instants: the charge user list shows who they are.
  const now = dayjs();
  const figures = [
    { key: 'today', since: now.startOf('day'), title: t('chargeUser.newToday'), value: data?.today },
    { key: 'month', since: now.startOf('month'), title: t('chargeUser.newThisMonth'), value: data?.month },
  ];
  return (
    <Card title={t('chargeUser.newMembers')} extra={<UserAddOutlined />} data-testid="widget-new-members">
      <Row gutter={16}>
        {figures.map((f) => (
          <Col key={f.key} span={12}>
            <DrillLink
              to="/userManagement/chargeUser"
              query={{ startTime: f.since.toISOString(), endTime: now.endOf('day').toISOString() }}
              permi="user:chargeUser:list"
              testId={`drill-members-${f.key}`}
            >
              <Statistic title={f.title} value={f.value ?? 0} loading={isLoading} />
            </DrillLink>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
