import type { ProviderDto } from '@csms/contract';
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { provider } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerSubtree } from '../../http/sessions.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface ProviderFilter {
  providerName?: string | undefined;
  providerType?: 'super' | 'common' | undefined;
  contact?: string | undefined;
  phone?: string | undefined;
}

type Row = typeof provider.$inferSelect;
const parent = alias(provider, 'parent');
const userCount = sql<number>`(select count(*)::int from "system_user" u where u.provider_id = "provider"."id")`;

/** Show that a code is stored without showing it: first and last character around asterisks. */
export function mask(code: string | null): string | null {
  if (!code) return null;
  return code.length <= 4 ? '****' : `${code[0]}******${code[code.length - 1]}`;
}

export const toDto = (r: Row, parentName: string | null, users: number): ProviderDto => ({
  id: r.id,
  providerName: r.name,
  providerType: r.type,
  parentId: r.parentId,
  parentName,
  email: r.email,
  contact: r.contact,
  phone: r.phone,
  expirationTime: r.expiresAt?.toISOString() ?? null,
  authCount: r.authCount,
  logoPath: r.logoPath,
  disclaimer: r.disclaimer,
  privacyAgreement: r.privacyAgreement,
  agreementKey: r.agreementKey,
  mailAccount: r.mailAccount,
  hasMailAuthCode: Boolean(r.mailAuthCode),
  mailAuthCodeMasked: mask(r.mailAuthCode),
  smtpAddress: r.smtpAddress,
  smtpPort: r.smtpPort,
  autoLocalListSync: r.autoLocalListSync,
  userCount: Number(users),
  createTime: r.createdAt.toISOString(),
});

/** Providers, scoped to the caller's subtree (a super provider's users see all). */
export function createProviderRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, provider.id), ...more);
  const filterSql = (f: ProviderFilter) =>
    and(
      f.providerName ? ilike(provider.name, contains(f.providerName)) : undefined,
      f.providerType ? eq(provider.type, f.providerType) : undefined,
      f.contact ? ilike(provider.contact, contains(f.contact)) : undefined,
      f.phone ? ilike(provider.phone, contains(f.phone)) : undefined,
    );
  const base = () =>
    db.select({ row: provider, parentName: parent.name, userCount }).from(provider).leftJoin(parent, eq(parent.id, provider.parentId));

  return {
    async list(p: Principal, f: ProviderFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [rows, [total]] = await Promise.all([
        base()
          .where(cond)
          .orderBy(desc(provider.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(provider).where(cond),
      ]);
      return { list: rows.map((r) => toDto(r.row, r.parentName, r.userCount)), total: total?.n ?? 0 };
    },
    async get(p: Principal, id: number) {
      const [r] = await base()
        .where(where(p, eq(provider.id, id)))
        .limit(1);
      return r ? toDto(r.row, r.parentName, r.userCount) : undefined;
    },
    /** The raw row, secrets included: for sending mail only, never for replies. */
    async row(p: Principal, id: number) {
      const [r] = await db
        .select()
        .from(provider)
        .where(where(p, eq(provider.id, id)))
        .limit(1);
      return r;
    },
    /** For selects: by name, the first `limit` (all without one), plus the rows of `ids` (the values shown). */
    async options(p: Principal, providerName?: string, w: { limit?: number | undefined; ids?: string | undefined } = {}) {
      const cols = { id: provider.id, providerName: provider.name, providerType: provider.type, parentId: provider.parentId };
      const q = db
        .select(cols)
        .from(provider)
        .where(where(p, providerName ? ilike(provider.name, contains(providerName)) : undefined))
        .orderBy(...(w.limit ? [asc(provider.name), asc(provider.id)] : [asc(provider.id)]));
      const rows = w.limit ? await q.limit(w.limit) : await q;
      const missing = (w.ids?.split(',').map(Number) ?? []).filter((id) => !rows.some((r) => r.id === id));
      if (missing.length === 0) return rows;
      return [
        ...rows,
        ...(await db
          .select(cols)
          .from(provider)
          .where(where(p, inArray(provider.id, missing)))),
      ];
    },
    subtree: (id: number) => providerSubtree(db, id),
    /** Unscoped on purpose: the disclaimer and privacy agreement are public pages for drivers, found by their key. */
    async agreement(key: string) {
      const [r] = await db
        .select({
          providerName: provider.name,
          logoPath: provider.logoPath,
          disclaimer: provider.disclaimer,
          privacyAgreement: provider.privacyAgreement,
        })
        .from(provider)
        .where(eq(provider.agreementKey, key))
        .limit(1);
      return r;
    },
    async insert(values: typeof provider.$inferInsert) {
      const [r] = await db.insert(provider).values(values).returning({ id: provider.id });
      return r!.id;
    },
    async update(p: Principal, id: number, values: Partial<typeof provider.$inferInsert>) {
      await db
        .update(provider)
        .set(values)
        .where(where(p, eq(provider.id, id)));
    },
  };
}

export type ProviderRepo = ReturnType<typeof createProviderRepo>;
