import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export interface ValidCard {
  id: number;
  /** The idTag a charger is sent (the card's UID as issued). */
  idTag: string;
  cardNumber: string;
}

/**
 * A charge user's card that a point's provider accepts, for a start or a reservation the server
 * makes on the user's behalf (timed charging, reservations): a valid card, not past its expiry, of
 * the point's provider or one of its ancestors (a card is good at its provider's chargers and those
 * below it), of an enabled user, not a master pass (it starts nothing); the oldest first. Balance and group limits are left to the
 * authorisation the charger's own Authorize or StartTransaction then gets.
 */
export async function validCardOf(db: Db, chargeUserId: number, pointProviderId: number, now = new Date()): Promise<ValidCard | undefined> {
  const res = (await db.execute(sql`with recursive up(id) as (
      select ${pointProviderId}::int
      union all select p.parent_id from provider p join up on p.id = up.id where p.parent_id is not null)
    select c.id, c.physical_id as "idTag", c.card_number as "cardNumber"
    from card c join charge_user u on u.id = c.charge_user_id
    where c.charge_user_id = ${chargeUserId} and c.status = 'valid' and not c.master_pass and c.expire_at > ${now.toISOString()}::timestamptz
      and u.status = 1 and c.provider_id in (select id from up)
    order by c.id limit 1`)) as unknown as { rows: ValidCard[] };
  const row = res.rows[0];
  return row ? { id: Number(row.id), idTag: row.idTag, cardNumber: row.cardNumber } : undefined;
}
