import { EditOutlined, HistoryOutlined, StopOutlined } from '@ant-design/icons';
import {
  timedChargeCreate,
  timedChargeEdit,
  timedChargeStatuses,
  type TimedChargeDto,
  type TimedChargeStatus,
  timedChargeApi,
} from '@csms/contract';
import { Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { StationTime } from '../../shared/format/StationTime';
import { stationOptions } from '../../shared/options/station-point-options';
import { DATE_FORMAT } from '../../shared/resource/cells';
import { defineResource } from '../../shared/resource/types';
import { StartTimeInput, TimedChargeUserField, TimedConnectorsField, TimedPointField, ValidPeriodInput } from './timed-charge-inputs';

const permi = (action: string) => `smart:timedCharge:${action}`;

const statusColor: Record<TimedChargeStatus, string> = {
  waiting: 'processing',
  started: 'success',
  finished: 'default',
  failed: 'error',
  cancelled: 'warning',
};

/** The server changes waiting and failed ones only; a started day has already gone to the charger. */
export const editable = (r: Pick<TimedChargeDto, 'status'>) => r.status === 'waiting' || r.status === 'failed';
/** Finished and cancelled ones have no start left to call off. */
export const cancellable = (r: Pick<TimedChargeDto, 'status'>) => r.status !== 'finished' && r.status !== 'cancelled';

export function TimedChargeStatusTag({ status }: { status: TimedChargeStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={statusColor[status]} data-status={status}>
      {t(`enums.timedChargeStatus.${status}`)}
    </Tag>
  );
}

/** A value of an enum group in the user's language (`enums.<group>.<value>`), nothing for none. */
export function EnumWord({ group, value }: { group: string; value: unknown }) {
  const { t } = useTranslation();
  return <>{value ? t(`enums.${group}.${String(value)}`) : ''}</>;
}

/** An instant on the station's wall clock, its zone named beside it (a daily start means that clock's time). */
export function ZonedTime({ at, zone }: { at: unknown; zone: string }) {
  if (typeof at !== 'string' || !at) return null;
  return (
    <Space size={4} wrap={false}>
      <StationTime at={at} zone={zone} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {zone}
      </Typography.Text>
    </Space>
  );
}

// The station only narrows the point picker: the server takes the point's. The valid period is one
// range input held under `validTo`, where the contract puts the period's own checks (order, length).
const station = { stationId: z.number().int().positive().optional() };
const formSchema = { create: timedChargeCreate.safeExtend(station), edit: timedChargeEdit.safeExtend(station) };

export interface TimedChargeActions {
  cancel: (rows: TimedChargeDto[]) => void;
  runs: (row: TimedChargeDto) => void;
}

/**
 * Timed charging (spec §3 "Timed charge"; issue 15 item 3): every day of the valid period, at the
 * start time on the station's clock, the server remotely starts the chosen connectors for the
 * charge user's card. Each day's outcome per connector is in the row's runs.
 */
export function timedChargeResource(actions: TimedChargeActions) {
  return defineResource({
    name: 'timedCharge',
    api: {
      list: timedChargeApi.list,
      get: timedChargeApi.get,
      add: timedChargeApi.add,
      edit: timedChargeApi.edit,
      export: timedChargeApi.export,
    },
    exportSource: 'timedCharge',
    formSchema,
    formWidth: 640,
    columns: [
      { key: 'id', width: 100, sorter: true },
      { key: 'stationName', width: 150 },
      { key: 'serialNumber', width: 170 },
      { key: 'pointName', width: 130, defaultHidden: true },
      { key: 'connectors', width: 100, render: (v) => (v as number[]).join(', ') },
      { key: 'chargeUserAccount', width: 140 },
      { key: 'validFrom', label: 'fields.timedCharge.validPeriod', width: 210, render: (_, r) => `${r.validFrom} ~ ${r.validTo}` },
      { key: 'startTime', width: 120 },
      { key: 'status', width: 100, render: (v) => <TimedChargeStatusTag status={v as TimedChargeStatus} /> },
      { key: 'nextRunTime', width: 260, render: (v, r) => <ZonedTime at={v} zone={r.timeZone} /> },
      { key: 'lastRunDay', width: 120 },
      { key: 'lastReason', width: 200, ellipsis: true, render: (v) => <EnumWord group="timedChargeReason" value={v} /> },
      { key: 'providerName', width: 140, defaultHidden: true },
      { key: 'createdByName', width: 110, defaultHidden: true },
      { key: 'createTime', kind: 'datetime', width: 170 },
    ],
    search: [
      { key: 'serialNumber', kind: 'text' },
      { key: 'chargeUserAccount', kind: 'text' },
      { key: 'status', kind: 'select', options: timedChargeStatuses.map((s) => ({ value: s, label: `enums.timedChargeStatus.${s}` })) },
      { key: 'stationId', kind: 'select', remote: stationOptions },
    ],
    form: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'serialNumber', kind: 'custom', render: (ctx) => <TimedPointField {...ctx} /> },
      { key: 'connectors', kind: 'custom', render: (ctx) => <TimedConnectorsField {...ctx} /> },
      { key: 'chargeUserId', kind: 'custom', extra: () => 'timedCharge.userHint', render: (ctx) => <TimedChargeUserField {...ctx} /> },
      { key: 'validTo', kind: 'custom', label: 'fields.timedCharge.validPeriod', render: (ctx) => <ValidPeriodInput t={ctx.t} /> },
      { key: 'startTime', kind: 'custom', extra: () => 'timedCharge.startTimeHint', render: (ctx) => <StartTimeInput t={ctx.t} /> },
    ],
    toForm: (row) => ({ ...row, validTo: [dayjs(row.validFrom), dayjs(row.validTo)] }),
    toBody: (values) => {
      const { stationId: _station, validTo: period, ...rest } = values;
      const range = Array.isArray(period) ? (period as Dayjs[]) : undefined;
      return range ? { ...rest, validFrom: range[0]!.format(DATE_FORMAT), validTo: range[1]!.format(DATE_FORMAT) } : rest;
    },
    // Its own edit button, shown for the rows the server still changes (rowReadOnly would also keep the others from the batch cancel).
    hideActions: ['edit'],
    rowActions: [
      {
        key: 'edit',
        label: 'common.edit',
        icon: <EditOutlined />,
        permi: [permi('edit')],
        hidden: (row) => !editable(row),
        onClick: (row, ctx) => ctx.openEdit(row),
      },
      { key: 'runs', label: 'timedCharge.runs', icon: <HistoryOutlined />, permi: [permi('query')], onClick: (row) => actions.runs(row) },
    ],
    batchActions: [
      {
        key: 'cancel',
        label: 'timedCharge.cancel',
        icon: <StopOutlined />,
        permi: permi('cancel'),
        applies: cancellable,
        onClick: (rows) => actions.cancel(rows),
      },
    ],
  });
}
