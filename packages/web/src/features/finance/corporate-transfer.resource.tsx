import { CheckCircleOutlined, CloseCircleOutlined, FileSearchOutlined } from '@ant-design/icons';
import {
  transferStates,
  type EndpointDef,
  type TransferDto,
  type TransferState,
  corporateTransferApi,
  transferRecordApi,
} from '@csms/contract';
import { call } from '../../shared/api/client';
import { formatMoney } from '../../shared/format/units';
import { providerOptions } from '../../shared/options/provider-options';
import { MoneyInput } from '../../shared/resource/money-input';
import { defineResource, type ColumnDef } from '../../shared/resource/types';
import { AllocationsField, AllocationsTable, ReceiptLink, TransferStateTag } from './finance-inputs';

/** The permission the endpoint's contract requires. */
export const permiOf = (ep: EndpointDef): string[] => (typeof ep.access === 'object' && 'permi' in ep.access ? [ep.access.permi] : []);
export const stateOptions = transferStates.map((v) => ({ value: v, label: `enums.transferState.${v}` }));
const money = (v: unknown) => formatMoney(v);

export const transferColumns: ColumnDef<TransferDto>[] = [
  { key: 'id', width: 90, fixed: 'left', sorter: true },
  { key: 'state', width: 120, render: (v) => <TransferStateTag state={v as TransferState} /> },
  { key: 'payerName', width: 180, ellipsis: true },
  { key: 'amountCents', width: 120, render: money },
  { key: 'transferDate', width: 120 },
  { key: 'bankReference', width: 180 },
  { key: 'summary', width: 260, ellipsis: true },
  { key: 'payerAccount', width: 180, defaultHidden: true },
  { key: 'payerBank', width: 160, defaultHidden: true },
  { key: 'receiptUrl', width: 120, label: 'fields.corporateTransfer.receiptFile', render: (v) => <ReceiptLink url={v as string | null} /> },
  { key: 'remark', width: 160, ellipsis: true, defaultHidden: true },
  { key: 'registrarName', width: 110 },
  { key: 'deciderName', width: 110 },
  { key: 'decideTime', kind: 'datetime', width: 170 },
  { key: 'rejectReason', width: 160, ellipsis: true },
  { key: 'providerName', width: 140 },
  { key: 'createTime', kind: 'datetime', width: 170, defaultHidden: true },
];

/**
 * Finance → corporate transfer (issue 18; DESIGN.md §3): finance registers an incoming bank transfer
 * and how it is split; another user confirms it (the ledger credits every allocation) or rejects it.
 */
export const corporateTransferResource = defineResource({
  name: 'corporateTransfer',
  api: {
    list: corporateTransferApi.list,
    get: corporateTransferApi.get,
    add: corporateTransferApi.add,
    export: corporateTransferApi.export,
  },
  exportSource: 'corporateTransfer',
  formWidth: 860,
  texts: { createTitle: 'corporateTransfer.createTitle', saved: 'corporateTransfer.registered' },
  columns: transferColumns,
  search: [
    { key: 'payerName', kind: 'text' },
    { key: 'bankReference', kind: 'text' },
    { key: 'state', kind: 'select', options: stateOptions },
    { key: 'transferDate', kind: 'dateRange', keys: ['startTime', 'endTime'], label: 'fields.corporateTransfer.transferDate' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  initialValues: () => ({ allocations: [{}] }),
  form: [
    { key: 'providerId', kind: 'select', remote: providerOptions },
    { key: 'payerName', kind: 'text', props: { maxLength: 100 } },
    { key: 'payerAccount', kind: 'text', props: { maxLength: 64 } },
    { key: 'payerBank', kind: 'text', props: { maxLength: 100 } },
    { key: 'amountCents', kind: 'custom', required: true, render: () => <MoneyInput min={0.01} data-testid="transfer-amount" /> },
    { key: 'transferDate', kind: 'date' },
    { key: 'bankReference', kind: 'text', props: { maxLength: 64 } },
    // A scan of the bank's receipt: a PDF or a photo (the upload kind `scan`, the server's rule).
    { key: 'receiptFile', kind: 'file', props: { limit: 1, kind: 'scan', valueField: 'fileName' } },
    { key: 'allocations', kind: 'custom', span: 24, required: true, render: (ctx) => <AllocationsField {...ctx} /> },
    { key: 'remark', kind: 'textarea', span: 24, props: { rows: 2, maxLength: 500 } },
  ],
  expandable: { render: (row) => <AllocationsTable rows={row.allocations} /> },
  rowActions: [
    {
      key: 'confirm',
      label: 'corporateTransfer.confirm',
      icon: <CheckCircleOutlined />,
      permi: permiOf(corporateTransferApi.confirm),
      hidden: (row) => row.state !== 'registered',
      onClick: (row, ctx) =>
        ctx.confirm({
          content: 'corporateTransfer.confirmAsk',
          params: { id: row.id, amount: formatMoney(row.amountCents), reference: row.bankReference, count: row.allocations.length },
          success: 'corporateTransfer.confirmed',
          onOk: () => call(corporateTransferApi.confirm, { body: { id: row.id } }),
        }),
    },
    {
      key: 'reject',
      label: 'corporateTransfer.reject',
      icon: <CloseCircleOutlined />,
      danger: true,
      permi: permiOf(corporateTransferApi.reject),
      hidden: (row) => row.state !== 'registered',
      onClick: (row, ctx) =>
        ctx.prompt({
          title: 'corporateTransfer.rejectTitle',
          field: 'reason',
          schema: corporateTransferApi.reject.body,
          base: { id: row.id },
          success: 'corporateTransfer.rejected',
          onOk: async (reason) => {
            await call(corporateTransferApi.reject, { body: { id: row.id, reason } });
          },
        }),
    },
    {
      key: 'record',
      label: 'corporateTransfer.record',
      icon: <FileSearchOutlined />,
      permi: permiOf(transferRecordApi.list),
      onClick: (row, ctx) => ctx.navigate(`/financialManagement/transferRecord?id=${row.id}`),
    },
  ],
});
