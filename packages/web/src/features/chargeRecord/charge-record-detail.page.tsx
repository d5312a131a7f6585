import { ArrowLeftOutlined, AuditOutlined, PrinterOutlined } from '@ant-design/icons';
import { type BillLineDto, type ChargeRecordDetail, type DiscountLineDto, chargeRecordApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Flex, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { formatDuration, formatKwh, formatMoney, formatUnitPrice, formatSignedMoney } from '../../shared/format/units';
import { wallClockOrEmpty } from '../../shared/format/zone-time';
import { confirmThenCall } from '../../shared/resource/actions';
import { renderCell } from '../../shared/resource/cells';
import { useResourceText } from '../../shared/resource/labels';
import type { ColumnDef } from '../../shared/resource/types';
import { printPath, RECORD_PATH } from './charge-record.resource';
import { ProcessCharts } from '../../shared/charts/process-charts';

type Row = Record<string, unknown>;

const SESSION_FIELDS: ColumnDef<Row>[] = [
  { key: 'id' },
  { key: 'validity', dict: 'chargeValidity' },
  { key: 'stationName' },
  { key: 'stationAddress' },
  { key: 'serialNumber' },
  { key: 'pointName' },
  { key: 'connectorNo' },
  { key: 'startType', dict: 'startType' },
  { key: 'idTag' },
  { key: 'authorization', dict: 'chargeAuthorization' },
  { key: 'authReason', dict: 'authorizationReason' },
  { key: 'cardNumber' },
  { key: 'account' },
  { key: 'startTime', kind: 'datetime' },
  { key: 'endTime', kind: 'datetime' },
  { key: 'durationSec', render: (v) => formatDuration(v) },
  { key: 'meterStartWh' },
  { key: 'meterStopWh' },
  { key: 'energyWh', render: (v) => formatKwh(v) },
  { key: 'stopReason', dict: 'stopReason' },
  { key: 'stopIdTag' },
  { key: 'stopAccount' },
  { key: 'invalidReason', dict: 'invalidReason' },
  { key: 'confirmedByName' },
  { key: 'confirmedAt', kind: 'datetime' },
  { key: 'late', dict: 'yesNo' },
  { key: 'lateStopAt', kind: 'datetime' },
  { key: 'providerName' },
];

const BILL_FIELDS: ColumnDef<Row>[] = [
  { key: 'elecFeeCents', render: (v) => formatMoney(v) },
  { key: 'serviceFeeCents', render: (v) => formatMoney(v) },
  { key: 'reserveFeeCents', render: (v) => formatMoney(v) },
  { key: 'totalCents', render: (v) => formatMoney(v) },
  { key: 'adjustmentCents', render: (v) => formatSignedMoney(v) },
  { key: 'paidFrom', dict: 'accountKind' },
  { key: 'billedAt', kind: 'datetime' },
  { key: 'billingNote', dict: 'billingNote' },
];

/** The bill lines: price version (from, on the station's clock), tier and fee kind with energy, unit price and amount. */
export function BillLines({ lines, timeZone }: { lines: BillLineDto[]; timeZone: string }) {
  const { t } = useTranslation();
  const text = useResourceText('chargeRecord');
  const total = lines.reduce((sum, l) => sum + l.amountCents, 0);
  return (
    <Table<BillLineDto>
      size="small"
      rowKey={(l) => `${l.priceId}-${l.tier}-${l.kind}-${l.adjustment ? 'adjustment' : 'settled'}`}
      dataSource={lines}
      pagination={false}
      locale={{ emptyText: t('chargeRecord.noLines') }}
      columns={[
        { key: 'effectiveFrom', title: text.label('effectiveFrom'), render: (_, l) => wallClockOrEmpty(l.effectiveFrom, timeZone) },
        { key: 'tier', title: text.label('tier'), render: (_, l) => t(`enums.priceTier.${l.tier}`) },
        {
          key: 'kind',
          title: text.label('kind'),
          render: (_, l) => (
            <Space size={4}>
              {t(`enums.feeKind.${l.kind}`)}
              {l.adjustment && <Tag color="orange">{t('chargeRecord.adjustmentTag')}</Tag>}
            </Space>
          ),
        },
        { key: 'energyWh', title: text.label('energyWh'), align: 'right', render: (_, l) => formatKwh(l.energyWh) },
        { key: 'unitPrice', title: text.label('unitPrice'), align: 'right', render: (_, l) => formatUnitPrice(l.unitPrice) },
        { key: 'amountCents', title: text.label('amountCents'), align: 'right', render: (_, l) => formatMoney(l.amountCents) },
      ]}
      summary={() =>
        lines.length > 0 && (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={5}>
              {t('chargeRecord.total')}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              <Typography.Text strong>{formatMoney(total)}</Typography.Text>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )
      }
    />
  );
}

/**
 * The bill's discounts (issue 19), in the order applied — member level, activity, voucher — each with
 * the name it had when settled, and what the session cost after them.
 */
export function BillDiscounts({ discounts, totalCents }: { discounts: DiscountLineDto[]; totalCents: number | null }) {
  const { t } = useTranslation();
  const text = useResourceText('chargeRecord');
  if (discounts.length === 0) return null;
  return (
    <Table<DiscountLineDto>
      size="small"
      data-testid="bill-discounts"
      rowKey={(d) => d.kind}
      dataSource={discounts}
      pagination={false}
      columns={[
        { key: 'kind', title: text.label('discountKind'), render: (_, d) => t(`enums.discountKind.${d.kind}`) },
        { key: 'label', title: text.label('discountName'), render: (_, d) => d.label },
        { key: 'amountCents', title: text.label('amountCents'), align: 'right', render: (_, d) => formatMoney(d.amountCents) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={2}>
            {text.label('totalCents')}
          </Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right">
            <Typography.Text strong data-testid="bill-net-total">
              {formatMoney(totalCents)}
            </Typography.Text>
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

function StateAlert({ record }: { record: ChargeRecordDetail }) {
  const { t } = useTranslation();
  const reason = record.invalidReason ? t(`enums.invalidReason.${record.invalidReason}`, { defaultValue: record.invalidReason }) : '';
  if (record.validity === 'invalid')
    return <Alert type="error" showIcon title={t('chargeRecord.invalidAlert', { reason })} data-testid="record-alert" />;
  const parts = [];
  if (record.validity === 'confirmed')
    parts.push(
      t('chargeRecord.confirmedAlert', {
        reason,
        name: record.confirmedByName ?? '',
        time: wallClockOrEmpty(record.confirmedAt, record.stationTimeZone),
      }),
    );
  if (record.lateStopAt) parts.push(t('chargeRecord.lateStopAlert', { time: wallClockOrEmpty(record.lateStopAt, record.stationTimeZone) }));
  if (record.adjustmentCents) parts.push(t('chargeRecord.adjustedAlert', { amount: formatSignedMoney(record.adjustmentCents) }));
  if (record.billingNote) parts.push(t('chargeRecord.notBilledAlert', { reason: t(`enums.billingNote.${record.billingNote}`) }));
  if (parts.length === 0) return null;
  return <Alert type="warning" showIcon title={parts.join(' ')} data-testid="record-alert" />;
}

/** One charging record: the session, its bill with lines, and its process data over time. */
export default function ChargeRecordDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const text = useResourceText('chargeRecord');
  const { hasPermi } = useAuth();
  const id = Number(useParams().id);
  const record = useQuery({
    queryKey: [chargeRecordApi.get.path, { id }],
    queryFn: ({ signal }) => call(chargeRecordApi.get, { query: { id } }, { signal }),
    enabled: id > 0,
  });
  const process = useQuery({
    queryKey: [chargeRecordApi.processData.path, { id }],
    queryFn: ({ signal }) => call(chargeRecordApi.processData, { body: { transactionId: id } }, { signal }),
    enabled: id > 0,
  });
  if (record.isError) return <Result status="warning" title={t('chargeRecord.loadFailed')} />;
  const r = record.data;
  const row = (r ?? {}) as Row;
  // Times on the station's clock, as on the printed bill and in the bill's price tiers.
  const tz = r?.stationTimeZone ?? 'UTC';
  const describe = (fields: ColumnDef<Row>[]) =>
    fields.map((c) => ({
      key: c.key,
      label: text.label(c.key),
      children: c.kind === 'datetime' ? wallClockOrEmpty(row[c.key] as string | null, tz) : renderCell(c, row),
    }));
  const confirm = () =>
    confirmThenCall(
      text,
      {
        content: 'chargeRecord.confirmQuestion',
        params: { id, reason: r?.invalidReason ? t(`enums.invalidReason.${r.invalidReason}`, { defaultValue: r.invalidReason }) : '' },
        success: 'chargeRecord.confirmDone',
        onOk: () => call(chargeRecordApi.confirm, { body: { id } }),
      },
      () => void queryClient.invalidateQueries({ queryKey: [chargeRecordApi.get.path] }),
    );

  return (
    <Spin spinning={record.isFetching}>
      <Flex vertical gap={16}>
        <Card
          title={t('chargeRecord.detailTitle', { id })}
          extra={
            <Space wrap>
              <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(RECORD_PATH)}>
                {t('chargeRecord.back')}
              </Button>
              {r?.validity === 'invalid' && hasPermi('record:charge:confirm') && (
                <Button danger icon={<AuditOutlined />} onClick={confirm} data-testid="record-confirm">
                  {t('chargeRecord.confirm')}
                </Button>
              )}
              {r?.endTime && (
                <Button type="primary" icon={<PrinterOutlined />} onClick={() => void navigate(printPath(id))} data-testid="record-print">
                  {t('chargeRecord.print')}
                </Button>
              )}
            </Space>
          }
        >
          {r && (
            <Flex vertical gap={16}>
              <StateAlert record={r} />
              <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={describe(SESSION_FIELDS)} />
              <Typography.Text type="secondary" data-testid="record-zone">
                {t('chargeRecord.bill.timeZoneNote', { tz })}
              </Typography.Text>
            </Flex>
          )}
        </Card>
        <Card title={t('chargeRecord.sections.bill')}>
          {r && (
            <Flex vertical gap={16}>
              {!r.billedAt && <Typography.Text type="secondary">{t('chargeRecord.waitingBill')}</Typography.Text>}
              <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 4 }} items={describe(BILL_FIELDS)} />
              <BillLines lines={r.lines} timeZone={tz} />
              <BillDiscounts discounts={r.discounts} totalCents={r.totalCents} />
            </Flex>
          )}
        </Card>
        <Card
          title={t('chargeRecord.sections.process')}
          extra={process.data?.thinned ? <Typography.Text type="secondary">{t('chargeRecord.thinned')}</Typography.Text> : null}
        >
          <Spin spinning={process.isFetching}>
            <ProcessCharts samples={process.data?.samples ?? []} timeZone={tz} />
          </Spin>
        </Card>
      </Flex>
    </Spin>
  );
}
