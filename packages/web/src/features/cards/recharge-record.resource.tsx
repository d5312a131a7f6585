import { rechargeRecordApi } from '@csms/contract';
import { Link } from 'react-router';
import { defineResource } from '../../shared/resource/types';
import { formatMoney } from '../../shared/format/units';
import { providerOptions } from './options';

const money = (v: unknown) => formatMoney(v);

/** Recharge records (finance, spec §3): the ledger's recharges and refunds, read-only; charges on request. */
export const rechargeRecordResource = defineResource({
  name: 'rechargeRecord',
  api: { list: rechargeRecordApi.list, get: rechargeRecordApi.get, export: rechargeRecordApi.export },
  exportSource: 'rechargeRecord',
  columns: [
    // The record's transaction ID (spec §3), to quote when a driver asks about a payment.
    { key: 'id', width: 130, sorter: true },
    { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
    { key: 'tradeType', dict: 'tradeType', width: 110 },
    { key: 'accountKind', dict: 'accountKind', width: 120 },
    { key: 'cardNumber', width: 140 },
    { key: 'account', width: 130 },
    { key: 'amountCents', width: 110, sorter: true, render: money },
    { key: 'discountCents', width: 110, render: money },
    { key: 'balanceBeforeCents', width: 120, render: money },
    { key: 'balanceAfterCents', width: 120, render: money },
    { key: 'operatorName', width: 120 },
    { key: 'source', dict: 'ledgerSource', width: 120 },
    { key: 'thirdPartyTxnId', width: 180, ellipsis: true },
    { key: 'transactionRef', width: 130, defaultHidden: true },
    // Issue 18: the corporate transfer a row credited and the invoice covering it, each opening its record.
    {
      key: 'transferId',
      width: 120,
      render: (v) => (typeof v === 'number' ? <Link to={`/financialManagement/transferRecord?id=${v}`}>{v}</Link> : null),
    },
    {
      key: 'invoiceId',
      width: 100,
      render: (v) => (typeof v === 'number' ? <Link to={`/financialManagement/invoiceRecordManage?id=${v}`}>{v}</Link> : null),
    },
    { key: 'providerName', width: 150 },
  ],
  search: [
    { key: 'time', kind: 'dateRange', keys: ['startTime', 'endTime'], label: 'fields.rechargeRecord.createTime', zoneDays: true },
    { key: 'account', kind: 'text' },
    { key: 'cardNumber', kind: 'text' },
    { key: 'tradeType', kind: 'dict', dict: 'tradeType' },
    { key: 'accountKind', kind: 'dict', dict: 'accountKind' },
    { key: 'thirdPartyTxnId', kind: 'text' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
});
