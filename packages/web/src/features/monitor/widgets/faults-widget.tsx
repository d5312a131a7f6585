import { monitorApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, List, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../shared/api/client';
import { DictTag } from '../../../shared/dict/DictTag';
import { formatDateTime } from '../../../shared/resource/cells';
import { DrillLink } from '../../../shared/resource/DrillLink';
import { useMonitorLive } from '../live';

const FAULTS = 8;

/** Dashboard: the latest faults not yet cleared, refreshed as chargers report faults and recoveries. */
export default function FaultsWidget() {
  const { t } = useTranslation();
  useMonitorLive();
  const { data, isLoading } = useQuery({
    queryKey: [monitorApi.faults.path, { limit: FAULTS }],
    queryFn: ({ signal }) => call(monitorApi.faults, { query: { limit: FAULTS } }, { signal, silent: true }),
  });
  return (
    <Card
      title={t('monitor.widgets.faults')}
      extra={
        <DrillLink to="/historyRecord/alarmRecord" query={{ state: 'open' }} permi="record:alarm:list" testId="drill-faults" plain>
          {t('monitor.widgets.allFaults')}
        </DrillLink>
      }
    >
      {!isLoading && (data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.widgets.noFaults')} />
      ) : (
        <List
          size="small"
          loading={isLoading}
          dataSource={data ?? []}
          rowKey="alarmId"
          renderItem={(f) => (
            <List.Item
              data-testid="live-fault"
              extra={
                <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(f.occurredAt)}
                </Typography.Text>
              }
            >
              {/* The error code in words, as in the alarm records; the charger's own text on hover. */}
              <Space size={8} wrap>
                <Tag color={f.level === 'serious' ? 'error' : 'warning'}>{t(`enums.alarmLevel.${f.level}`)}</Tag>
                <Typography.Text strong>{f.serialNumber}</Typography.Text>
                <span>{t('monitor.connectorNo', { n: f.connectorNo })}</span>
                <Tooltip title={f.info || undefined}>
                  <span>
                    <DictTag type="chargePointErrorCode" value={f.errorCode} />
                  </span>
                </Tooltip>
                <Typography.Text type="secondary">{f.stationName}</Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
