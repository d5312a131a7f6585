import {
  profileTargetStatuses,
  type AllocationDto,
  type AllocationState,
  type ControllerLive,
  type ProfileTargetStatus,
  localControllerApi,
} from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Flex, Progress, Row, Spin, Table, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../shared/api/client';
import { stationOptions } from '../../shared/options/station-point-options';
import { formatDateTime } from '../../shared/resource/cells';
import { RemoteSelect } from '../../shared/resource/inputs';
import { ConnectorNo, TargetStatus } from './targets';

// ECharts arrives with the first chart drawn, never with the route (weight-budget.json).
const ControllerChart = lazy(() => import('./controller-chart'));

/** The balancer re-plans on every session event and meter value: the view follows it closely. */
export const LIVE_REFRESH_MS = 2_000;
/** The last hour moves slowly. */
export const HISTORY_REFRESH_MS = 10_000;
const CHART_HEIGHT = 240;
const STATION_PARAM = 'stationId';

const stateColor: Record<AllocationState, string> = { charging: 'success', waiting: 'warning', offline: 'default' };
const isTargetStatus = (v: string): v is ProfileTargetStatus => (profileTargetStatuses as readonly string[]).includes(v);

/**
 * Smart Charging → Load balancing (issue 15 item 2): every local controller the user sees, live.
 * Per controller its limit, what the balancer allocated and what the chargers drew, each connector
 * of the last plan with its state and the charger's answer, and the last hour as a chart.
 */
export default function LoadBalancing({ onOpenControllers }: { onOpenControllers?: () => void }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const stationId = Number(params.get(STATION_PARAM)) || undefined;
  const setStation = (id: number | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set(STATION_PARAM, String(id));
      else next.delete(STATION_PARAM);
      return next;
    });
  const live = useQuery({
    queryKey: [localControllerApi.live.path, { stationId }],
    // Polled: a failure shows here once, not as a toast every two seconds.
    queryFn: ({ signal }) => call(localControllerApi.live, { query: { stationId } }, { signal, silent: true }),
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const controllers = live.data ?? [];
  return (
    <Flex vertical gap={16} data-testid="load-balancing">
      <Flex gap={12} align="center" wrap>
        <RemoteSelect
          remote={stationOptions}
          value={stationId}
          onChange={(v) => setStation(v as number | undefined)}
          placeholder={t('loadBalancing.allStations')}
          style={{ width: 240 }}
          data-testid="live-station"
        />
        <Typography.Text type="secondary">{t('loadBalancing.refreshHint')}</Typography.Text>
      </Flex>
      {live.error && <Alert type="warning" showIcon title={t('loadBalancing.loadFailed', { reason: live.error.message })} />}
      {live.isPending ? (
        <Spin />
      ) : controllers.length === 0 ? (
        !live.error && (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={stationId ? t('loadBalancing.emptyStation') : t('loadBalancing.empty')}
            data-testid="live-empty"
          >
            {onOpenControllers && (
              <Button type="primary" onClick={onOpenControllers}>
                {t('loadBalancing.openControllers')}
              </Button>
            )}
          </Empty>
        )
      ) : (
        controllers.map((c) => <ControllerCard key={c.id} controller={c} />)
      )}
    </Flex>
  );
}

function ControllerCard({ controller: c }: { controller: ControllerLive }) {
  const { t } = useTranslation();
  const percent = c.limitW > 0 ? Math.round((c.measuredW / c.limitW) * 100) : 0;
  return (
    <Card
      size="small"
      title={c.name}
      extra={
        <Typography.Text type="secondary">
          {c.plannedTime ? t('loadBalancing.plannedAt', { time: formatDateTime(c.plannedTime) }) : t('loadBalancing.notPlanned')}
        </Typography.Text>
      }
      data-testid="live-controller"
    >
      <Flex gap={32} wrap>
        <Figure label={t('fields.localController.limitW')} value={c.limitW} testId="live-limit" />
        <Figure label={t('fields.localController.allocatedW')} value={c.allocatedW} testId="live-allocated" />
        <Figure label={t('fields.localController.measuredW')} value={c.measuredW} testId="live-measured" />
      </Flex>
      <Progress
        percent={Math.min(percent, 100)}
        status={c.measuredW > c.limitW ? 'exception' : 'normal'}
        format={() => `${percent}%`}
        aria-label={t('loadBalancing.usage', { percent })}
        data-testid="live-usage"
      />
      <Row gutter={[16, 16]} style={{ marginTop: 8 }}>
        <Col xs={24} xl={13}>
          <ConnectorsTable connectors={c.connectors} />
        </Col>
        <Col xs={24} xl={11}>
          <History id={c.id} />
        </Col>
      </Row>
    </Card>
  );
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Flex vertical>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Typography.Text strong style={{ fontSize: 20 }} data-testid={testId}>
        {value}
      </Typography.Text>
    </Flex>
  );
}

/** The connectors of the last plan: what each may draw, what it draws, and what its charger said. */
function ConnectorsTable({ connectors }: { connectors: AllocationDto[] }) {
  const { t } = useTranslation();
  return (
    <Table<AllocationDto>
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      rowKey={(r) => `${r.serialNumber}:${r.connectorNo}`}
      dataSource={connectors}
      locale={{ emptyText: t('loadBalancing.noSessions') }}
      data-testid="live-connectors"
      columns={[
        { key: 'serialNumber', dataIndex: 'serialNumber', title: t('fields.localController.serialNumber') },
        {
          key: 'connectorNo',
          dataIndex: 'connectorNo',
          title: t('fields.localController.connectorNo'),
          render: (n: number) => <ConnectorNo n={n} />,
        },
        {
          key: 'state',
          dataIndex: 'state',
          title: t('fields.localController.state'),
          render: (s: AllocationState) => (
            <Tag color={stateColor[s]} data-state={s}>
              {t(`enums.allocationState.${s}`)}
            </Tag>
          ),
        },
        {
          key: 'priority',
          dataIndex: 'priority',
          title: t('fields.localController.priority'),
          render: (p: boolean) => (p ? <Tag color="gold">{t('fields.localController.priority')}</Tag> : null),
        },
        { key: 'allocatedW', dataIndex: 'allocatedW', title: t('fields.localController.allocatedW'), align: 'right' },
        { key: 'measuredW', dataIndex: 'measuredW', title: t('fields.localController.measuredW'), align: 'right' },
        {
          key: 'answer',
          dataIndex: 'answer',
          title: t('fields.localController.answer'),
          render: (v: string | null) =>
            v === null ? null : isTargetStatus(v) ? <TargetStatus status={v} /> : <Typography.Text code>{v}</Typography.Text>,
        },
      ]}
    />
  );
}

/** The controller's last hour, refreshed while the view is open. */
function History({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, error } = useQuery({
    queryKey: [localControllerApi.history.path, { id }],
    queryFn: ({ signal }) => call(localControllerApi.history, { query: { id } }, { signal, silent: true }),
    refetchInterval: HISTORY_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const box = { height: CHART_HEIGHT };
  let body;
  if (data === undefined)
    body = error ? (
      <Typography.Text type="secondary">{t('loadBalancing.loadFailed', { reason: error.message })}</Typography.Text>
    ) : (
      <Flex justify="center" align="center" style={box}>
        <Spin />
      </Flex>
    );
  else if (data.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('loadBalancing.noHistory')} style={box} />;
  else
    body = (
      <Suspense fallback={<div style={box} />}>
        <ControllerChart samples={data} />
      </Suspense>
    );
  return (
    <Flex vertical gap={4}>
      <Typography.Text type="secondary">{t('loadBalancing.lastHour')}</Typography.Text>
      {body}
    </Flex>
  );
}
