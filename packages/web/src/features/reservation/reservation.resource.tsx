import {
  MAX_RESERVATION_HOURS,
  reservationCreate,
  reservationStatuses,
  type ReservationDto,
  type ReservationStatus,
  reservationApi,
} from '@csms/contract';
import { Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';
import { formatMoney } from '../../shared/format/units';
import { stationOptions } from '../../shared/options/station-point-options';
import { confirmAction } from '../../shared/resource/row-actions';
import { defineResource } from '../../shared/resource/types';
import { ReserveConnectorField, ReservePointField, ReserveUserField } from './reservation-inputs';

const statusColor: Record<ReservationStatus, string> = {
  reserved: 'processing',
  used: 'success',
  cancelled: 'default',
  expired: 'default',
  faulted: 'error',
  occupied: 'warning',
  rejected: 'error',
  unavailable: 'warning',
};

function StatusTag({ status }: { status: ReservationStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={statusColor[status]} data-status={status}>
      {t(`enums.reservationStatus.${status}`)}
    </Tag>
  );
}

/** A connector number; 0 is whichever connector of the point the charger keeps. */
function Connector({ n }: { n: number }) {
  const { t } = useTranslation();
  return <>{n === 0 ? t('enums.anyConnector.0') : n}</>;
}

/** The picker offers the next three days only (the server's bound is to the hour). */
const outOfReach = (d: Dayjs) => d.isBefore(dayjs().startOf('day')) || d.isAfter(dayjs().add(MAX_RESERVATION_HOURS, 'hour'));

// The station only narrows the point picker: the server takes the point's.
const formSchema = { create: reservationCreate.extend({ stationId: z.number().int().positive().optional() }) };

/**
 * Reservations (spec §3 "Reservation"; issue 15 item 4): ReserveNow on a point for a charge user's
 * card until an expiry, the charger's answer kept as the status; a reserved one can be cancelled.
 */
export const reservationResource = defineResource({
  name: 'reservation',
  api: { list: reservationApi.list, get: reservationApi.get, add: reservationApi.add, export: reservationApi.export },
  exportSource: 'reservation',
  formSchema,
  texts: { createTitle: 'reservation.reserveTitle', saved: 'reservation.sent' },
  columns: [
    { key: 'id', width: 100, sorter: true },
    { key: 'stationName', width: 150 },
    { key: 'serialNumber', width: 170 },
    { key: 'pointName', width: 130, defaultHidden: true },
    { key: 'connectorNo', width: 110, render: (v) => <Connector n={v as number} /> },
    { key: 'chargeUserAccount', width: 140 },
    { key: 'cardNumber', width: 150 },
    { key: 'expiryTime', kind: 'datetime', width: 170, sorter: true },
    { key: 'status', width: 110, render: (v) => <StatusTag status={v as ReservationStatus} /> },
    {
      key: 'chargerStatus',
      width: 130,
      render: (v) => (typeof v === 'string' && v ? <Typography.Text code>{v}</Typography.Text> : null),
    },
    { key: 'transactionId', width: 120 },
    { key: 'feeCents', width: 140, render: (v) => formatMoney(v) },
    { key: 'providerName', width: 140, defaultHidden: true },
    { key: 'createdByName', width: 110 },
    { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
    { key: 'updateTime', kind: 'datetime', width: 170, defaultHidden: true },
  ],
  search: [
    { key: 'serialNumber', kind: 'text' },
    { key: 'chargeUserAccount', kind: 'text' },
    { key: 'status', kind: 'select', options: reservationStatuses.map((s) => ({ value: s, label: `enums.reservationStatus.${s}` })) },
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
  ],
  initialValues: () => ({ connectorNo: 0, expiryTime: dayjs().add(1, 'hour').second(0).millisecond(0) }),
  form: [
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'serialNumber', kind: 'custom', render: (ctx) => <ReservePointField {...ctx} /> },
    { key: 'connectorNo', kind: 'custom', render: (ctx) => <ReserveConnectorField {...ctx} /> },
    { key: 'chargeUserId', kind: 'custom', extra: () => 'reservation.userHint', render: (ctx) => <ReserveUserField {...ctx} /> },
    {
      key: 'expiryTime',
      kind: 'datetime',
      extra: () => 'reservation.expiryHint',
      props: { format: 'YYYY-MM-DD HH:mm', showTime: { format: 'HH:mm' }, disabledDate: outOfReach },
    },
  ],
  toBody: ({ stationId: _station, ...body }) => body,
  onSaved: (data) => {
    // The charger's refusal is stored too (the call succeeded): say that nothing is held.
    const saved = data as ReservationDto;
    if (saved.status !== 'reserved')
      feedback.message.warning(i18n.t('reservation.refused', { status: i18n.t(`enums.reservationStatus.${saved.status}`) }));
  },
  rowActions: [
    confirmAction<ReservationDto>({
      key: 'cancel',
      label: 'reservation.cancel',
      permi: ['smart:reservation:cancel'],
      danger: true,
      hidden: (row) => row.status !== 'reserved',
      content: 'reservation.cancelConfirm',
      params: (row) => ({ id: row.id, serialNumber: row.serialNumber }),
      run: (row) => call(reservationApi.cancel, { body: { id: row.id } }),
      success: 'reservation.cancelled',
    }),
  ],
});
