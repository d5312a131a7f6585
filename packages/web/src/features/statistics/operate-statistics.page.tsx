import { DownloadOutlined } from '@ant-design/icons';
import { type OperationRow, type OperationStats, operateStatisticsApi } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Statistic, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { downloadExport } from '../../shared/api/download';
import { useAuth } from '../../shared/auth/useAuth';
import type { StatsChartOption } from '../../shared/charts/StatsChart';
import { formatDuration, formatKwh, formatPercent } from '../../shared/format/units';
import { StatsChartCard } from './stats-chart-card';
import { StatsPeriodBar, StatsScope, useStatsUrl } from './stats-filter';
import { hours, isComplete } from './stats-query';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** A share 0…1 as the theme blue, from pale to full. */
const shade = (share: number) => `rgba(22, 119, 255, ${(0.06 + 0.94 * share).toFixed(2)})`;

/** Operation statistics (issue 20 item 3): a period's sessions, energy, time, utilisation and faults, charted, ranked and tabled. */
export default function OperateStatisticsPage() {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const canExport = hasPermi('operate:operateStatistics:export');
  const [query, setQuery] = useStatsUrl();
  const { data } = useQuery({
    queryKey: [operateStatisticsApi.get.path, query],
    queryFn: ({ signal }) => call(operateStatisticsApi.get, { query }, { signal }),
    enabled: isComplete(query),
    placeholderData: keepPreviousData,
  });
  const f = (key: string) => t(`fields.operateStatistics.${key}`);
  const columns: TableColumnsType<OperationRow> = [
    { key: 'name', dataIndex: 'name', title: f('name') },
    ...(data?.rowKind === 'point' || !data ? [{ key: 'stationName', dataIndex: 'stationName', title: f('stationName') }] : []),
    { key: 'chargeCount', dataIndex: 'chargeCount', title: f('chargeCount'), align: 'right' },
    { key: 'energyWh', dataIndex: 'energyWh', title: f('energyWh'), align: 'right', render: formatKwh },
    { key: 'chargingSeconds', dataIndex: 'chargingSeconds', title: f('chargingSeconds'), align: 'right', render: formatDuration },
    { key: 'utilisation', dataIndex: 'utilisation', title: f('utilisation'), align: 'right', render: formatPercent },
    { key: 'idleSeconds', dataIndex: 'idleSeconds', title: f('idleSeconds'), align: 'right', render: formatDuration },
    { key: 'averageSeconds', dataIndex: 'averageSeconds', title: f('averageSeconds'), align: 'right', render: formatDuration },
    { key: 'faultCount', dataIndex: 'faultCount', title: f('faultCount'), align: 'right' },
    { key: 'faultRate', dataIndex: 'faultRate', title: f('faultRate'), align: 'right', render: formatPercent },
  ];
  const exportTable = () => downloadExport(operateStatisticsApi.export, { ...query, format: 'xlsx' }, 'operateStatistics.xlsx');

  return (
    <Card data-testid="operate-statistics">
      <StatsPeriodBar query={query} onChange={setQuery}>
        <StatsScope query={query} onChange={setQuery} points />
        {canExport && (
          <Button icon={<DownloadOutlined />} onClick={() => void exportTable()} disabled={!data} data-testid="stats-export">
            {t('statsReport.export')}
          </Button>
        )}
      </StatsPeriodBar>
      {data && (
        <>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }} data-testid="stats-zone">
            {`${data.startDate} ~ ${data.endDate} · ${t('statsReport.zone', { tz: data.timeZone })}`}
          </Typography.Paragraph>
          <Totals data={data} />
          <Charts data={data} />
          <Rankings data={data} />
          <Typography.Title level={5}>{t('operateStatistics.table')}</Typography.Title>
          <Table<OperationRow>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data.rows}
            pagination={{ pageSize: 20 }}
            data-testid="stats-table"
          />
        </>
      )}
    </Card>
  );
}

function Totals({ data }: { data: OperationStats }) {
  const { t } = useTranslation();
  const x = data.totals;
  const items: [string, string | number, string?][] = [
    ['sessions', x.chargeCount],
    ['energy', formatKwh(x.energyWh)],
    ['chargingTime', hours(x.chargingSeconds)],
    ['utilisation', formatPercent(x.utilisation), 'utilisationHint'],
    ['idleTime', hours(x.idleSeconds)],
    ['averageSession', (x.averageSeconds / 60).toFixed(1)],
    ['faults', x.faultCount],
    ['faultRate', formatPercent(x.faultRate), 'faultRateHint'],
  ];
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      {items.map(([key, value, hint]) => (
        <Col key={key} xs={12} md={6} xl={3}>
          <Tooltip title={hint ? t(`operateStatistics.${hint}`) : undefined}>
            <Statistic title={t(`operateStatistics.${key}`)} value={value} data-testid={`stat-${key}`} />
          </Tooltip>
        </Col>
      ))}
    </Row>
  );
}

function Charts({ data }: { data: OperationStats }) {
  const { t } = useTranslation();
  const perDay = useMemo<StatsChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: [t('operateStatistics.sessions'), t('operateStatistics.energy')] },
      grid: { left: 48, right: 56, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: data.series.map((d) => d.date.slice(5)) },
      yAxis: [{ type: 'value' }, { type: 'value' }],
      series: [
        { type: 'bar', name: t('operateStatistics.sessions'), data: data.series.map((d) => d.chargeCount) },
        { type: 'line', name: t('operateStatistics.energy'), yAxisIndex: 1, data: data.series.map((d) => d.energyWh / 1000) },
      ],
    }),
    [data, t],
  );
  const heat = useMemo<StatsChartOption>(() => {
    const max = Math.max(1, ...data.heatmap.flat());
    // Each cell shaded by its share of the busiest hour (no visual-map component: it would add much to the chart's code).
    const cells = data.heatmap.flatMap((row, d) => row.map((n, h) => ({ value: [h, d, n], itemStyle: { color: shade(n / max) } })));
    return {
      tooltip: { position: 'top' },
      grid: { left: 56, right: 16, top: 16, bottom: 28 },
      xAxis: { type: 'category', data: Array.from({ length: 24 }, (_, h) => t('operateStatistics.hour', { h })) },
      yAxis: { type: 'category', data: WEEKDAYS.map((d) => t(`operateStatistics.weekdays.${d}`)) },
      series: [{ type: 'heatmap', name: t('operateStatistics.starts'), data: cells }],
    };
  }, [data, t]);
  return (
    <Row gutter={16}>
      <Col xs={24} xl={12}>
        <StatsChartCard title={t('operateStatistics.perDay')} option={perDay} testId="chart-per-day" />
      </Col>
      <Col xs={24} xl={12}>
        <StatsChartCard title={t('operateStatistics.heatmap')} option={heat} testId="chart-heatmap" />
      </Col>
    </Row>
  );
}

function Rankings({ data }: { data: OperationStats }) {
  const { t } = useTranslation();
  const lists = [
    ['topStations', data.topStations],
    ['bottomStations', data.bottomStations],
    ['topPoints', data.topPoints],
    ['bottomPoints', data.bottomPoints],
  ] as const;
  return (
    <Row gutter={[16, 16]} style={{ margin: '16px 0' }}>
      {lists.map(([key, rows]) => (
        <Col key={key} xs={24} md={12} xl={6}>
          <Card size="small" title={t(`operateStatistics.${key}`)} data-testid={`rank-${key}`}>
            <Table<OperationRow>
              rowKey="id"
              size="small"
              pagination={false}
              showHeader={false}
              dataSource={[...rows]}
              columns={[
                { key: 'name', render: (_, r) => (key.endsWith('Points') ? `${r.stationName} · ${r.name}` : r.name) },
                { key: 'energy', align: 'right', render: (_, r) => `${formatKwh(r.energyWh)} kWh` },
              ]}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
