import { RedoOutlined } from '@ant-design/icons';
import { type FirmwareUpgradeDto, type FirmwareUpgradePointDto, firmwareUpgradeApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Flex, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { feedback } from '../../shared/feedback';
import { formatDateTime } from '../../shared/resource/cells';
import { isFailed, PointStateTag, StateCounts } from './state-tags';

/** How often the open view asks again: a charger reports each step of its download and install. */
export const POINTS_REFRESH_MS = 3_000;

/**
 * The points of one upgrade and where each stands, refreshed while open; the points that failed
 * can be sent the upgrade again.
 */
export function UpgradePointsDrawer({ row, onClose }: { row: FirmwareUpgradeDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
  const id = row?.id;
  const { data, isLoading, refetch } = useQuery({
    queryKey: [firmwareUpgradeApi.points.path, id],
    queryFn: ({ signal }) => call(firmwareUpgradeApi.points, { query: { id: id! } }, { signal }),
    enabled: id !== undefined,
    refetchInterval: POINTS_REFRESH_MS,
  });
  const points = data ?? [];
  const counts: Record<string, number> = {};
  for (const p of points) counts[p.state] = (counts[p.state] ?? 0) + 1;
  const failed = points.some((p) => isFailed(p.state));
  // An upgrade in waves: the current wave is the last one released (its points no longer wait).
  const waves = row?.waveSize !== null && row?.waveSize !== undefined;
  const waveCount = points.reduce((n, p) => Math.max(n, p.wave), 0);
  const current = points.filter((p) => p.state !== 'queued').reduce((n, p) => Math.max(n, p.wave), 0);

  const retry = async () => {
    setRetrying(true);
    try {
      const { retried } = await call(firmwareUpgradeApi.retry, { body: { id: id! } });
      feedback.message.success(t('firmware.retried', { n: retried }));
      void refetch();
    } catch {
      // The client showed the server's reason.
    } finally {
      setRetrying(false);
    }
  };
  const close = () => {
    // The list's counts have moved on meanwhile.
    void queryClient.invalidateQueries({ queryKey: [firmwareUpgradeApi.list.path] });
    onClose();
  };

  const f = (key: string) => t(`fields.firmwareUpgrade.${key}`);
  return (
    <Drawer
      open={row !== null}
      onClose={close}
      size={1200}
      title={t('firmware.pointsTitle', { id })}
      destroyOnHidden
      extra={
        failed && (
          <Authorized permi={['config:firmwareUpgrade:retry']}>
            <Button icon={<RedoOutlined />} loading={retrying} onClick={() => void retry()} data-testid="upgrade-retry">
              {t('firmware.retry')}
            </Button>
          </Authorized>
        )
      }
    >
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Space size={8} wrap>
          {waves && waveCount > 0 && (
            <Tag color="processing" data-testid="upgrade-current-wave">
              {t('firmware.currentWave', { n: current, total: waveCount, size: row?.waveSize })}
            </Tag>
          )}
          <StateCounts counts={counts} />
        </Space>
        <Typography.Text type="secondary">{t('firmware.pointsHint')}</Typography.Text>
      </Flex>
      <Table<FirmwareUpgradePointDto>
        size="small"
        loading={isLoading}
        rowKey="serialNumber"
        dataSource={points}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t('firmware.pointsEmpty') }}
        scroll={{ x: 1140 }}
        data-testid="upgrade-points-table"
        columns={[
          ...(waves
            ? [
                {
                  key: 'wave',
                  dataIndex: 'wave',
                  title: f('wave'),
                  width: 80,
                  render: (w: number) => (
                    <Tag color={w === current ? 'processing' : 'default'} data-wave={w} data-current={w === current}>
                      {w}
                    </Tag>
                  ),
                },
              ]
            : []),
          { key: 'serialNumber', dataIndex: 'serialNumber', title: f('serialNumber'), width: 160 },
          { key: 'pointName', dataIndex: 'pointName', title: f('pointName'), width: 110 },
          { key: 'stationName', dataIndex: 'stationName', title: f('stationName'), width: 120 },
          {
            key: 'state',
            dataIndex: 'state',
            title: f('state'),
            width: 130,
            render: (s: FirmwareUpgradePointDto['state']) => <PointStateTag state={s} />,
          },
          { key: 'reason', dataIndex: 'reason', title: f('reason'), width: 150, ellipsis: true },
          {
            key: 'versions',
            title: t('firmware.versionChange'),
            width: 150,
            render: (_: unknown, p) => (p.fromVersion || p.reportedVersion ? `${p.fromVersion ?? '—'} → ${p.reportedVersion ?? '—'}` : ''),
          },
          { key: 'sentTime', dataIndex: 'sentTime', title: f('sentTime'), width: 160, render: (v: string | null) => formatDateTime(v) },
          {
            key: 'reportTime',
            dataIndex: 'reportTime',
            title: f('reportTime'),
            width: 160,
            render: (v: string | null) => formatDateTime(v),
          },
        ]}
      />
    </Drawer>
  );
}
