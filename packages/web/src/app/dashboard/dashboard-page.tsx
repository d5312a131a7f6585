import { FundProjectionScreenOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Col, Descriptions, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../shared/auth/useAuth';
import { dashboardWidgets, type DashboardWidget } from './widgets';

function WelcomeHeader() {
  const { t } = useTranslation();
  const { info } = useAuth();
  if (!info) return null;
  const name = info.user.name || info.user.username;
  const last = info.user.lastLoginTime;
  return (
    <Card>
      <Flex gap={16} align="center" wrap>
        <Avatar size={56} src={info.user.avatar || undefined} icon={<UserOutlined />} />
        <div style={{ flex: 1, minWidth: 240 }}>
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {t('shell.dashboard.welcome', { name })}
          </Typography.Title>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, md: 3 }}
            items={[
              { key: 'provider', label: t('shell.dashboard.provider'), children: info.providerName },
              { key: 'role', label: t('shell.dashboard.role'), children: info.roleName ?? info.roles.join(', ') },
              {
                key: 'last',
                label: t('shell.dashboard.lastLogin'),
                children: last ? dayjs(last).format('YYYY-MM-DD HH:mm:ss') : t('shell.dashboard.never'),
              },
            ]}
          />
        </div>
        <Button icon={<FundProjectionScreenOutlined />} href="/largeScreen" target="_blank" data-testid="open-large-screen">
          {t('largeScreen.open')}
        </Button>
      </Flex>
    </Card>
  );
}

/** The dashboard frame: a welcome header over the widgets the user may see. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { hasPermi, hasRole } = useAuth();
  const visible = dashboardWidgets.filter((w: DashboardWidget) => (!w.permi || hasPermi(w.permi)) && (!w.role || hasRole(w.role)));
  return (
    <Flex vertical gap={16}>
      <WelcomeHeader />
      {visible.length === 0 ? (
        <Card>
          <Empty description={t('shell.dashboard.empty')} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {visible.map((w) => (
            <Col key={w.key} xs={24} lg={w.span ?? 12}>
              <Suspense
                fallback={
                  <Card>
                    <Skeleton active />
                  </Card>
                }
              >
                <w.component />
              </Suspense>
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
