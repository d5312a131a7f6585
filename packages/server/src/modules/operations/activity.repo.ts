import type { ActivityDto, ActivityStatus } from '@csms/contract';
import { and, asc, count, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { activity, provider, station, userGroup, voucherTemplate } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface ActivityFilter {
  name?: string | undefined;
  status?: ActivityStatus | undefined;
  providerId?: number | undefined;
}

// What it did, by type: sessions discounted and the discount; recharges given a bonus and the bonuses; vouchers granted.
const sessionCount = sql<number>`(case "activity"."type"
  when 'rechargeBonus' then (select count(*)::int from recharge_bonus r where r.activity_id = "activity"."id")
  when 'voucherGrant' then (select count(*)::int from voucher v where v.activity_id = "activity"."id")
  else (select count(*)::int from bill_line b where b.kind = 'activity' and b.ref_id = "activity"."id") end)`;
const discountCents = sql<number>`(case "activity"."type"
  when 'rechargeBonus' then (select coalesce(sum(r.amount_cents), 0)::int from recharge_bonus r where r.activity_id = "activity"."id")
  when 'voucherGrant' then 0
  else (select coalesce(sum(b.amount_cents), 0)::int from bill_line b where b.kind = 'activity' and b.ref_id = "activity"."id") end)`;
const columns = {
  id: activity.id,
  providerId: activity.providerId,
  providerName: provider.name,
  name: activity.name,
  type: activity.type,
  status: activity.status,
  startAt: activity.startAt,
  endAt: activity.endAt,
  stationIds: activity.stationIds,
  groupIds: activity.groupIds,
  discountKind: activity.discountKind,
  discountValue: activity.discountValue,
  hours: activity.hours,
  minRechargeCents: activity.minRechargeCents,
  bonusCents: activity.bonusCents,
  templateId: activity.templateId,
  templateName: voucherTemplate.name,
  grantTo: activity.grantTo,
  activatedAt: activity.activatedAt,
  endedAt: activity.endedAt,
  sessionCount,
  discountCents,
  createdAt: activity.createdAt,
};
export type ActivityRow = Omit<ActivityDto, 'startTime' | 'endTime' | 'activatedTime' | 'endedTime' | 'createTime'> & {
  startAt: Date;
  endAt: Date;
  activatedAt: Date | null;
  endedAt: Date | null;
  createdAt: Date;
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const toActivityDto = ({ startAt, endAt, activatedAt, endedAt, createdAt, ...r }: ActivityRow): ActivityDto => ({
  ...r,
  sessionCount: Number(r.sessionCount),
  discountCents: Number(r.discountCents),
  startTime: startAt.toISOString(),
  endTime: endAt.toISOString(),
  activatedTime: iso(activatedAt),
  endedTime: iso(endedAt),
  createTime: createdAt.toISOString(),
});

/** Activities, scoped to the caller's providers. */
export function createActivityRepo({ db }: { db: Db }) {
  const where = (p: Principal, f: ActivityFilter, ...more: (SQL | undefined)[]) =>
    and(
      providerScope(p, activity.providerId),
      f.name ? lowerLike(activity.name, contains(f.name)) : undefined,
      f.status ? eq(activity.status, f.status) : undefined,
      f.providerId ? eq(activity.providerId, f.providerId) : undefined,
      ...more,
    );
  const base = () =>
    db
      .select(columns)
      .from(activity)
      .innerJoin(provider, eq(provider.id, activity.providerId))
      .leftJoin(voucherTemplate, eq(voucherTemplate.id, activity.templateId));
  return {
    async list(p: Principal, f: ActivityFilter, page: number, limit: number) {
      const cond = where(p, f);
      const offset = (page - 1) * limit;
      const rows = await base().where(cond).orderBy(desc(activity.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: activity.id }).from(activity).where(cond),
      );
      return { list: rows.map(toActivityDto), ...total };
    },
    async count(p: Principal, f: ActivityFilter) {
      const [r] = await db.select({ n: count() }).from(activity).where(where(p, f));
      return r?.n ?? 0;
    },
    page: (p: Principal, f: ActivityFilter, afterId: number, size: number): Promise<ActivityRow[]> =>
      base()
        .where(where(p, f, gt(activity.id, afterId)))
        .orderBy(asc(activity.id))
        .limit(size),
    async get(p: Principal, id: number): Promise<ActivityRow | undefined> {
      const [r] = await base().where(where(p, {}, eq(activity.id, id)));
      return r;
    },
    visible: (p: Principal, ids: number[]) =>
      db
        .select({ id: activity.id, name: activity.name, status: activity.status })
        .from(activity)
        .where(where(p, {}, inArray(activity.id, ids))),
    async ownStations(providerId: number, ids: number[]) {
      if (ids.length === 0) return 0;
      const [r] = await db
        .select({ n: count() })
        .from(station)
        .where(and(eq(station.providerId, providerId), inArray(station.id, ids)));
      return r?.n ?? 0;
    },
    async ownGroups(providerId: number, ids: number[]) {
      if (ids.length === 0) return 0;
      const [r] = await db
        .select({ n: count() })
        .from(userGroup)
        .where(and(eq(userGroup.providerId, providerId), inArray(userGroup.id, ids)));
      return r?.n ?? 0;
    },
    /** The provider's template's stations (none: all of them); undefined when it is not the provider's. */
    async ownTemplate(providerId: number, id: number): Promise<number[] | undefined> {
      const [r] = await db
        .select({ stationIds: voucherTemplate.stationIds })
        .from(voucherTemplate)
        .where(and(eq(voucherTemplate.providerId, providerId), eq(voucherTemplate.id, id)));
      return r?.stationIds;
    },
    async insert(values: typeof activity.$inferInsert) {
      const [r] = await db.insert(activity).values(values).returning({ id: activity.id });
      return r!.id;
    },
    /** Changes a draft only (a conditional update: it may have been activated meanwhile). */
    async updateDraft(id: number, values: Partial<typeof activity.$inferInsert>) {
      const rows = await db
        .update(activity)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(activity.id, id), eq(activity.status, 'draft')))
        .returning({ id: activity.id });
      return rows.length === 1;
    },
    async move(id: number, from: ActivityStatus, values: Partial<typeof activity.$inferInsert>) {
      const rows = await db
        .update(activity)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(activity.id, id), eq(activity.status, from)))
        .returning({ id: activity.id });
      return rows.length === 1;
    },
    async removeDrafts(ids: number[]) {
      return (
        await db
          .delete(activity)
          .where(and(inArray(activity.id, ids), eq(activity.status, 'draft')))
          .returning({ id: activity.id })
      ).length;
    },
  };
}

export type ActivityRepo = ReturnType<typeof createActivityRepo>;
