import type { IdTagOption } from '@csms/contract';
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { lowerLike, contains } from '../../lib/text-search.js';
import { card, chargePoint, chargeUser, chargingTransaction, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { stationScope } from '../monitor/scope.js';

const OPTION_LIMIT = 50;

/** Lookups of the operator actions, scoped to the caller's providers and bound stations. */
export function createPointActionRepo({ db }: { db: Db }) {
  /** A card usable now: valid by status and not past its expiry. */
  /** A card that can start a session: valid, not past its date, not a master pass (it only stops them). */
  const usable = (now: Date) => and(eq(card.status, 'valid'), gt(card.expireAt, now), eq(card.masterPass, false));

  return {
    async point(p: Principal, serialNumber: string) {
      const [row] = await db
        .select({
          id: chargePoint.id,
          providerId: chargePoint.providerId,
          stationId: chargePoint.stationId,
          serialNumber: chargePoint.serialNumber,
          ocppVersion: chargePoint.ocppVersion,
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

    /**
     * Starts sending a point a new key: `hash` becomes its key and the one it has is kept, still accepted, until
     * it connects with the new one (admission). Refused when it has no key or a key sent earlier still waits.
     */
    async beginKeyChange(
      pointId: number,
      hash: string,
    ): Promise<{ sentAt: Date } | { refused: 'noKey' } | { refused: 'pending'; since: Date; timeZone: string }> {
      const sentAt = new Date();
      const [begun] = await db
        .update(chargePoint)
        // The right-hand side reads the row as it was: the current key becomes the previous one.
        .set({ ocppKeyPreviousHash: sql`${chargePoint.ocppKeyHash}`, ocppKeyHash: hash, ocppKeySentAt: sentAt })
        .where(and(eq(chargePoint.id, pointId), isNotNull(chargePoint.ocppKeyHash), isNull(chargePoint.ocppKeyPreviousHash)))
        .returning({ id: chargePoint.id });
      if (begun) return { sentAt };
      const [row] = await db
        .select({ hash: chargePoint.ocppKeyHash, since: chargePoint.ocppKeySentAt, timeZone: station.timeZone })
        .from(chargePoint)
        .innerJoin(station, eq(station.id, chargePoint.stationId))
        .where(eq(chargePoint.id, pointId));
      if (!row?.hash) return { refused: 'noKey' };
      return { refused: 'pending', since: row.since ?? sentAt, timeZone: row.timeZone };
    },

    /** The charger did not take the key `hash`: the previous key is again its only one. */
    async undoKeyChange(pointId: number, hash: string) {
      await db
        .update(chargePoint)
        .set({ ocppKeyHash: sql`${chargePoint.ocppKeyPreviousHash}`, ocppKeyPreviousHash: null, ocppKeySentAt: null })
        .where(and(eq(chargePoint.id, pointId), eq(chargePoint.ocppKeyHash, hash), isNotNull(chargePoint.ocppKeyPreviousHash)));
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
        .select({ physicalId: card.physicalId, masterPass: card.masterPass })
        .from(card)
        .where(and(eq(card.providerId, providerId), eq(sql`lower(${card.physicalId})`, idTag.toLowerCase())))
        .limit(1);
      return row;
    },

    /**
     * Remote-start choices of a provider: each usable card, and each charge user with the first
     * (oldest) usable card, whose physical id is the idTag. A user without a usable card cannot be chosen.
     */
    async idTagOptions(providerId: number, keyword: string | undefined, now = new Date()): Promise<IdTagOption[]> {
      const like = keyword ? contains(keyword) : undefined;
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
