import type { GrantTarget } from '@csms/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { activity, chargeUser, voucher, voucherTemplate } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Jobs } from '../../lib/jobs.js';
import { voucherOf } from './voucher-terms.js';

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/**
 * Voucher-grant activities (issue 19 item 2) on the durable job queue (DESIGN.md §10). A job names an
 * activity; running it issues one voucher of its template to every user it is due to and who holds none
 * from it yet (the unique index on activity × user makes a rerun, a retry or two nodes add nothing):
 * - `groups`: the members of its groups, at its start;
 * - `newUsers`: the users of its provider (and groups, when it names some) registered while it is
 *   active: from its start (or activation, if later) until its end (or early end).
 * Jobs: at activation (at the start), at the period's end (a last sweep for new users), one after each
 * registration, and again at start-up for every active grant, so a registration whose job was lost
 * in a crash is still served. Jobs are queued once the request's change is committed (the queue's
 * insert goes through the pool, outside the request's transaction).
 */
export function createActivityGrants({
  db,
  jobs,
  uow,
  log,
}: {
  db: Db;
  jobs: Pick<Jobs, 'send'>;
  uow: Pick<UnitOfWork, 'afterCommit'>;
  log: Log;
}) {
  const queue = (id: number, opts?: { at?: Date; key?: string }) =>
    uow.afterCommit(
      () =>
        void jobs
          .send('activityGrant', { id }, opts)
          .catch((err: unknown) => log.error({ err, activityId: id }, 'activity grant: queueing failed (start-up queues it again)')),
    );
  /** Its start's job; a new-user grant's end job too (the last users registered while it ran). */
  function schedule(a: { id: number; startAt: Date; endAt: Date; grantTo: GrantTarget | null }) {
    const now = Date.now();
    queue(a.id, { at: new Date(Math.max(now, a.startAt.getTime())), key: `start:${a.id}` });
    if (a.grantTo === 'newUsers' && a.endAt.getTime() > now) queue(a.id, { at: a.endAt, key: `end:${a.id}` });
  }

  /** Issues the activity's due vouchers now; the number issued. */
  async function run(id: number, now = new Date()): Promise<number> {
    const [a] = await db
      .select()
      .from(activity)
      .where(and(eq(activity.id, id), eq(activity.type, 'voucherGrant'), inArray(activity.status, ['active', 'ended'])));
    if (!a || a.templateId === null || a.startAt > now) return 0;
    // Active from its start or its activation, whichever is later, until its end or early end.
    const from = new Date(Math.max(a.startAt.getTime(), a.activatedAt?.getTime() ?? 0));
    const until = new Date(Math.min(a.endAt.getTime(), a.endedAt?.getTime() ?? Infinity));
    if (until <= from) return 0;
    const [t] = await db.select().from(voucherTemplate).where(eq(voucherTemplate.id, a.templateId));
    if (!t) return 0;
    const groups = a.groupIds.length ? inArray(chargeUser.groupId, a.groupIds) : undefined;
    const due =
      a.grantTo === 'groups'
        ? // Members at its start: only while it runs (an activity ended before its start job ran grants nothing).
          a.status === 'active' && groups
          ? and(eq(chargeUser.providerId, a.providerId), groups)
          : undefined
        : and(
            eq(chargeUser.providerId, a.providerId),
            groups,
            sql`${chargeUser.createdAt} >= ${from.toISOString()}::timestamptz`,
            sql`${chargeUser.createdAt} < ${until.toISOString()}::timestamptz`,
          );
    if (!due) return 0;
    let issued = 0;
    for (;;) {
      const users = await db
        .select({ id: chargeUser.id })
        .from(chargeUser)
        .where(and(due, sql`not exists (select 1 from ${voucher} v where v.activity_id = ${a.id} and v.charge_user_id = ${chargeUser.id})`))
        .orderBy(chargeUser.id)
        .limit(500);
      if (users.length === 0) break;
      const rows = await db
        .insert(voucher)
        .values(users.map((u) => voucherOf(t, now, { chargeUserId: u.id, activityId: a.id })))
        .onConflictDoNothing()
        .returning({ id: voucher.id });
      issued += rows.length;
      if (users.length < 500) break;
    }
    if (issued) log.info({ activityId: a.id, issued }, 'activity vouchers granted');
    return issued;
  }

  return {
    schedule,
    run,
    /** A sweep as soon as a node is free (an early end: the new users registered until then). */
    sweep: (id: number) => queue(id),
    /** A new charge user: a job for each running new-user grant of the provider, once the registration commits. */
    async registered(chargeUserId: number) {
      const open = await db
        .select({ id: activity.id })
        .from(activity)
        .innerJoin(chargeUser, eq(chargeUser.providerId, activity.providerId))
        .where(
          and(
            eq(chargeUser.id, chargeUserId),
            eq(activity.type, 'voucherGrant'),
            eq(activity.grantTo, 'newUsers'),
            eq(activity.status, 'active'),
          ),
        );
      for (const a of open) queue(a.id, { key: `user:${chargeUserId}:${a.id}` });
    },
    /**
     * At start-up: each active grant's jobs again (the same keys add nothing while they wait). A group
     * grant that already issued at its start is not run again (its groups' later members get none).
     */
    async resume() {
      const live = await db
        .select({
          id: activity.id,
          startAt: activity.startAt,
          endAt: activity.endAt,
          grantTo: activity.grantTo,
          // Spelled out: inside a selected field drizzle names the column without its table.
          granted: sql<boolean>`exists (select 1 from voucher v where v.activity_id = "activity"."id")`,
        })
        .from(activity)
        .where(and(eq(activity.type, 'voucherGrant'), eq(activity.status, 'active')));
      for (const a of live) {
        if (a.grantTo === 'groups' && a.granted) continue;
        schedule(a);
        // A sweep now, so a registration whose job was lost is served without waiting for the end.
        if (a.grantTo === 'newUsers') queue(a.id);
      }
    },
  };
}

export type ActivityGrants = ReturnType<typeof createActivityGrants>;
