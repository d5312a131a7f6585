import { clientErrorApi } from '@csms/contract';
import { defineResource } from '../../shared/resource/types';
import { StackBlock } from './stack-block';

/** Spec §9's error log: uncaught errors of production consoles, one row per fingerprint; read-only. */
export const errorLogResource = defineResource({
  name: 'clientError',
  api: { list: clientErrorApi.list },
  columns: [
    { key: 'id', width: 80, defaultHidden: true },
    { key: 'message', width: 320, ellipsis: true },
    { key: 'source', dict: 'clientErrorSource', width: 150 },
    { key: 'count', width: 100, sorter: true },
    { key: 'route', width: 200, ellipsis: true },
    { key: 'username', width: 120 },
    { key: 'buildId', width: 130 },
    { key: 'lastSeen', kind: 'datetime', width: 180, sorter: true },
    { key: 'firstSeen', kind: 'datetime', width: 180, defaultHidden: true },
    { key: 'userAgent', hideInTable: true, wide: true },
    { key: 'fingerprint', hideInTable: true, wide: true },
    { key: 'stack', hideInTable: true, wide: true, render: (v) => <StackBlock value={v} /> },
  ],
  search: [
    { key: 'message', kind: 'text' },
    { key: 'username', kind: 'text' },
    { key: 'buildId', kind: 'text' },
    { key: 'lastSeen', kind: 'dateRange', keys: ['startTime', 'endTime'], instant: true },
  ],
  hideActions: ['edit', 'remove'],
});
