import { z } from 'zod';
import { crud, dayFilter, optText } from '../endpoint.js';

/**
 * Reservations (spec §1, §3 "Reservation: point, connector (or any), user account, expiry date,
 * status, time"; issue 15 item 4; OCPP 1.6 §5.13, §5.3). The server sends ReserveNow with the row's
 * id as reservationId and the charge user's valid card as idTag; the charger's refusal is kept as
 * the reservation's status. A StartTransaction that names the reservation (or the reserving idTag on
 * that connector) makes it used; its expiry makes it expired. The price's reservation fee is charged
 * once, through the ledger, for a used or an expired reservation, never for one the operator cancelled.
 */
export const reservationStatuses = ['reserved', 'used', 'cancelled', 'expired', 'faulted', 'occupied', 'rejected', 'unavailable'] as const;
export type ReservationStatus = (typeof reservationStatuses)[number];

/** The longest a reservation may hold a connector, in hours. */
export const MAX_RESERVATION_HOURS = 72;

const instant = z.iso.datetime({ offset: true });

export const reservationCreate = z.object({
  serialNumber: z.string().trim().min(1).max(48),
  /** 0: any connector of the point. */
  connectorNo: z.number().int().min(0).max(32),
  chargeUserId: z.number().int().positive(),
  /** Checked against the server's clock: in the future, at most MAX_RESERVATION_HOURS ahead. */
  expiryTime: instant,
});

export const reservationDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  serialNumber: z.string(),
  pointName: z.string(),
  connectorNo: z.number(),
  chargeUserId: z.number(),
  chargeUserAccount: z.string(),
  cardNumber: z.string(),
  expiryTime: z.string(),
  status: z.enum(reservationStatuses),
  /** The charger's own word when it refused. */
  chargerStatus: z.string().nullable(),
  /** The session that used it. */
  transactionId: z.number().nullable(),
  /** The reservation fee charged, in cents; null while none is due (reserved, cancelled, refused). */
  feeCents: z.number().nullable(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
  /** When the status last changed. */
  updateTime: z.string(),
});
export type ReservationDto = z.infer<typeof reservationDto>;

export const reservationFilter = z.object({
  serialNumber: optText(48),
  chargeUserAccount: optText(64),
  status: z.enum(reservationStatuses).optional(),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
  startTime: dayFilter,
  endTime: dayFilter,
});

const resource = 'reservation';
const c = crud(resource, 'smart:reservation');

/** `/web/reservation/{action}` (DESIGN.md §4). */
export const reservationApi = {
  list: c.list(reservationFilter, reservationDto),
  get: c.get(reservationDto),
  add: c.add(reservationCreate, reservationDto, {
    operation: 'reserve',
    summary: 'ReserveNow on the point; the reservation is stored with the charger’s answer (refused ones too)',
  }),
  cancel: c.action('cancel', z.object({ id: z.number().int().positive() }), reservationDto, {
    operation: 'cancelReservation',
    summary: 'CancelReservation on the point; on Accepted the reservation is cancelled and no fee is due',
  }),
  export: c.export(reservationFilter),
};
