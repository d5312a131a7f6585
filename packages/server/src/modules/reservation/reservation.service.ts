import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargeUser, price, reservation } from '../../db/schema.js';
import type { Jobs } from '../../lib/jobs.js';
import type { Ledger } from '../cards/ledger.js';

/**
 * A reservation's end without a session (issue 15 item 4): at its expiry the job queue runs `expire`,
 * which marks it expired and charges the reservation fee once through the ledger. A used reservation's
 * fee is charged with its session's bill instead (billing/settle.ts); a cancelled one costs nothing.
 */
export function createReservationExpiry({
  db,
  ledger,
  jobs,
  now = () => new Date(),
}: {
  db: Db;
  ledger: Ledger;
  jobs: Jobs;
  now?: () => Date;
}) {
  /** The fee of the price in force at `at` at the station: the user's group price there, else the station's. */
  async function feeAt(q: Db, stationId: number, chargeUserId: number, at: Date): Promise<number> {
    const [u] = await q.select({ groupId: chargeUser.groupId }).from(chargeUser).where(eq(chargeUser.id, chargeUserId));
    const groupId = u?.groupId ?? null;
    const [v] = await q
      .select({ fee: price.reserveFeeCents })
      .from(price)
      .where(
        and(
          eq(price.stationId, stationId),
          lte(price.effectiveFrom, at),
          groupId === null ? isNull(price.groupId) : or(isNull(price.groupId), eq(price.groupId, groupId)),
        ),
      )
      .orderBy(sql`${price.groupId} is null`, desc(price.effectiveFrom), desc(price.id))
      .limit(1);
    return v?.fee ?? 0;
  }

  /** Expires one reservation if it is still held and its time has come; the fee and the status in one transaction. */
  async function expire(id: number): Promise<'expired' | 'notDue' | 'notHeld'> {
    return db.transaction(async (tx) => {
      const [r] = await tx.select().from(reservation).where(eq(reservation.id, id)).for('update');
      if (!r || r.status !== 'reserved') return 'notHeld';
      // Only when this node's clock is behind the one that queued it: the queue tries again later.
      if (r.expiryAt.getTime() > now().getTime()) return 'notDue';
      const fee = await feeAt(tx as unknown as Db, r.stationId, r.chargeUserId, r.expiryAt);
      if (fee > 0) {
        await ledger.post(
          {
            account: { kind: 'card', cardId: r.cardId },
            tradeType: 'charge',
            amountCents: -fee,
            source: 'reservation',
            transactionRef: `reservation:${r.id}`,
          },
          tx,
        );
      }
      await tx.update(reservation).set({ status: 'expired', feeCents: fee, updatedAt: now() }).where(eq(reservation.id, id));
      return 'expired';
    });
  }

  return {
    expire,
    /** Puts a held reservation's expiry in the queue (once per reservation and expiry). */
    schedule: (id: number, expiryAt: Date) => jobs.send('reservationExpiry', { id }, { at: expiryAt, key: `${id}@${expiryAt.getTime()}` }),
    /** At start-up: every held reservation's expiry is in the queue (a crash between a reservation and its job loses nothing). */
    async scheduleHeld(): Promise<void> {
      const held = await db
        .select({ id: reservation.id, expiryAt: reservation.expiryAt })
        .from(reservation)
        .where(eq(reservation.status, 'reserved'));
      for (const r of held) await jobs.send('reservationExpiry', { id: r.id }, { at: r.expiryAt, key: `${r.id}@${r.expiryAt.getTime()}` });
    },
  };
}

export type ReservationExpiry = ReturnType<typeof createReservationExpiry>;
