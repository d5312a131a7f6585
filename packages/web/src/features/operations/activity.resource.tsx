import { PlayCircleOutlined, StopOutlined } from '@ant-design/icons';
import {
  activityCreate,
  activityDiscountKinds,
  activityEdit,
  activityStatuses,
  activityTypes,
  api,
  type ActivityDto,
  type ActivityStatus,
} from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatMoney, formatUnitPrice } from '../../shared/format/units';
import { groupOptions } from '../../shared/options/group-options';
import { providerOptions } from '../../shared/options/provider-options';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource } from '../../shared/resource/types';

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
function Discount({ row }: { row: ActivityDto }) {
  const { t } = useTranslation();
  return (
    <span data-discount={row.discountValue}>
      {row.discountKind === 'percent'
        ? t('activity.percentOff', { value: row.discountValue })
        : t('activity.perKwhOff', { value: formatUnitPrice(row.discountValue) })}
    </span>
  );
}
function Hours({ row }: { row: ActivityDto }) {
  const { t } = useTranslation();
  return <>{row.hours.length ? row.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ') : t('activity.allDay')}</>;
}
const permiOf = (p: { access: unknown }) => {
  const a = p.access as { permi?: string };
  return a.permi ? [a.permi] : [];
};

/**
 * Activities (issue 19 item 2): service-fee discounts over a period, at stations and for groups (none:
 * all), percent or per kWh, optionally only in some local hours. A draft is edited; activating fixes
 * its terms; ending it early stops its discount for sessions that end afterwards.
 */
export const activityResource = defineResource({
  name: 'activity',
  api: {
    list: api.activity.list,
    get: api.activity.get,
    add: api.activity.add,
    edit: api.activity.edit,
    remove: api.activity.remove,
    export: api.activity.export,
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
    { key: 'discountValue', width: 160, render: (_v, row) => <Discount row={row} /> },
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
    discountValue: row.discountKind === 'perKwh' ? row.discountValue / 10_000 : row.discountValue,
  }),
  toBody: (v) => ({
    ...v,
    discountValue: v.discountKind === 'perKwh' ? Math.round(Number(v.discountValue ?? 0) * 10_000) : Number(v.discountValue ?? 0),
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
    { key: 'discountKind', kind: 'select', options: options(activityDiscountKinds, 'activityDiscountKind'), props: { allowClear: false } },
    { key: 'discountValue', kind: 'number', extra: () => 'activity.valueHint', props: { min: 0, precision: 4 } },
    { key: 'hours', kind: 'select', options: hourOptions, extra: () => 'activity.hoursHint', props: { mode: 'multiple' } },
    { key: 'stationIds', kind: 'select', remote: stationOptions, extra: () => 'activity.stationsHint', props: { mode: 'multiple' } },
    { key: 'groupIds', kind: 'select', remote: groupOptions, extra: () => 'activity.groupsHint', props: { mode: 'multiple' } },
  ],
  rowActions: [
    {
      key: 'activate',
      label: 'activity.activate',
      icon: <PlayCircleOutlined />,
      permi: permiOf(api.activity.activate),
      hidden: (row) => row.status !== 'draft',
      onClick: (row, ctx) =>
        ctx.confirm({
          content: 'activity.activateConfirm',
          params: { name: row.name },
          success: 'activity.activated',
          onOk: () => call(api.activity.activate, { body: { id: row.id } }),
        }),
    },
    {
      key: 'end',
      label: 'activity.end',
      icon: <StopOutlined />,
      danger: true,
      permi: permiOf(api.activity.end),
      hidden: (row) => row.status !== 'active',
      onClick: (row, ctx) =>
        ctx.confirm({
          content: 'activity.endConfirm',
          params: { name: row.name },
          success: 'activity.ended',
          onOk: () => call(api.activity.end, { body: { id: row.id } }),
        }),
    },
  ],
});

function TypeText({ value }: { value: string }) {
  const { t } = useTranslation();
  return <>{t(`enums.activityType.${value}`)}</>;
}
