import { transferRecordApi } from '@csms/contract';
import { providerOptions } from '../../shared/options/provider-options';
import { defineResource } from '../../shared/resource/types';
import { stateOptions, transferColumns } from './corporate-transfer.resource';
import { AllocationsTable } from './finance-inputs';

/** Transfer records (hidden route, opened from a transfer): every transfer with its allocations and their ledger rows. */
export const transferRecordResource = defineResource({
  name: 'transferRecord',
  api: { list: transferRecordApi.list, export: transferRecordApi.export },
  exportSource: 'transferRecord',
  columns: transferColumns,
  search: [
    { key: 'payerName', kind: 'text' },
    { key: 'bankReference', kind: 'text' },
    { key: 'state', kind: 'select', options: stateOptions },
    { key: 'transferDate', kind: 'dateRange', keys: ['startTime', 'endTime'], label: 'fields.transferRecord.transferDate' },
    { key: 'id', kind: 'number', label: 'fields.common.id' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  hideActions: ['detail'],
  expandable: { render: (row) => <AllocationsTable rows={row.allocations} /> },
});
