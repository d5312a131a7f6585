import { type CardDto, type LedgerRow, cardApi } from '@csms/contract';
import { Form } from 'antd';
import { call } from '../../shared/api/client';
import { confirmAction } from '../../shared/resource/row-actions';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { formatMoney } from '../../shared/format/units';
import { ChargeUserSelect, MasterPassSwitch, MoneyInput, PhysicalIdInput, type ChargeUserSelectProps } from './inputs';
import { LedgerTable } from './ledger-table';
import { providerOptions } from './options';

const permi = (action: string) => `user:card:${action}`;

/** Stored as valid (possibly past its date): may be reported lost or marked expired. */
const storedValid = (c: CardDto) => c.state === 'valid' || c.expiredBy === 'date';

function OwnerField({ form, record, mode, t, ...injected }: FormFieldCtx & Pick<ChargeUserSelectProps, 'value' | 'onChange' | 'id'>) {
  // Only users of the card's provider may own it.
  const providerId = Form.useWatch('providerId', form) as number | undefined;
  const initial = record?.chargeUserId ? { value: record.chargeUserId as number, label: String(record.account) } : null;
  return (
    <ChargeUserSelect
      {...injected}
      providerId={providerId}
      initial={initial}
      disabled={mode === 'create' && providerId === undefined}
      placeholder={t('cards.searchPlaceholder')}
    />
  );
}

export interface CardActions {
  recharge: (card: CardDto) => void;
  refund: (card: CardDto) => void;
}

/**
 * RFID cards (spec §3, §4): issue with the reader, search, detail with the balance history,
 * report lost, cancel loss, mark expired, recharge and refund (dialogs of the page).
 */
export function cardResource(actions: CardActions) {
  return defineResource({
    name: 'card',
    api: { list: cardApi.list, get: cardApi.get, add: cardApi.add, edit: cardApi.edit, export: cardApi.export },
    exportSource: 'card',
    texts: { createTitle: 'card.issue' },
    columns: [
      { key: 'id', width: 80, sorter: true, defaultHidden: true },
      { key: 'cardNumber', width: 150, sorter: true },
      { key: 'physicalId', width: 150 },
      { key: 'account', width: 130 },
      { key: 'phone', width: 130, defaultHidden: true },
      { key: 'email', width: 180, ellipsis: true, defaultHidden: true },
      { key: 'balanceCents', width: 110, sorter: true, render: (v) => formatMoney(v) },
      { key: 'state', dict: 'cardState', width: 100 },
      { key: 'expiredBy', dict: 'cardExpiredBy', width: 150, hideInTable: true },
      { key: 'expireTime', kind: 'datetime', width: 170, sorter: true },
      { key: 'masterPass', dict: 'yesNo', width: 100, defaultHidden: true },
      { key: 'providerName', width: 150 },
      { key: 'createTime', kind: 'datetime', width: 170, sorter: true, defaultHidden: true },
    ],
    detailColumns: [{ key: 'ledger', wide: true, render: (rows) => <LedgerTable rows={rows as LedgerRow[]} /> }],
    search: [
      { key: 'cardNumber', kind: 'text' },
      { key: 'physicalId', kind: 'text' },
      { key: 'account', kind: 'text' },
      { key: 'state', kind: 'dict', dict: 'cardState' },
      { key: 'providerId', kind: 'select', remote: providerOptions },
    ],
    form: [
      { key: 'cardNumber', kind: 'text', readOnlyOn: 'edit' },
      {
        key: 'physicalId',
        kind: 'custom',
        extra: ({ mode }) => (mode === 'create' ? 'card.readCardHint' : undefined),
        render: ({ mode, t }) => (
          <PhysicalIdInput disabled={mode === 'edit'} placeholder={t('kit.inputPlaceholder', { field: t('fields.card.physicalId') })} />
        ),
      },
      { key: 'providerId', kind: 'select', remote: providerOptions, readOnlyOn: 'edit' },
      { key: 'chargeUserId', kind: 'custom', render: (ctx) => <OwnerField {...ctx} /> },
      { key: 'expireTime', kind: 'datetime' },
      { key: 'email', kind: 'text' },
      { key: 'masterPass', kind: 'custom', render: () => <MasterPassSwitch /> },
      {
        key: 'prepaidCents',
        kind: 'custom',
        on: 'create',
        extra: () => 'cards.amountHint',
        render: ({ t }) => <MoneyInput placeholder={t('kit.inputPlaceholder', { field: t('fields.card.prepaidCents') })} />,
      },
      { key: 'thirdPartyTxnId', kind: 'text', on: 'create' },
    ],
    rowActions: [
      {
        key: 'recharge',
        label: 'card.recharge',
        permi: [permi('recharge')],
        hidden: (row) => row.state !== 'valid',
        onClick: (row) => actions.recharge(row),
      },
      {
        key: 'refund',
        label: 'card.refund',
        permi: [permi('refund')],
        hidden: (row) => row.balanceCents <= 0,
        onClick: (row) => actions.refund(row),
      },
      confirmAction<CardDto>({
        key: 'reportLoss',
        label: 'card.reportLoss',
        permi: [permi('lost')],
        danger: true,
        hidden: (row) => !storedValid(row),
        content: 'card.reportLossConfirm',
        params: (row) => ({ cardNumber: row.cardNumber }),
        run: (row) => call(cardApi.reportLoss, { body: { id: row.id } }),
      }),
      confirmAction<CardDto>({
        key: 'cancelLoss',
        label: 'card.cancelLoss',
        permi: [permi('cancelLoss')],
        hidden: (row) => row.state !== 'lost',
        content: 'card.cancelLossConfirm',
        params: (row) => ({ cardNumber: row.cardNumber }),
        run: (row) => call(cardApi.cancelLoss, { body: { id: row.id } }),
      }),
      confirmAction<CardDto>({
        key: 'expire',
        label: 'card.expire',
        permi: [permi('expire')],
        danger: true,
        hidden: (row) => !storedValid(row),
        content: 'card.expireConfirm',
        params: (row) => ({ cardNumber: row.cardNumber }),
        run: (row) => call(cardApi.expire, { body: { id: row.id } }),
      }),
    ],
  });
}
