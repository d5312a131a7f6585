import type { IdTagOption } from '@csms/contract';
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { lowerLike } from '../../lib/text-search.js';
import { card, chargePoint, chargeUser, chargingTransaction, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { stationScope } from '../monitor/scope.js';

const OPTION_LIMIT = 50;

/** Lookups of the operator actions, scoped to the caller's providers and bound stations. */
export function createPointActionRepo({ db }: { db: Db }) {
  /** A card usable now: valid by status and not past its expiry. */
  const usable = (now: Date) => and(eq(card.status, 'valid'), gt(card.expireAt, now));

  return {
    async point(p: Principal, serialNumber: string) {
      const [row] = await db
        .select({
          id: chargePoint.id,
          providerId: chargePoint.providerId,
          stationId: chargePoint.stationId,
          serialNumber: chargePoint.serialNumber,
        })
        .from(chargePoint)
        .where(and(eq(chargePoint.serialNumber, serialNumber), stationScope(p, chargePoint.providerId, chargePoint.stationId)))
        .limit(1);
      return row;
    },

    /** The points among `serialNumbers` in the caller's scope, with their names, in the order of their station and serial. */
    async points(p: Principal, serialNumbers: string[]) {
      return db
        .select({ serialNumber: chargePoint.serialNumber, pointName: chargePoint.name, stationName: station.name })
        .from(chargePoint)
        .innerJoin(station, eq(station.id, chargePoint.stationId))
        .where(and(inArray(chargePoint.serialNumber, serialNumbers), stationScope(p, chargePoint.providerId, chargePoint.stationId)))
        .orderBy(asc(station.name), asc(chargePoint.serialNumber));
    },

    async transaction(chargePointId: number, transactionId: number) {
      const [row] = await db
        .select({ id: chargingTransaction.id, stoppedAt: chargingTransaction.stoppedAt, ocppTxId: chargingTransaction.ocppTxId })
        .from(chargingTransaction)
        .where(and(eq(chargingTransaction.id, transactionId), eq(chargingTransaction.chargePointId, chargePointId)))
        .limit(1);
      return row;
    },

    /**
     * The physical id, as issued, of the provider's card that `idTag` names (matched without regard to
     * case, as authorization does); undefined when it names none.
     */
    async providerCardTag(providerId: number, idTag: string) {
      const [row] = await db
        .select({ physicalId: card.physicalId })
        .from(card)
        .where(and(eq(card.providerId, providerId), eq(sql`lower(${card.physicalId})`, idTag.toLowerCase())))
        .limit(1);
      return row?.physicalId;
    },

    /**
     * Remote-start choices of a provider: each usable card, and each charge user with the first
     * (oldest) usable card, whose physical id is the idTag. A user without a usable card cannot be chosen.
     */
    async idTagOptions(providerId: number, keyword: string | undefined, now = new Date()): Promise<IdTagOption[]> {
      const like = keyword ? `%${keyword}%` : undefined;
      const match = like
        ? or(lowerLike(card.cardNumber, like), lowerLike(card.physicalId, like), lowerLike(chargeUser.account, like))
        : undefined;
      const cards = await db
        .select({ idTag: card.physicalId, cardNumber: card.cardNumber, account: chargeUser.account })
        .from(card)
        .leftJoin(chargeUser, eq(chargeUser.id, card.chargeUserId))
        .where(and(eq(card.providerId, providerId), usable(now), or(isNull(chargeUser.id), eq(chargeUser.status, 1)), match))
        .orderBy(asc(card.id))
        .limit(OPTION_LIMIT);
      const users = await db
        .selectDistinctOn([chargeUser.id], { idTag: card.physicalId, cardNumber: card.cardNumber, account: chargeUser.account })
        .from(chargeUser)
        .innerJoin(card, eq(card.chargeUserId, chargeUser.id))
        .where(and(eq(chargeUser.providerId, providerId), eq(chargeUser.status, 1), usable(now), match))
        .orderBy(asc(chargeUser.id), asc(card.id))
        .limit(OPTION_LIMIT);
      return [...users.map((u) => ({ ...u, kind: 'chargeUser' as const })), ...cards.map((c) => ({ ...c, kind: 'card' as const }))].slice(
        0,
        OPTION_LIMIT,
      );
    },
  };
}

export type PointActionRepo = ReturnType<typeof createPointActionRepo>;
