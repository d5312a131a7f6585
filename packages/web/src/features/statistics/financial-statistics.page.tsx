import { DownloadOutlined } from '@ant-design/icons';
import { financialGroups, type FinancialRow, type FinancialStats, financialStatisticsApi } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Segmented, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { downloadExport } from '../../shared/api/download';
import { useAuth } from '../../shared/auth/useAuth';
import type { StatsChartOption } from '../../shared/charts/StatsChart';
import { formatMoney } from '../../shared/format/units';
import { StatsChartCard } from './stats-chart-card';
import { StatsPeriodBar, StatsScope, useStatsUrl } from './stats-filter';
import { isComplete } from './stats-query';

const MONEY = [
  'elecFeeCents',
  'serviceFeeCents',
  'reserveFeeCents',
  'discountCents',
  'adjustmentCents',
  'incomeCents',
  'rechargeCents',
  'refundCents',
  'transferCents',
  'invoicedCents',
  'outstandingCents',
] as const;

/** Financial statistics (issue 20 item 4): a period's income by fee kind, discounts and the ledger's movements, per provider or station. */
export default function FinancialStatisticsPage() {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const canExport = hasPermi('finance:financialStatistics:export');
  const [query, setQuery] = useStatsUrl();
  const groupBy = query.groupBy ?? 'provider';
  const { data } = useQuery({
    queryKey: [financialStatisticsApi.get.path, query],
    queryFn: ({ signal }) => call(financialStatisticsApi.get, { query }, { signal }),
    enabled: isComplete(query),
    placeholderData: keepPreviousData,
  });
  const f = (key: string) => t(`fields.financialStatistics.${key}`);
  const columns: TableColumnsType<FinancialRow> = [
    { key: 'name', dataIndex: 'name', title: f('name') },
    { key: 'billCount', dataIndex: 'billCount', title: f('billCount'), align: 'right' },
    ...MONEY.map((k) => ({ key: k, dataIndex: k, title: f(k), align: 'right' as const, render: formatMoney })),
  ];
  const exportTable = () => downloadExport(financialStatisticsApi.export, { ...query, format: 'xlsx' }, 'financialStatistics.xlsx');

  return (
    <Card data-testid="financial-statistics">
      <StatsPeriodBar query={query} onChange={setQuery}>
        <StatsScope query={query} onChange={setQuery} />
        <Segmented
          value={groupBy}
          onChange={(v) => setQuery({ ...query, groupBy: v as (typeof financialGroups)[number] })}
          options={financialGroups.map((g) => ({ value: g, label: t(`enums.financialGroup.${g}`) }))}
          aria-label={t('financialStatistics.groupBy')}
          data-testid="stats-group"
        />
        {canExport && (
          <Button icon={<DownloadOutlined />} onClick={() => void exportTable()} disabled={!data} data-testid="stats-export">
            {t('statsReport.export')}
          </Button>
        )}
      </StatsPeriodBar>
      {data && (
        <>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }} data-testid="stats-zone">
            {`${data.startDate} ~ ${data.endDate} · ${t('statsReport.zone', { tz: data.timeZone })} · ${t('financialStatistics.settledHint')}`}
          </Typography.Paragraph>
          <Totals data={data} />
          <Charts data={data} />
          <Typography.Title level={5}>{t('financialStatistics.table')}</Typography.Title>
          <Table<FinancialRow>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data.rows}
            pagination={{ pageSize: 20 }}
            scroll={{ x: true }}
            data-testid="stats-table"
          />
        </>
      )}
    </Card>
  );
}

function Totals({ data }: { data: FinancialStats }) {
  const { t } = useTranslation();
  const x = data.totals;
  const items: [string, number | null][] = [
    ['income', x.incomeCents],
    ['elecFee', x.elecFeeCents],
    ['serviceFee', x.serviceFeeCents],
    ['reserveFee', x.reserveFeeCents],
    ['discounts', x.discountCents],
    ['recharges', x.rechargeCents],
    ['refunds', x.refundCents],
    ['transfers', x.transferCents],
    ['invoiced', x.invoicedCents],
    ['outstanding', x.outstandingCents],
  ];
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      {items
        .filter(([, v]) => v !== null)
        .map(([key, value]) => (
          <Col key={key} xs={12} md={6} xl={4}>
            <Statistic title={t(`financialStatistics.${key}`)} value={formatMoney(value)} data-testid={`stat-${key}`} />
          </Col>
        ))}
    </Row>
  );
}

function Charts({ data }: { data: FinancialStats }) {
  const { t } = useTranslation();
  const perDay = useMemo<StatsChartOption>(() => {
    const money = (v: number | null) => (v === null ? null : v / 100);
    const lines = [
      ['income', data.series.map((d) => money(d.incomeCents))],
      ['discounts', data.series.map((d) => money(d.discountCents))],
      ...(data.totals.rechargeCents === null
        ? []
        : [
            ['recharges', data.series.map((d) => money(d.rechargeCents))],
            ['refunds', data.series.map((d) => money(d.refundCents))],
          ]),
    ] as const;
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: lines.map(([k]) => t(`financialStatistics.${k}`)) },
      grid: { left: 56, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: data.series.map((d) => d.date.slice(5)) },
      yAxis: { type: 'value' },
      series: lines.map(([k, values]) => ({ type: 'bar', name: t(`financialStatistics.${k}`), data: [...values] })),
    };
  }, [data, t]);
  const byKind = useMemo<StatsChartOption>(() => {
    const kinds = [
      ['elecFee', data.totals.elecFeeCents],
      ['serviceFee', data.totals.serviceFeeCents],
      ['reserveFee', data.totals.reserveFeeCents],
      ['discounts', data.totals.discountCents],
    ] as const;
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 120, right: 24, top: 16, bottom: 28 },
      xAxis: { type: 'value' },
      yAxis: { type: 'category', data: kinds.map(([k]) => t(`financialStatistics.${k}`)) },
      series: [{ type: 'bar', name: t('financialStatistics.byKind'), data: kinds.map(([, v]) => v / 100) }],
    };
  }, [data, t]);
  return (
    <Row gutter={16} style={{ marginBottom: 16 }}>
      <Col xs={24} xl={14}>
        <StatsChartCard title={t('financialStatistics.perDay')} option={perDay} testId="chart-money-per-day" />
      </Col>
      <Col xs={24} xl={10}>
        <StatsChartCard title={t('financialStatistics.byKind')} option={byKind} testId="chart-by-kind" />
      </Col>
    </Row>
  );
}
