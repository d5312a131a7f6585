import { systemLogApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { defineResource } from '../../shared/resource/types';
import { JsonBlock } from './json-block';

/** Operation types with the server's labels (getOperateDescription). */
const operationOptions = {
  key: 'systemLog.operations',
  load: async () => (await call(systemLogApi.operations)).map((e) => ({ value: e.dictValue, label: e.dictLabel })),
};

/** The system log (spec §3): read-only; the detail shows the request and the result message. */
export const systemLogResource = defineResource({
  name: 'systemLog',
  api: { list: systemLogApi.list, get: systemLogApi.get, export: systemLogApi.export },
  exportSource: 'systemLog',
  columns: [
    { key: 'id', width: 80, sorter: true, defaultHidden: true },
    { key: 'operation', dict: 'operation', width: 130 },
    { key: 'operator', width: 130 },
    { key: 'operand', width: 240, ellipsis: true },
    { key: 'ip', width: 140 },
    { key: 'result', dict: 'logResult', width: 120 },
    { key: 'mode', dict: 'logMode', width: 100 },
    { key: 'createTime', kind: 'datetime', width: 180, sorter: true },
    { key: 'durationMs', width: 140, sorter: true },
    { key: 'method', hideInTable: true },
    { key: 'path', hideInTable: true },
    { key: 'msg', hideInTable: true, wide: true },
  ],
  detailColumns: [{ key: 'request', wide: true, render: (value) => <JsonBlock value={value} /> }],
  search: [
    { key: 'operation', kind: 'select', remote: operationOptions },
    { key: 'operator', kind: 'text' },
    { key: 'operand', kind: 'text' },
    { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], instant: true },
  ],
});
