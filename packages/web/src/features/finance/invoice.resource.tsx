import { CloseCircleOutlined, FileDoneOutlined } from '@ant-design/icons';
import {
  invoiceNotifyTypes,
  invoicePrincipalTypes,
  invoiceStatuses,
  type InvoiceDto,
  type InvoiceStatus,
  invoiceApi,
} from '@csms/contract';
import { call } from '../../shared/api/client';
import { formatMoney } from '../../shared/format/units';
import { chargeUserOptions } from '../../shared/options/charge-user-options';
import { providerOptions } from '../../shared/options/provider-options';
import { defineResource } from '../../shared/resource/types';
import { permiOf } from './corporate-transfer.resource';
import { EnumText, InvoiceItemsField, InvoiceItemsTable, InvoiceStatusTag } from './finance-inputs';

const options = <T extends string>(values: readonly T[], vocabulary: string) =>
  values.map((v) => ({ value: v, label: `enums.${vocabulary}.${v}` }));
const users = chargeUserOptions();

/**
 * Finance → invoices (spec §3 invoice and invoice info; issue 18): a request on a charge user's behalf
 * over his paid records, issued with the invoice PDF (the user is mailed it) or rejected with a reason.
 */
export function invoiceResource(actions: { issue: (row: InvoiceDto) => void }) {
  return defineResource({
    name: 'invoice',
    api: { list: invoiceApi.list, get: invoiceApi.get, add: invoiceApi.add, export: invoiceApi.export },
    exportSource: 'invoice',
    formWidth: 900,
    texts: { createTitle: 'invoice.createTitle', saved: 'invoice.applied' },
    columns: [
      { key: 'id', width: 90, fixed: 'left', sorter: true },
      { key: 'status', width: 110, render: (v) => <InvoiceStatusTag status={v as InvoiceStatus} /> },
      { key: 'account', width: 140 },
      { key: 'amountCents', width: 120, render: (v) => formatMoney(v) },
      { key: 'name', width: 180, ellipsis: true },
      { key: 'principalType', width: 100, render: (v) => <EnumText group="invoicePrincipalType" value={String(v)} /> },
      { key: 'taxNumber', width: 170, defaultHidden: true },
      { key: 'recipientName', width: 110 },
      { key: 'mobile', width: 130 },
      { key: 'email', width: 180, ellipsis: true },
      { key: 'address', width: 180, ellipsis: true, defaultHidden: true },
      { key: 'notifyType', width: 100, render: (v) => <EnumText group="invoiceNotifyType" value={String(v)} /> },
      { key: 'fileUrl', kind: 'file', width: 120, label: 'fields.invoice.fileName' },
      { key: 'remark', width: 160, ellipsis: true, defaultHidden: true },
      { key: 'rejectReason', width: 160, ellipsis: true },
      { key: 'applyTime', kind: 'datetime', width: 170 },
      { key: 'noticeTime', kind: 'datetime', width: 170 },
      { key: 'finishTime', kind: 'datetime', width: 170 },
      { key: 'operatorName', width: 110 },
      { key: 'providerName', width: 140 },
    ],
    search: [
      { key: 'account', kind: 'text' },
      { key: 'name', kind: 'text' },
      { key: 'status', kind: 'select', options: options(invoiceStatuses, 'invoiceStatus') },
      { key: 'notifyType', kind: 'select', options: options(invoiceNotifyTypes, 'invoiceNotifyType') },
      { key: 'applyTime', kind: 'dateRange', keys: ['startTime', 'endTime'], label: 'fields.invoice.applyTime', zoneDays: true },
      { key: 'providerId', kind: 'select', remote: providerOptions },
    ],
    initialValues: () => ({ principalType: 'company', notifyType: 'mail', chargeRecordIds: [], rechargeIds: [] }),
    form: [
      { key: 'chargeUserId', kind: 'select', remote: users, span: 24 },
      { key: 'chargeRecordIds', kind: 'custom', span: 24, label: 'fields.invoice.items', render: (ctx) => <InvoiceItemsField {...ctx} /> },
      {
        key: 'principalType',
        kind: 'select',
        options: options(invoicePrincipalTypes, 'invoicePrincipalType'),
        props: { allowClear: false },
      },
      { key: 'name', kind: 'text', props: { maxLength: 100 } },
      { key: 'taxNumber', kind: 'text', props: { maxLength: 32 } },
      { key: 'recipientName', kind: 'text', props: { maxLength: 50 } },
      { key: 'mobile', kind: 'text', props: { maxLength: 30 } },
      { key: 'email', kind: 'text', props: { maxLength: 100 } },
      { key: 'address', kind: 'text', span: 24, props: { maxLength: 255 } },
      { key: 'notifyType', kind: 'select', options: options(invoiceNotifyTypes, 'invoiceNotifyType'), props: { allowClear: false } },
      { key: 'remark', kind: 'textarea', span: 24, props: { rows: 2, maxLength: 500 } },
    ],
    expandable: { render: (row) => <InvoiceItemsTable rows={row.items} /> },
    rowActions: [
      {
        key: 'issue',
        label: 'invoice.issue',
        icon: <FileDoneOutlined />,
        permi: permiOf(invoiceApi.issue),
        hidden: (row) => row.status !== 'applied',
        onClick: (row) => actions.issue(row),
      },
      {
        key: 'reject',
        label: 'invoice.reject',
        icon: <CloseCircleOutlined />,
        danger: true,
        permi: permiOf(invoiceApi.reject),
        hidden: (row) => row.status !== 'applied',
        onClick: (row, ctx) =>
          ctx.prompt({
            title: 'invoice.rejectTitle',
            field: 'reason',
            schema: invoiceApi.reject.body,
            base: { id: row.id },
            success: 'invoice.rejected',
            onOk: async (reason) => {
              await call(invoiceApi.reject, { body: { id: row.id, reason } });
            },
          }),
      },
    ],
  });
}
