import { PlayCircleOutlined, StopOutlined } from '@ant-design/icons';
import {
  activityCreate,
  activityDiscountKinds,
  activityEdit,
  activityStatuses,
  activityTypes,
  grantTargets,
  type ActivityDto,
  type ActivityStatus,
  type ActivityType,
  activityApi,
} from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatMoney, formatUnitPrice, unitsToCents } from '../../shared/format/units';
import { groupOptions } from '../../shared/options/group-options';
import { providerOptions } from '../../shared/options/provider-options';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { templateOptions } from './template-options';

const STATUS_COLOR: Record<ActivityStatus, string> = { draft: 'default', active: 'green', ended: 'red' };
const options = (values: readonly string[], group: string) => values.map((v) => ({ value: v, label: `enums.${group}.${v}` }));
const hourOptions = Array.from({ length: 24 }, (_, h) => ({ value: h, label: `${String(h).padStart(2, '0')}:00` }));

function StatusTag({ status }: { status: ActivityStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-status={status}>
      {t(`enums.activityStatus.${status}`)}
    </Tag>
  );
}
/** A type's terms in a line: the discount, the bonus for a recharge, or the voucher granted and to whom. */
function Terms({ row }: { row: ActivityDto }) {
  const { t } = useTranslation();
  const text =
    row.type === 'rechargeBonus'
      ? t('activity.bonusTerms', { min: formatMoney(row.minRechargeCents), bonus: formatMoney(row.bonusCents) })
      : row.type === 'voucherGrant'
        ? t('activity.grantTerms', { template: row.templateName ?? '', to: t(`enums.grantTarget.${row.grantTo ?? 'newUsers'}`) })
        : row.discountKind === 'percent'
          ? t('activity.percentOff', { value: row.discountValue ?? 0 })
          : t('activity.perKwhOff', { value: formatUnitPrice(row.discountValue ?? 0) });
  return <span data-terms={row.type}>{text}</span>;
}
/** A field of one type's terms: shown only while that type is chosen. */
const ofType = (type: ActivityType) => (ctx: FormFieldCtx) => ctx.form.getFieldValue('type') === type;
const money = (v: unknown) => (v === undefined || v === null ? null : unitsToCents(Number(v)));
const units = (cents: number | null) => (cents === null ? null : cents / 100);
function Hours({ row }: { row: ActivityDto }) {
  const { t } = useTranslation();
  return <>{row.hours.length ? row.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ') : t('activity.allDay')}</>;
}
const permiOf = (p: { access: unknown }) => {
  const a = p.access as { permi?: string };
  return a.permi ? [a.permi] : [];
};

/**
 * Activities (issue 19 item 2) over a period, for groups (none: all): service-fee discounts at stations
 * (none: all), percent or per kWh, optionally only in some local hours; recharge bonuses; voucher grants
 * to new users or a group's members. The form shows the chosen type's terms. A draft is edited; activating fixes
 * its terms; ending it early stops its discount for sessions that end afterwards.
 */
export const activityResource = defineResource({
  name: 'activity',
  api: {
    list: activityApi.list,
    get: activityApi.get,
    add: activityApi.add,
    edit: activityApi.edit,
    remove: activityApi.remove,
    export: activityApi.export,
  },
  exportSource: 'activity',
  formSchema: { create: activityCreate, edit: activityEdit },
  rowReadOnly: (row) => row.status !== 'draft',
  // The table shows every term; edit, delete and activate stay in the row for drafts.
  hideActions: ['detail'],
  columns: [
    { key: 'id', width: 80, defaultHidden: true },
    { key: 'name', width: 160, fixed: 'left' },
    { key: 'status', width: 100, render: (v) => <StatusTag status={v as ActivityStatus} /> },
    { key: 'type', width: 150, render: (v) => <TypeText value={String(v)} /> },
    { key: 'discountValue', width: 200, render: (_v, row) => <Terms row={row} /> },
    { key: 'hours', width: 160, render: (_v, row) => <Hours row={row} /> },
    { key: 'startTime', kind: 'datetime', width: 170 },
    { key: 'endTime', kind: 'datetime', width: 170 },
    { key: 'endedTime', kind: 'datetime', width: 170 },
    { key: 'sessionCount', width: 110 },
    { key: 'discountCents', width: 110, render: (v) => formatMoney(v) },
    { key: 'providerName', width: 150, defaultHidden: true },
  ],
  search: [
    { key: 'name', kind: 'text' },
    { key: 'status', kind: 'select', options: options(activityStatuses, 'activityStatus') },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  initialValues: () => ({ type: 'serviceDiscount', discountKind: 'percent', stationIds: [], groupIds: [], hours: [] }),
  toForm: (row: ActivityDto) => ({
    ...row,
    discountValue: row.discountKind === 'perKwh' && row.discountValue !== null ? row.discountValue / 10_000 : row.discountValue,
    minRechargeCents: units(row.minRechargeCents),
    bonusCents: units(row.bonusCents),
  }),
  toBody: (v) => ({
    ...v,
    discountValue:
      v.discountValue === undefined || v.discountValue === null
        ? null
        : v.discountKind === 'perKwh'
          ? Math.round(Number(v.discountValue) * 10_000)
          : Number(v.discountValue),
    minRechargeCents: money(v.minRechargeCents),
    bonusCents: money(v.bonusCents),
    stationIds: v.stationIds ?? [],
    groupIds: v.groupIds ?? [],
    hours: v.hours ?? [],
  }),
  form: [
    { key: 'providerId', kind: 'select', remote: providerOptions, on: 'create' },
    { key: 'name', kind: 'text', props: { maxLength: 50 } },
    { key: 'type', kind: 'select', options: options(activityTypes, 'activityType'), props: { allowClear: false } },
    { key: 'startTime', kind: 'datetime' },
    { key: 'endTime', kind: 'datetime' },
    {
      key: 'discountKind',
      kind: 'select',
      options: options(activityDiscountKinds, 'activityDiscountKind'),
      visible: ofType('serviceDiscount'),
      props: { allowClear: false },
    },
    {
      key: 'discountValue',
      kind: 'number',
      visible: ofType('serviceDiscount'),
      extra: () => 'activity.valueHint',
      props: { min: 0, precision: 4 },
    },
    {
      key: 'hours',
      kind: 'select',
      options: hourOptions,
      visible: ofType('serviceDiscount'),
      extra: () => 'activity.hoursHint',
      props: { mode: 'multiple' },
    },
    {
      key: 'stationIds',
      kind: 'select',
      remote: stationOptions,
      visible: ofType('serviceDiscount'),
      extra: () => 'activity.stationsHint',
      props: { mode: 'multiple' },
    },
    { key: 'minRechargeCents', kind: 'number', visible: ofType('rechargeBonus'), props: { min: 0, precision: 2 } },
    {
      key: 'bonusCents',
      kind: 'number',
      visible: ofType('rechargeBonus'),
      extra: () => 'activity.bonusHint',
      props: { min: 0, precision: 2 },
    },
    { key: 'templateId', kind: 'select', remote: templateOptions, visible: ofType('voucherGrant') },
    { key: 'grantTo', kind: 'select', options: options(grantTargets, 'grantTarget'), visible: ofType('voucherGrant') },
    { key: 'groupIds', kind: 'select', remote: groupOptions, extra: () => 'activity.groupsHint', props: { mode: 'multiple' } },
  ],
  rowActions: [
    {
      key: 'activate',
      label: 'activity.activate',
      icon: <PlayCircleOutlined />,
      permi: permiOf(activityApi.activate),
      hidden: (row) => row.status !== 'draft',
      onClick: (row, ctx) =>
        ctx.confirm({
          content: 'activity.activateConfirm',
          params: { name: row.name },
          success: 'activity.activated',
          onOk: () => call(activityApi.activate, { body: { id: row.id } }),
        }),
    },
    {
      key: 'end',
      label: 'activity.end',
      icon: <StopOutlined />,
      danger: true,
      permi: permiOf(activityApi.end),
      hidden: (row) => row.status !== 'active',
      onClick: (row, ctx) =>
        ctx.confirm({
          content: 'activity.endConfirm',
          params: { name: row.name },
          success: 'activity.ended',
          onOk: () => call(activityApi.end, { body: { id: row.id } }),
        }),
    },
  ],
});

function TypeText({ value }: { value: string }) {
  const { t } = useTranslation();
  return <>{t(`enums.activityType.${value}`)}</>;
}
