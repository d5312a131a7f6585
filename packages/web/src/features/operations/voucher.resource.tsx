import { LinkOutlined, StopOutlined } from '@ant-design/icons';
import { voucherIssue, voucherRevoke, voucherStatuses, type VoucherStatus, voucherApi } from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatMoney } from '../../shared/format/units';
import { chargeUserOptions } from '../../shared/options/charge-user-options';
import { groupOptions } from '../../shared/options/group-options';
import { providerOptions } from '../../shared/options/provider-options';
import { defineResource } from '../../shared/resource/types';
import { VoucherValue } from './voucher-value';
import { templateOptions } from './template-options';

const STATUS_COLOR: Record<VoucherStatus, string> = { unused: 'green', used: 'blue', expired: 'default', revoked: 'red' };
function StatusTag({ status }: { status: VoucherStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-status={status}>
      {t(`enums.voucherStatus.${status}`)}
    </Tag>
  );
}

const permiOf = (p: { access: unknown }) => {
  const a = p.access as { permi?: string };
  return a.permi ? [a.permi] : [];
};

/**
 * Issued vouchers (issue 19 item 3): "add" issues a template to chosen users or to every member of a
 * group; an unused one may be revoked with a reason. Expired is an unused voucher past its end, as read.
 */
export const voucherResource = defineResource({
  name: 'voucher',
  api: { list: voucherApi.list, get: voucherApi.get, add: voucherApi.issue, export: voucherApi.export },
  exportSource: 'voucher',
  formSchema: { create: voucherIssue },
  texts: { createTitle: 'voucher.issueTitle', saved: 'voucher.issued' },
  columns: [
    { key: 'id', width: 80 },
    { key: 'name', width: 150, fixed: 'left' },
    { key: 'account', width: 140 },
    { key: 'status', width: 100, render: (v) => <StatusTag status={v as VoucherStatus} /> },
    { key: 'kind', width: 160, render: (_v, row) => <VoucherValue row={row} part="kind" /> },
    { key: 'value', width: 100, render: (_v, row) => <VoucherValue row={row} part="value" /> },
    { key: 'minBillCents', width: 120, render: (v) => formatMoney(v) },
    { key: 'validFrom', kind: 'datetime', width: 170, defaultHidden: true },
    { key: 'validUntil', kind: 'datetime', width: 170 },
    { key: 'usedTime', kind: 'datetime', width: 170 },
    { key: 'chosenFor', width: 130, defaultHidden: true },
    { key: 'transactionId', width: 110 },
    { key: 'discountCents', width: 110, render: (v) => formatMoney(v) },
    { key: 'issuedByName', width: 110, defaultHidden: true },
    { key: 'revokeReason', width: 160, ellipsis: true, defaultHidden: true },
    { key: 'providerName', width: 150, defaultHidden: true },
    { key: 'createTime', kind: 'datetime', width: 170 },
  ],
  search: [
    { key: 'account', kind: 'text' },
    { key: 'status', kind: 'select', options: voucherStatuses.map((v) => ({ value: v, label: `enums.voucherStatus.${v}` })) },
    { key: 'templateId', kind: 'select', remote: templateOptions },
    { key: 'transactionId', kind: 'number' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  form: [
    { key: 'templateId', kind: 'select', remote: templateOptions, span: 24 },
    { key: 'chargeUserIds', kind: 'select', remote: chargeUserOptions(), span: 24, props: { mode: 'multiple' } },
    { key: 'groupId', kind: 'select', remote: groupOptions, span: 24, extra: () => 'voucher.groupHint' },
  ],
  rowActions: [
    {
      // The session it is to be used on (issue 19 item 4): settlement uses it there when it applies.
      key: 'choose',
      label: 'voucher.choose',
      icon: <LinkOutlined />,
      permi: permiOf(voucherApi.choose),
      hidden: (row) => row.status !== 'unused',
      onClick: (row, ctx) =>
        ctx.prompt({
          title: 'voucher.chooseTitle',
          // Labelled as the column showing the choice; sent as the session's transaction id.
          field: 'chosenFor',
          hint: 'voucher.chooseHint',
          success: 'voucher.chosen',
          onOk: (transactionId) =>
            call(voucherApi.choose, { body: { transactionId: Number(transactionId), voucherId: row.id } }).then(() => undefined),
        }),
    },
    {
      key: 'revoke',
      label: 'voucher.revoke',
      icon: <StopOutlined />,
      danger: true,
      permi: permiOf(voucherApi.revoke),
      hidden: (row) => row.status !== 'unused',
      onClick: (row, ctx) =>
        ctx.prompt({
          title: 'voucher.revokeTitle',
          field: 'revokeReason',
          schema: voucherRevoke,
          base: { id: row.id },
          success: 'voucher.revoked',
          onOk: (revokeReason) => call(voucherApi.revoke, { body: { id: row.id, revokeReason } }).then(() => undefined),
        }),
    },
  ],
});
