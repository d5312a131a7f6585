import { and, asc, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { chargeUser, memberLevel, memberStatus } from '../../db/schema.js';

/** The level in force for a `member_status` row `s` at `now()`: the override while it lasts, else the computed one. */
export const effectiveLevelOf = (s: string) =>
  sql.raw(
    `(case when ${s}.override_level_id is not null and ${s}.override_until > now() then ${s}.override_level_id else ${s}.level_id end)`,
  );

/** What `what` says of the member level in force now (`l`) of the charge user `chargeUserIdColumn` names: a scalar subquery. */
const levelInForce = (chargeUserIdColumn: string, what: SQL) =>
  sql`(select ${what} from member_status s join member_level l on l.id = ${effectiveLevelOf('s')}
    where s.charge_user_id = ${sql.raw(chargeUserIdColumn)})`;

/** The name of a charge user's level now (the charge user list, spec §3 member level). */
export const memberLevelNameOf = (chargeUserIdColumn: string) => sql<string | null>`${levelInForce(chargeUserIdColumn, sql`l.name`)}`;

/** The level in force now as JSON (levelId, name, percent; null: none), for the settlement's discounts. */
export const memberLevelJsonOf = (chargeUserIdColumn: string) =>
  levelInForce(chargeUserIdColumn, sql`json_build_object('levelId', l.id, 'name', l.name, 'percent', l.discount_percent)`);

const DAY_MS = 86_400_000;
type Level = typeof memberLevel.$inferSelect;

/**
 * Membership levels (issue 19 item 1): a charge user holds the highest level of his provider whose
 * threshold he meets over the rolling 12 months, counting his settled sessions (spend: their total
 * in cents, energy: their Wh). A level reached (or reached again) is kept for its validity in days;
 * after that a recompute may lower it. Recomputed in the settlement's transaction for its user and
 * nightly for everyone (the `memberLevels` job).
 */
export function createMembership({ db }: { db: Db }) {
  /** Recomputes the levels of some charge users, in the caller's transaction. */
  async function recompute(tx: Tx | Db, userIds: number[], now = new Date()): Promise<number> {
    if (userIds.length === 0) return 0;
    const since = new Date(now.getTime() - 365 * DAY_MS);
    const ids = sql.join(
      userIds.map((id) => sql`${id}`),
      sql`, `,
    );
    // A session counts for the user its card belongs to, else the user who started it from the app.
    const usage =
      (await tx.execute(sql`select u.id, u.provider_id, coalesce(x.spend, 0)::bigint as spend, coalesce(x.energy, 0)::bigint as energy
      from charge_user u left join lateral (
        select sum(t.total_cents) as spend, sum(t.energy_wh) as energy from charging_transaction t
        where t.billed_at is not null and t.stopped_at > ${since.toISOString()}::timestamptz
          and (t.card_id in (select c.id from card c where c.charge_user_id = u.id) or (t.card_id is null and t.charge_user_id = u.id))
      ) x on true
      where u.id in (${ids})
        -- Nobody to compute: no level in the user's provider and no membership row to lower (a settlement's common case).
        and (exists (select 1 from member_level l where l.provider_id = u.provider_id)
          or exists (select 1 from member_status s where s.charge_user_id = u.id))`)) as unknown as {
        rows: { id: number; provider_id: number; spend: string; energy: string }[];
      };
    if (usage.rows.length === 0) return 0;
    const providers = [...new Set(usage.rows.map((r) => Number(r.provider_id)))];
    const levels = providers.length
      ? await tx.select().from(memberLevel).where(inArray(memberLevel.providerId, providers)).orderBy(asc(memberLevel.sortOrder))
      : [];
    const current = await tx.select().from(memberStatus).where(inArray(memberStatus.chargeUserId, userIds));
    const byUser = new Map(current.map((s) => [s.chargeUserId, s]));
    const byId = new Map(levels.map((l) => [l.id, l]));
    let changed = 0;
    for (const u of usage.rows) {
      const userId = Number(u.id);
      const providerId = Number(u.provider_id);
      const spend = Number(u.spend);
      const energy = Number(u.energy);
      const own = levels.filter((l) => l.providerId === providerId);
      let reached: Level | undefined;
      for (const l of own) if ((l.basis === 'spend' ? spend : energy) >= l.threshold) reached = l;
      const cur = byUser.get(userId);
      const held = cur?.levelId ? byId.get(cur.levelId) : undefined;
      let levelId = reached?.id ?? null;
      let validUntil = reached ? new Date(now.getTime() + reached.validityDays * DAY_MS) : null;
      // A higher level reached earlier holds until its validity ends.
      if (held && cur?.validUntil && cur.validUntil > now && (!reached || held.sortOrder > reached.sortOrder)) {
        levelId = held.id;
        validUntil = cur.validUntil;
      }
      if (!cur && levelId === null) continue;
      if (cur?.levelId !== levelId) changed++;
      await tx
        .insert(memberStatus)
        .values({ chargeUserId: userId, providerId, levelId, validUntil, spendCents: spend, energyWh: energy, computedAt: now })
        .onConflictDoUpdate({
          target: memberStatus.chargeUserId,
          set: { levelId, validUntil, spendCents: spend, energyWh: energy, computedAt: now },
        });
    }
    return changed;
  }

  return {
    recompute,
    /** Every charge user of providers with levels (or with a membership row), in batches; the nightly job. */
    async recomputeAll(providerIds: number[] | 'all', now = new Date()): Promise<number> {
      let after = 0;
      let users = 0;
      for (;;) {
        const batch = await db
          .select({ id: chargeUser.id })
          .from(chargeUser)
          .where(
            and(
              gt(chargeUser.id, after),
              providerIds === 'all' ? undefined : inArray(chargeUser.providerId, providerIds.length ? providerIds : [0]),
              sql`(exists (select 1 from member_level l where l.provider_id = ${chargeUser.providerId})
                or exists (select 1 from member_status s where s.charge_user_id = ${chargeUser.id}))`,
            ),
          )
          .orderBy(asc(chargeUser.id))
          .limit(500);
        if (batch.length === 0) return users;
        const ids = batch.map((b) => b.id);
        await db.transaction((tx) => recompute(tx, ids, now));
        users += ids.length;
        after = ids[ids.length - 1]!;
      }
    },
  };
}

export type Membership = ReturnType<typeof createMembership>;
