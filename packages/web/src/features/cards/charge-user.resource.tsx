import { type ChargeUserDto, chargeUserApi } from '@csms/contract';
import { Form } from 'antd';
import { call } from '../../shared/api/client';
import { confirmAction } from '../../shared/resource/row-actions';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { formatMoney } from '../../shared/format/units';
import { GroupSelect } from './inputs';
import { groupOptions } from '../../shared/options/group-options';
import { providerOptions } from './options';

const permi = (action: string) => `user:chargeUser:${action}`;
const setStatus = (status: 0 | 1) => (row: ChargeUserDto) => call(chargeUserApi.status, { body: { id: row.id, status } });

function GroupField({
  form,
  t,
  ...injected
}: FormFieldCtx & { value?: number | null; onChange?: (v: number | null) => void; id?: string }) {
  // A user joins only a group of its own provider.
  const providerId = Form.useWatch('providerId', form) as number | undefined;
  return (
    <GroupSelect
      {...injected}
      providerId={providerId}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.chargeUser.groupId') })}
    />
  );
}

export interface ChargeUserActions {
  recharge: (user: ChargeUserDto) => void;
  refund: (user: ChargeUserDto) => void;
}

/** Charge users (spec §3): account, contact, type, balances, group, level; enable or disable; mobile recharge and refund. */
export function chargeUserResource(actions: ChargeUserActions) {
  return defineResource({
    name: 'chargeUser',
    api: {
      list: chargeUserApi.list,
      get: chargeUserApi.get,
      add: chargeUserApi.add,
      edit: chargeUserApi.edit,
      remove: chargeUserApi.remove,
      export: chargeUserApi.export,
    },
    exportSource: 'chargeUser',
    columns: [
      { key: 'id', width: 80, sorter: true, defaultHidden: true },
      { key: 'account', width: 140, sorter: true },
      { key: 'phone', width: 130 },
      { key: 'email', width: 180, ellipsis: true, defaultHidden: true },
      { key: 'userType', dict: 'chargeUserType', width: 120 },
      { key: 'cardCount', width: 100, sorter: true },
      { key: 'cardBalanceCents', width: 110, sorter: true, render: (v) => formatMoney(v) },
      { key: 'mobileBalanceCents', width: 110, sorter: true, render: (v) => formatMoney(v) },
      { key: 'groupName', width: 130 },
      { key: 'memberLevelName', width: 110 },
      { key: 'status', dict: 'userStatus', width: 90 },
      { key: 'providerName', width: 150 },
      { key: 'registerTime', kind: 'datetime', width: 170, sorter: true },
    ],
    search: [
      { key: 'account', kind: 'text' },
      { key: 'phone', kind: 'text' },
      { key: 'userType', kind: 'dict', dict: 'chargeUserType' },
      { key: 'status', kind: 'dict', dict: 'userStatus' },
      { key: 'groupId', kind: 'select', remote: groupOptions },
      { key: 'providerId', kind: 'select', remote: providerOptions },
      { key: 'registerTime', kind: 'dateRange', keys: ['startTime', 'endTime'], instant: true },
    ],
    form: [
      { key: 'account', kind: 'text' },
      { key: 'providerId', kind: 'select', remote: providerOptions, readOnlyOn: 'edit' },
      { key: 'userType', kind: 'dict', dict: 'chargeUserType' },
      { key: 'phone', kind: 'text' },
      { key: 'email', kind: 'text' },
      { key: 'groupId', kind: 'custom', render: (ctx) => <GroupField {...ctx} /> },
    ],
    rowActions: [
      {
        key: 'recharge',
        label: 'chargeUser.recharge',
        permi: [permi('recharge')],
        onClick: (row) => actions.recharge(row),
      },
      {
        key: 'refund',
        label: 'chargeUser.refund',
        permi: [permi('refund')],
        hidden: (row) => row.mobileBalanceCents <= 0,
        onClick: (row) => actions.refund(row),
      },
      confirmAction<ChargeUserDto>({
        key: 'disable',
        label: 'chargeUser.disable',
        permi: [permi('status')],
        danger: true,
        hidden: (row) => row.status !== 1,
        content: 'chargeUser.disableConfirm',
        params: (row) => ({ account: row.account }),
        run: setStatus(0),
      }),
      confirmAction<ChargeUserDto>({
        key: 'enable',
        label: 'chargeUser.enable',
        permi: [permi('status')],
        hidden: (row) => row.status === 1,
        content: 'chargeUser.enableConfirm',
        params: (row) => ({ account: row.account }),
        run: setStatus(1),
      }),
    ],
  });
}
