import { StopOutlined } from '@ant-design/icons';
import { memberOverride, type MemberDto, memberApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { formatKwh, formatMoney } from '../../shared/format/units';
import { providerOptions } from '../../shared/options/provider-options';
import { defineResource } from '../../shared/resource/types';
import { levelOptions } from './level-options';

const permiOf = (p: { access: unknown }) => {
  const a = p.access as { permi?: string };
  return a.permi ? [a.permi] : [];
};

/**
 * Members (issue 19 item 1): each charge user with the level in force, the computed one and what it
 * was computed from; "edit" is the override (a level, a reason, an end date), ended early by a row action.
 */
export const memberResource = defineResource({
  name: 'member',
  api: { list: memberApi.list, get: memberApi.get, edit: memberApi.override, export: memberApi.export },
  exportSource: 'member',
  formSchema: { edit: memberOverride },
  texts: { saved: 'member.overridden' },
  hideActions: ['remove'],
  columns: [
    { key: 'id', width: 80, defaultHidden: true },
    { key: 'account', width: 140, fixed: 'left' },
    { key: 'phone', width: 130, defaultHidden: true },
    { key: 'levelName', width: 120 },
    { key: 'computedLevelName', width: 120 },
    { key: 'validUntil', kind: 'datetime', width: 170 },
    { key: 'spendCents', width: 130, render: (v) => formatMoney(v) },
    { key: 'energyWh', width: 130, render: (v) => formatKwh(v) },
    { key: 'overrideLevelName', width: 120 },
    { key: 'overrideReason', width: 180, ellipsis: true },
    { key: 'overrideUntil', kind: 'datetime', width: 170 },
    { key: 'providerName', width: 150 },
    { key: 'computeTime', kind: 'datetime', width: 170, defaultHidden: true },
  ],
  search: [
    { key: 'account', kind: 'text' },
    { key: 'levelId', kind: 'select', remote: levelOptions },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  toForm: (row: MemberDto) => ({ id: row.id, overrideReason: row.overrideReason ?? undefined }),
  form: [
    { key: 'overrideLevelId', kind: 'select', remote: levelOptions },
    { key: 'overrideUntil', kind: 'date' },
    { key: 'overrideReason', kind: 'textarea', span: 24, props: { rows: 2, maxLength: 200 } },
  ],
  rowActions: [
    {
      key: 'clearOverride',
      label: 'member.clearOverride',
      icon: <StopOutlined />,
      permi: permiOf(memberApi.clearOverride),
      hidden: (row) => row.overrideLevelName === null,
      onClick: (row, ctx) =>
        ctx.confirm({
          content: 'member.clearOverrideConfirm',
          params: { account: row.account },
          success: 'member.overrideCleared',
          onOk: () => call(memberApi.clearOverride, { body: { id: row.id } }),
        }),
    },
  ],
});
