import { ArrowLeftOutlined, PrinterOutlined } from '@ant-design/icons';
import { type ChargeRecordDetail, chargeRecordApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { formatDuration, formatKwh, formatMoney, formatUnitPrice, formatSignedMoney } from '../../shared/format/units';
import { wallClockOrEmpty } from '../../shared/format/zone-time';
import { useResourceText } from '../../shared/resource/labels';
import { detailPath } from './charge-record.resource';
import './charge-record-print.css';

/** Columns of the bill lines: field key, right-aligned. */
const LINE_COLUMNS: [string, boolean][] = [
  ['tier', false],
  ['kind', false],
  ['energyWh', true],
  ['unitPrice', true],
  ['amountCents', true],
];
const TOTAL = 'totalCents';
const ADJUSTMENT = 'adjustmentCents';
const DISCOUNTS = 'discountCents';

/** The printable bill of one charging record, in the user's language. */
export function Bill({ record, providerName }: { record: ChargeRecordDetail; providerName: string }) {
  const { t } = useTranslation();
  const text = useResourceText('chargeRecord');
  const tz = record.stationTimeZone;
  // The bill shows the station's local times.
  const at = (iso: string | null) => wallClockOrEmpty(iso, tz);
  const enumOr = (kind: string, v: string | null) => (v === null ? '' : t(`enums.${kind}.${v}`, { defaultValue: v }));
  const pairs: [string, string][] = [
    ['stationName', record.stationName],
    ['stationAddress', record.stationAddress],
    ['chargePointId', `${record.serialNumber} · ${record.pointName}`],
    ['connectorNo', String(record.connectorNo)],
    ['startTime', at(record.startTime)],
    ['endTime', at(record.endTime)],
    ['durationSec', formatDuration(record.durationSec)],
    ['energyWh', formatKwh(record.energyWh)],
    ['startType', enumOr('startType', record.startType)],
    ['stopReason', enumOr('stopReason', record.stopReason)],
  ];
  const customer: [string, string][] = [
    ['account', record.account ?? ''],
    ['cardNumber', record.cardNumber ?? ''],
    ['paidFrom', enumOr('accountKind', record.paidFrom)],
  ];
  const summary: [string, number | null][] = [
    ['elecFeeCents', record.elecFeeCents],
    ['serviceFeeCents', record.serviceFeeCents],
    ['reserveFeeCents', record.reserveFeeCents],
  ];
  const grid = (rows: [string, string][]) => (
    <table>
      <tbody>
        {rows.map(([key, value]) => (
          <tr key={key}>
            <th style={{ width: '32%' }}>{text.label(key)}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className="csms-print-bill" data-testid="print-bill">
      <Flex justify="space-between" align="flex-start">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('chargeRecord.bill.title')}
          </Typography.Title>
          <div>{`${t('chargeRecord.bill.provider')}: ${providerName}`}</div>
        </div>
        <div style={{ textAlign: 'right' }}>
          <div>{`${t('chargeRecord.bill.billNo')}: ${record.id}`}</div>
          <div>{`${t('chargeRecord.bill.printedAt')}: ${at(new Date().toISOString())}`}</div>
        </div>
      </Flex>
      {!record.billedAt && <p data-testid="bill-unbilled">{t('chargeRecord.bill.unbilledNote')}</p>}
      <Typography.Title level={5}>{t('chargeRecord.bill.session')}</Typography.Title>
      {grid(pairs)}
      <Typography.Title level={5}>{t('chargeRecord.bill.customer')}</Typography.Title>
      {grid(customer)}
      <Typography.Title level={5}>{t('chargeRecord.bill.lines')}</Typography.Title>
      <table data-testid="bill-lines">
        <thead>
          <tr>
            {LINE_COLUMNS.map(([key, numeric]) => (
              <th key={key} className={numeric ? 'num' : undefined}>
                {text.label(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {record.lines.map((l) => (
            <tr key={`${l.priceId}-${l.tier}-${l.kind}-${l.adjustment ? 'adjustment' : 'settled'}`}>
              <td>{t(`enums.priceTier.${l.tier}`)}</td>
              <td>
                {t(`enums.feeKind.${l.kind}`)}
                {l.adjustment && ` (${t('chargeRecord.adjustmentTag')})`}
              </td>
              <td className="num">{formatKwh(l.energyWh)}</td>
              <td className="num">{formatUnitPrice(l.unitPrice)}</td>
              <td className="num">{formatMoney(l.amountCents)}</td>
            </tr>
          ))}
          {record.discounts.map((d) => (
            <tr key={d.kind} data-discount={d.kind}>
              <td>{d.label}</td>
              <td>{t(`enums.discountKind.${d.kind}`)}</td>
              <td className="num" />
              <td className="num">{d.unitPrice ? formatUnitPrice(-d.unitPrice) : ''}</td>
              <td className="num">{formatMoney(d.amountCents)}</td>
            </tr>
          ))}
          {record.lines.length === 0 && (
            <tr>
              <td colSpan={5}>{t('chargeRecord.noLines')}</td>
            </tr>
          )}
        </tbody>
      </table>
      <Typography.Title level={5}>{t('chargeRecord.bill.summary')}</Typography.Title>
      <table data-testid="bill-summary">
        <tbody>
          {summary.map(([key, cents]) => (
            <tr key={key}>
              <th>{text.label(key)}</th>
              <td className="num">{formatMoney(cents)}</td>
            </tr>
          ))}
          {record.discounts.length > 0 && (
            <tr>
              <th>{text.label(DISCOUNTS)}</th>
              <td className="num" data-testid="bill-discount-total">
                {formatMoney(record.discounts.reduce((n, d) => n + d.amountCents, 0))}
              </td>
            </tr>
          )}
          <tr className="total">
            <td>{text.label(TOTAL)}</td>
            <td className="num" data-testid="bill-total">
              {formatMoney(record.totalCents)}
            </td>
          </tr>
          {record.adjustmentCents !== null && (
            <tr>
              <th>{text.label(ADJUSTMENT)}</th>
              <td className="num" data-testid="bill-adjustment">
                {formatSignedMoney(record.adjustmentCents)}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <p style={{ marginTop: 24 }}>{t('chargeRecord.bill.timeZoneNote', { tz })}</p>
      <p>{t('chargeRecord.bill.thanks')}</p>
    </div>
  );
}

/** Print page: the bill on a sheet, with Print (`window.print()`) and Back; print CSS leaves only the sheet. */
export default function ChargeRecordPrintPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { info } = useAuth();
  const id = Number(useParams().id);
  const record = useQuery({
    queryKey: [chargeRecordApi.get.path, { id }],
    queryFn: ({ signal }) => call(chargeRecordApi.get, { query: { id } }, { signal }),
    enabled: id > 0,
  });
  if (record.isError) return <Result status="warning" title={t('chargeRecord.loadFailed')} />;
  return (
    <Flex vertical gap={16}>
      <Flex className="csms-no-print" gap={8} justify="center">
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(detailPath(id))}>
          {t('chargeRecord.back')}
        </Button>
        <Button type="primary" icon={<PrinterOutlined />} disabled={!record.data} onClick={() => window.print()} data-testid="print-button">
          {t('chargeRecord.bill.printButton')}
        </Button>
      </Flex>
      <Spin spinning={record.isFetching}>
        {record.data && <Bill record={record.data} providerName={record.data.providerName || info?.providerName || ''} />}
      </Spin>
    </Flex>
  );
}
