import { type OcppLogDto, ocppLogApi } from '@csms/contract';
import { defineResource } from '../../shared/resource/types';
import { DictTag } from '../../shared/dict/DictTag';
import { JsonView } from './json-view';
import { Unanswered } from './unanswered';

/**
 * The OCPP log (DESIGN.md §6): one row per exchange, the request with its response paired by
 * message id (latency), refused connections too; the detail shows both payloads as JSON.
 */
export const ocppLogResource = defineResource({
  name: 'ocppLog',
  api: { list: ocppLogApi.list, get: ocppLogApi.get, export: ocppLogApi.export },
  exportSource: 'ocppLog',
  columns: [
    { key: 'id', width: 90, defaultHidden: true },
    { key: 'createTime', kind: 'datetime', width: 180 },
    { key: 'serialNumber', width: 160 },
    { key: 'direction', dict: 'ocppDirection', width: 170 },
    { key: 'action', width: 190 },
    { key: 'messageType', dict: 'ocppMessageType', width: 130, defaultHidden: true },
    {
      key: 'responseType',
      width: 140,
      render: (v, row: OcppLogDto) =>
        v === null ? row.messageType === 2 ? <Unanswered /> : null : <DictTag type="ocppMessageType" value={v as number} />,
    },
    // Why an idTag was refused: beside the answer, so it is seen without scrolling.
    { key: 'reason', dict: 'authorizationReason', width: 190 },
    { key: 'latencyMs', width: 120 },
    { key: 'errorCode', width: 160 },
    { key: 'messageId', width: 200, ellipsis: true },
    { key: 'responseTime', kind: 'datetime', hideInTable: true },
  ],
  detailColumns: [
    { key: 'payload', wide: true, render: (v) => <JsonView value={v} testId="ocpp-payload" /> },
    { key: 'responsePayload', wide: true, render: (v) => <JsonView value={v} testId="ocpp-response" /> },
  ],
  search: [
    { key: 'serialNumber', kind: 'text' },
    { key: 'action', kind: 'text' },
    { key: 'direction', kind: 'dict', dict: 'ocppDirection' },
    { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
  ],
});
