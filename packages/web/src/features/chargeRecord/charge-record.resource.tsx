import { AuditOutlined, EyeOutlined, PrinterOutlined } from '@ant-design/icons';
import { type ChargeRecordDto, chargeRecordApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { StationTime } from '../../shared/format/StationTime';
import { formatDuration, formatKwh, formatMoney, formatSignedMoney } from '../../shared/format/units';
import { defineResource } from '../../shared/resource/types';
import { pointOptions, stationOptions } from '../../shared/options/station-point-options';

export const RECORD_PATH = '/historyRecord/chargeRecord';
export const detailPath = (id: number) => `${RECORD_PATH}/detail/${id}`;
export const printPath = (id: number) => `${RECORD_PATH}/print/${id}`;

const money = (v: unknown) => formatMoney(v);
/** Times on the record's station's clock, as the detail page and the bill show them. */
const stationTime = (v: unknown, row: ChargeRecordDto) => <StationTime at={v} zone={row.stationTimeZone} />;

export interface RecordNavigation {
  open: (path: string) => void;
  /** The invalid reason in the user's words, for the confirm question. */
  reason: (row: ChargeRecordDto) => string;
}

/** Charging records (spec §3): finished sessions with their bills; detail and print bill are pages of their own. */
export function chargeRecordResource(nav: RecordNavigation) {
  return defineResource({
    name: 'chargeRecord',
    api: { list: chargeRecordApi.list, get: chargeRecordApi.get, export: chargeRecordApi.export },
    exportSource: 'chargeRecord',
    hideActions: ['detail'],
    columns: [
      { key: 'id', width: 130, fixed: 'left' },
      { key: 'startTime', kind: 'datetime', width: 170, sorter: true, render: stationTime },
      { key: 'endTime', kind: 'datetime', width: 170, render: stationTime },
      { key: 'stationName', width: 150, ellipsis: true },
      { key: 'serialNumber', width: 150 },
      { key: 'pointName', width: 140, defaultHidden: true },
      { key: 'connectorNo', width: 110 },
      { key: 'account', width: 130 },
      { key: 'cardNumber', width: 140 },
      { key: 'idTag', width: 140 },
      // A session started with an idTag not accepted for the point's provider: no card or account, billed to nobody.
      { key: 'authorization', dict: 'chargeAuthorization', width: 120 },
      { key: 'authReason', dict: 'authorizationReason', width: 160, defaultHidden: true },
      { key: 'startType', dict: 'startType', width: 110 },
      { key: 'durationSec', width: 100, render: (v) => formatDuration(v) },
      { key: 'energyWh', width: 110, sorter: true, render: (v) => formatKwh(v) },
      { key: 'elecFeeCents', width: 100, render: money },
      { key: 'serviceFeeCents', width: 110, render: money },
      { key: 'reserveFeeCents', width: 110, render: money, defaultHidden: true },
      { key: 'totalCents', width: 100, sorter: true, render: money },
      { key: 'adjustmentCents', width: 140, render: (v) => formatSignedMoney(v) },
      { key: 'paidFrom', dict: 'accountKind', width: 110, defaultHidden: true },
      { key: 'stopReason', dict: 'stopReason', width: 130 },
      { key: 'stopAccount', width: 130, defaultHidden: true },
      { key: 'validity', dict: 'chargeValidity', width: 140 },
      { key: 'lateStopAt', kind: 'datetime', width: 170, render: stationTime },
      { key: 'invalidReason', dict: 'invalidReason', width: 180, defaultHidden: true },
      { key: 'billingNote', dict: 'billingNote', width: 160, defaultHidden: true },
      { key: 'providerName', width: 140, defaultHidden: true },
    ],
    search: [
      { key: 'timeRange', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'pointId', kind: 'select', remote: pointOptions },
      { key: 'account', kind: 'text' },
      { key: 'cardNumber', kind: 'text' },
      { key: 'startType', kind: 'dict', dict: 'startType' },
      { key: 'stopReason', kind: 'dict', dict: 'stopReason' },
      { key: 'validity', kind: 'dict', dict: 'chargeValidity' },
      { key: 'authorization', kind: 'dict', dict: 'chargeAuthorization' },
      { key: 'id', kind: 'number' },
    ],
    rowActions: [
      { key: 'detail', label: 'chargeRecord.detail', icon: <EyeOutlined />, onClick: (row) => nav.open(detailPath(row.id)) },
      { key: 'print', label: 'chargeRecord.print', icon: <PrinterOutlined />, onClick: (row) => nav.open(printPath(row.id)) },
      {
        key: 'confirm',
        label: 'chargeRecord.confirm',
        icon: <AuditOutlined />,
        permi: ['record:charge:confirm'],
        hidden: (row) => row.validity !== 'invalid',
        onClick: (row, ctx) =>
          ctx.confirm({
            content: 'chargeRecord.confirmQuestion',
            params: { id: row.id, reason: nav.reason(row) },
            success: 'chargeRecord.confirmDone',
            onOk: () => call(chargeRecordApi.confirm, { body: { id: row.id } }),
          }),
      },
    ],
  });
}
