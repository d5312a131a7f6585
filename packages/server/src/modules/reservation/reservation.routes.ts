import { Code, MAX_RESERVATION_HOURS, translate, type ReservationDto, type ReservationStatus, type reservationApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { external, Outcome, type Handlers } from '../../http/mount.js';
import type { DayZone } from '../../lib/day-zone.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { validCardOf } from '../cards/valid-card.js';
import type { ChargingProfileRepo } from '../chargingProfile/chargingProfile.repo.js';
import type { CommandSender } from '../pointAction/pointAction.service.js';
import type { ReservationRepo } from './reservation.repo.js';
import type { ReservationExpiry } from './reservation.service.js';

interface Deps {
  db: Db;
  repo: ReservationRepo;
  /** Points of the caller's scope by serial number (shared with charging profiles). */
  points: Pick<ChargingProfileRepo, 'point'>;
  expiry: Pick<ReservationExpiry, 'schedule'>;
  ask: CommandSender;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  dayZone: DayZone;
  now?: () => Date;
}

/** ReserveNow's answers (OCPP 1.6 §7.37) as the reservation's status. */
const reserveStatus: Record<string, ReservationStatus> = {
  Accepted: 'reserved',
  Faulted: 'faulted',
  Occupied: 'occupied',
  Rejected: 'rejected',
  Unavailable: 'unavailable',
};

/**
 * Reservations (issue 15 item 4). Both changes wait for a charger's answer, so neither holds a
 * database transaction open meanwhile (`external`); the system-log row is written first.
 */
export function reservationRoutes({
  db,
  repo,
  points,
  expiry,
  ask,
  events,
  columns,
  config,
  dayZone,
  now = () => new Date(),
}: Deps): Handlers<typeof reservationApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async get({ query, ctx }) {
      return mustGet(ctx.principal, query.id);
    },
    add: external(async ({ body, ctx, audit }: Parameters<Handlers<typeof reservationApi>['add']>[0]) => {
      const p = ctx.principal;
      const point = await points.point(p, body.serialNumber);
      if (!point) throw notFound();
      audit.operand = `point:${point.serialNumber}:connector:${body.connectorNo}`;
      if (body.connectorNo !== 0 && !point.connectorNos.includes(body.connectorNo))
        throw badField('connectorNo', 'errors.reservation.noSuchConnector', {
          serialNumber: point.serialNumber,
          connector: body.connectorNo,
        });
      const expiryAt = new Date(body.expiryTime);
      const at = now();
      if (expiryAt.getTime() <= at.getTime()) throw badField('expiryTime', 'errors.reservation.expiryPast');
      if (expiryAt.getTime() > at.getTime() + MAX_RESERVATION_HOURS * 3_600_000)
        throw badField('expiryTime', 'errors.reservation.expiryTooFar', { hours: MAX_RESERVATION_HOURS });
      const user = await repo.chargeUser(p, body.chargeUserId);
      if (!user) throw notFound();
      const card = await validCardOf(db, user.id, point.providerId, at);
      if (!card) throw badField('chargeUserId', 'errors.reservation.noCard', { account: user.account });

      // The id goes to the charger first; the row is written with its answer (a refusal is kept too). The
      // reservation is the user's: its parentIdTag (the account, as Authorize answers for each of the user's
      // cards, when it fits OCPP's 20 characters) lets any of their cards use it (OCPP 1.6 §5.13, OCTT TC_053).
      const id = await repo.nextId();
      const a = await ask(point.serialNumber, 'ReserveNow', {
        connectorId: body.connectorNo,
        expiryDate: expiryAt.toISOString(),
        idTag: card.idTag,
        ...(user.account.length <= 20 ? { parentIdTag: user.account } : {}),
        reservationId: id,
      });
      if (a.status === 'offline') throw conflict('errors.reservation.offline', { serialNumber: point.serialNumber }, 'serialNumber');
      if (a.status === 'notImplemented' || a.status === 'notSupported')
        throw conflict('errors.reservation.notSupported', { serialNumber: point.serialNumber }, 'serialNumber');
      const status = a.chargerStatus ? reserveStatus[a.chargerStatus] : undefined;
      if (!status) {
        const word = a.messageKey ? translate(ctx.lang, a.messageKey, a.params) : (a.chargerStatus ?? a.status);
        throw conflict('errors.reservation.noAnswer', { serialNumber: point.serialNumber, status: word }, 'serialNumber');
      }
      await repo.insert({
        id,
        providerId: point.providerId,
        stationId: point.stationId,
        chargePointId: point.id,
        connectorNo: body.connectorNo,
        chargeUserId: user.id,
        cardId: card.id,
        idTag: card.idTag,
        expiryAt,
        status,
        chargerStatus: a.chargerStatus,
        createdBy: p.userId,
      });
      audit.operand = `reservation:${id}`;
      if (status === 'reserved') await expiry.schedule(id, expiryAt);
      return mustGet(p, id);
    }),
    cancel: external(async ({ body, ctx, audit }: Parameters<Handlers<typeof reservationApi>['cancel']>[0]) => {
      const p = ctx.principal;
      const r = await mustGet(p, body.id);
      audit.operand = `reservation:${r.id}`;
      const statusWord = (s: ReservationStatus) => translate(ctx.lang, `enums.reservationStatus.${s}`);
      if (r.status !== 'reserved') throw conflict('errors.reservation.notReserved', { id: r.id, status: statusWord(r.status) }, 'id');
      const a = await ask(r.serialNumber, 'CancelReservation', { reservationId: r.id });
      if (a.status === 'offline') throw conflict('errors.reservation.offline', { serialNumber: r.serialNumber }, 'id');
      // Rejected (OCPP 1.6 §6.7): the charger holds no active reservation with this id, so nothing is
      // held for the user any more: it ends here too, as cancelled (never charged). Any other answer, or
      // none, leaves it as it was: the charger may still hold it.
      const notHeld = a.chargerStatus === 'Rejected';
      if (a.chargerStatus !== 'Accepted' && !notHeld) {
        const word = a.messageKey ? translate(ctx.lang, a.messageKey, a.params) : (a.chargerStatus ?? a.status);
        throw conflict('errors.reservation.cancelRefused', { id: r.id, status: word }, 'id');
      }
      // It may have been used or have expired while the charger answered: then that stands.
      if (!(await repo.move(r.id, 'reserved', 'cancelled', { chargerStatus: a.chargerStatus }))) {
        const now = await mustGet(p, r.id);
        throw conflict('errors.reservation.notReserved', { id: r.id, status: statusWord(now.status) }, 'id');
      }
      const dto = await mustGet(p, r.id);
      return notHeld ? new Outcome(dto, Code.OK, 'errors.reservation.cancelledNotHeld', { id: r.id }) : dto;
    }),
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const filter = await dayZone.bound(p, f);
      const defaults: ExportColumn<ReservationDto & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'stationName' },
        { key: 'serialNumber' },
        { key: 'connectorNo' },
        { key: 'chargeUserAccount' },
        { key: 'cardNumber' },
        { key: 'expiryTime' },
        { key: 'status', value: (r) => translate(ctx.lang, `enums.reservationStatus.${r.status}`) },
        { key: 'transactionId' },
        { key: 'feeCents', value: (r) => (r.feeCents === null ? '' : (r.feeCents / 100).toFixed(2)) },
        { key: 'providerName' },
        { key: 'createdByName' },
        { key: 'createTime' },
        { key: 'updateTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'reservation',
        fileBase: 'reservation',
        format,
        columns: await columns.columnsFor('reservation', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (ReservationDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
