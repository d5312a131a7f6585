import type { VoucherDto, VoucherStatus, VoucherTemplateDto } from '@csms/contract';
import { and, asc, count, desc, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargeUser, chargingTransaction, provider, station, systemUser, voucher, voucherTemplate } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface TemplateFilter {
  name?: string | undefined;
  providerId?: number | undefined;
}
export interface VoucherFilter {
  account?: string | undefined;
  status?: VoucherStatus | undefined;
  templateId?: number | undefined;
  transactionId?: number | undefined;
  providerId?: number | undefined;
}

/** Expiry is evaluated when read: an unused voucher past its end shows as expired. */
export const voucherStatusSql = sql<VoucherStatus>`(case when ${voucher.status} = 'unused' and ${voucher.validUntil} <= now() then 'expired' else ${voucher.status} end)`;

const issuedCount = sql<number>`(select count(*)::int from voucher v where v.template_id = "voucher_template"."id")`;
const usedCount = sql<number>`(select count(*)::int from voucher v where v.template_id = "voucher_template"."id" and v.status = 'used')`;
const templateColumns = {
  id: voucherTemplate.id,
  providerId: voucherTemplate.providerId,
  providerName: provider.name,
  name: voucherTemplate.name,
  kind: voucherTemplate.kind,
  value: voucherTemplate.value,
  minBillCents: voucherTemplate.minBillCents,
  stationIds: voucherTemplate.stationIds,
  validDays: voucherTemplate.validDays,
  validFrom: voucherTemplate.validFrom,
  validTo: voucherTemplate.validTo,
  issuedCount,
  usedCount,
  createdAt: voucherTemplate.createdAt,
  updatedAt: voucherTemplate.updatedAt,
};
export type TemplateRow = Omit<VoucherTemplateDto, 'createTime' | 'updateTime' | 'validFrom' | 'validTo'> & {
  validFrom: Date | null;
  validTo: Date | null;
  createdAt: Date;
  updatedAt: Date;
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const toTemplateDto = ({ createdAt, updatedAt, validFrom, validTo, ...r }: TemplateRow): VoucherTemplateDto => ({
  ...r,
  issuedCount: Number(r.issuedCount),
  usedCount: Number(r.usedCount),
  validFrom: iso(validFrom),
  validTo: iso(validTo),
  createTime: createdAt.toISOString(),
  updateTime: updatedAt.toISOString(),
});

const voucherColumns = {
  id: voucher.id,
  providerId: voucher.providerId,
  providerName: provider.name,
  templateId: voucher.templateId,
  name: voucher.name,
  kind: voucher.kind,
  value: voucher.value,
  minBillCents: voucher.minBillCents,
  chargeUserId: voucher.chargeUserId,
  account: chargeUser.account,
  status: voucherStatusSql,
  validFrom: voucher.validFrom,
  validUntil: voucher.validUntil,
  issuedByName: systemUser.username,
  activityId: voucher.activityId,
  chosenFor: voucher.chosenFor,
  usedAt: voucher.usedAt,
  transactionId: voucher.transactionId,
  discountCents: voucher.discountCents,
  revokeReason: voucher.revokeReason,
  createdAt: voucher.createdAt,
};
export type VoucherRow = Omit<VoucherDto, 'validFrom' | 'validUntil' | 'usedTime' | 'createTime'> & {
  validFrom: Date;
  validUntil: Date;
  usedAt: Date | null;
  createdAt: Date;
};
export const toVoucherDto = ({ validFrom, validUntil, usedAt, createdAt, ...r }: VoucherRow): VoucherDto => ({
  ...r,
  validFrom: validFrom.toISOString(),
  validUntil: validUntil.toISOString(),
  usedTime: iso(usedAt),
  createTime: createdAt.toISOString(),
});

/** Voucher templates and issued vouchers, scoped to the caller's providers. */
export function createVoucherRepo({ db }: { db: Db }) {
  const tWhere = (p: Principal, f: TemplateFilter, ...more: (SQL | undefined)[]) =>
    and(
      providerScope(p, voucherTemplate.providerId),
      f.name ? lowerLike(voucherTemplate.name, contains(f.name)) : undefined,
      f.providerId ? eq(voucherTemplate.providerId, f.providerId) : undefined,
      ...more,
    );
  const templates = () => db.select(templateColumns).from(voucherTemplate).innerJoin(provider, eq(provider.id, voucherTemplate.providerId));
  const vWhere = (p: Principal, f: VoucherFilter, ...more: (SQL | undefined)[]) =>
    and(
      providerScope(p, voucher.providerId),
      f.account ? lowerLike(chargeUser.account, contains(f.account)) : undefined,
      f.status ? sql`${voucherStatusSql} = ${f.status}` : undefined,
      f.templateId ? eq(voucher.templateId, f.templateId) : undefined,
      f.transactionId ? eq(voucher.transactionId, f.transactionId) : undefined,
      f.providerId ? eq(voucher.providerId, f.providerId) : undefined,
      ...more,
    );
  const vouchers = () =>
    db
      .select(voucherColumns)
      .from(voucher)
      .innerJoin(provider, eq(provider.id, voucher.providerId))
      .innerJoin(chargeUser, eq(chargeUser.id, voucher.chargeUserId))
      .leftJoin(systemUser, eq(systemUser.id, voucher.issuedBy));

  return {
    async listTemplates(p: Principal, f: TemplateFilter, page: number, limit: number) {
      const cond = tWhere(p, f);
      const offset = (page - 1) * limit;
      const rows = await templates().where(cond).orderBy(desc(voucherTemplate.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: voucherTemplate.id }).from(voucherTemplate).where(cond),
      );
      return { list: rows.map(toTemplateDto), ...total };
    },
    async countTemplates(p: Principal, f: TemplateFilter) {
      const [r] = await db.select({ n: count() }).from(voucherTemplate).where(tWhere(p, f));
      return r?.n ?? 0;
    },
    pageTemplates: (p: Principal, f: TemplateFilter, afterId: number, size: number): Promise<TemplateRow[]> =>
      templates()
        .where(tWhere(p, f, gt(voucherTemplate.id, afterId)))
        .orderBy(asc(voucherTemplate.id))
        .limit(size),
    async getTemplate(p: Principal, id: number): Promise<TemplateRow | undefined> {
      const [r] = await templates().where(tWhere(p, {}, eq(voucherTemplate.id, id)));
      return r;
    },
    templateOptions: (p: Principal, text: string | undefined, limit: number) =>
      db
        .select({ id: voucherTemplate.id, name: voucherTemplate.name, providerId: voucherTemplate.providerId })
        .from(voucherTemplate)
        .where(tWhere(p, { name: text }))
        .orderBy(asc(voucherTemplate.name))
        .limit(limit),
    async nameTaken(providerId: number, name: string, exceptId?: number) {
      const [r] = await db
        .select({ id: voucherTemplate.id })
        .from(voucherTemplate)
        .where(
          and(
            eq(voucherTemplate.providerId, providerId),
            sql`lower(${voucherTemplate.name}) = lower(${name})`,
            exceptId ? ne(voucherTemplate.id, exceptId) : undefined,
          ),
        );
      return r !== undefined;
    },
    /** How many of `ids` are stations of the provider. */
    async ownStations(providerId: number, ids: number[]) {
      if (ids.length === 0) return 0;
      const [r] = await db
        .select({ n: count() })
        .from(station)
        .where(and(eq(station.providerId, providerId), inArray(station.id, ids)));
      return r?.n ?? 0;
    },
    async insertTemplate(values: typeof voucherTemplate.$inferInsert) {
      const [r] = await db.insert(voucherTemplate).values(values).returning({ id: voucherTemplate.id });
      return r!.id;
    },
    async updateTemplate(id: number, values: Partial<typeof voucherTemplate.$inferInsert>) {
      await db
        .update(voucherTemplate)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(voucherTemplate.id, id));
    },
    visibleTemplates: (p: Principal, ids: number[]) =>
      db
        .select({ id: voucherTemplate.id, name: voucherTemplate.name, stationIds: voucherTemplate.stationIds })
        .from(voucherTemplate)
        .where(tWhere(p, {}, inArray(voucherTemplate.id, ids))),
    async templateIssued(ids: number[]) {
      const [r] = await db
        .select({ name: voucherTemplate.name })
        .from(voucher)
        .innerJoin(voucherTemplate, eq(voucherTemplate.id, voucher.templateId))
        .where(inArray(voucher.templateId, ids))
        .limit(1);
      return r?.name;
    },
    async removeTemplates(ids: number[]) {
      return (await db.delete(voucherTemplate).where(inArray(voucherTemplate.id, ids)).returning({ id: voucherTemplate.id })).length;
    },

    async listVouchers(p: Principal, f: VoucherFilter, page: number, limit: number) {
      const cond = vWhere(p, f);
      const offset = (page - 1) * limit;
      const rows = await vouchers().where(cond).orderBy(desc(voucher.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: voucher.id }).from(voucher).innerJoin(chargeUser, eq(chargeUser.id, voucher.chargeUserId)).where(cond),
      );
      return { list: rows.map(toVoucherDto), ...total };
    },
    async countVouchers(p: Principal, f: VoucherFilter) {
      const [r] = await db
        .select({ n: count() })
        .from(voucher)
        .innerJoin(chargeUser, eq(chargeUser.id, voucher.chargeUserId))
        .where(vWhere(p, f));
      return r?.n ?? 0;
    },
    pageVouchers: (p: Principal, f: VoucherFilter, afterId: number, size: number): Promise<VoucherRow[]> =>
      vouchers()
        .where(vWhere(p, f, gt(voucher.id, afterId)))
        .orderBy(asc(voucher.id))
        .limit(size),
    async getVoucher(p: Principal, id: number): Promise<VoucherRow | undefined> {
      const [r] = await vouchers().where(vWhere(p, {}, eq(voucher.id, id)));
      return r;
    },
    /** The provider's charge users among `ids`, and the members of a group of the provider. */
    async recipients(providerId: number, ids: number[], groupId: number | null | undefined) {
      const conds: SQL[] = [];
      if (ids.length) conds.push(inArray(chargeUser.id, ids));
      if (groupId) conds.push(eq(chargeUser.groupId, groupId));
      if (conds.length === 0) return [];
      const rows = await db
        .select({ id: chargeUser.id })
        .from(chargeUser)
        .where(and(eq(chargeUser.providerId, providerId), sql`(${sql.join(conds, sql` or `)})`));
      return rows.map((r) => r.id);
    },
    async insertVouchers(values: (typeof voucher.$inferInsert)[]) {
      for (let i = 0; i < values.length; i += 500) await db.insert(voucher).values(values.slice(i, i + 500));
    },
    /** A session the caller sees, with who pays it (the card's owner, else its user). */
    async session(p: Principal, transactionId: number) {
      const [r] = await db
        .select({
          id: chargingTransaction.id,
          payer: sql<number | null>`coalesce(${card.chargeUserId}, ${chargingTransaction.chargeUserId})`,
        })
        .from(chargingTransaction)
        .leftJoin(card, eq(card.id, chargingTransaction.cardId))
        .where(
          and(
            eq(chargingTransaction.id, transactionId),
            providerScope(p, chargingTransaction.providerId),
            stationScope(p, chargingTransaction.stationId),
          ),
        );
      return r;
    },
    /**
     * Sets the session's chosen voucher (none: `null`) under the session's row lock, so settlement (which
     * holds it while it bills) sees either the choice or a settled session; false when already settled.
     */
    choose(transactionId: number, voucherId: number | null) {
      return db.transaction(async (tx) => {
        const [t] = await tx
          .select({ billedAt: chargingTransaction.billedAt })
          .from(chargingTransaction)
          .where(eq(chargingTransaction.id, transactionId))
          .for('update');
        if (!t || t.billedAt) return false;
        await tx.update(voucher).set({ chosenFor: null }).where(eq(voucher.chosenFor, transactionId));
        if (voucherId !== null) await tx.update(voucher).set({ chosenFor: transactionId }).where(eq(voucher.id, voucherId));
        return true;
      });
    },
    /** Revokes when still unused (a conditional update: settlement may be using it at this moment). */
    async revoke(id: number, reason: string) {
      const rows = await db
        .update(voucher)
        .set({ status: 'revoked', revokeReason: reason })
        .where(and(eq(voucher.id, id), eq(voucher.status, 'unused')))
        .returning({ id: voucher.id });
      return rows.length === 1;
    },
  };
}

export type VoucherRepo = ReturnType<typeof createVoucherRepo>;
