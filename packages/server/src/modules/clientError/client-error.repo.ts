import type { ClientErrorDto } from '@csms/contract';
import { and, count, desc, eq, gte, ilike, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clientError, clientErrorQuota } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface ClientErrorFilter {
  message?: string | undefined;
  buildId?: string | undefined;
  username?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

type Row = typeof clientError.$inferSelect;
const toDto = (r: Row): ClientErrorDto => ({
  id: r.id,
  fingerprint: r.fingerprint,
  message: r.message,
  stack: r.stack,
  source: r.source,
  route: r.route,
  buildId: r.buildId,
  username: r.username,
  providerId: r.providerId,
  userAgent: r.userAgent,
  count: r.count,
  firstSeen: r.firstSeen.toISOString(),
  lastSeen: r.lastSeen.toISOString(),
});

export function createClientErrorRepo({ db }: { db: Db }) {
  return {
    /**
     * Takes one report from the key's quota in one statement (so parallel reports on any node count
     * once each): true while the window's count stays within `limit`.
     */
    async take(key: string, limit: number, windowMs: number): Promise<boolean> {
      const expired = sql`${clientErrorQuota.windowStart} < now() - make_interval(secs => ${windowMs / 1000})`;
      const [r] = await db
        .insert(clientErrorQuota)
        .values({ key, reports: 1, windowStart: sql`now()` })
        .onConflictDoUpdate({
          target: clientErrorQuota.key,
          set: {
            reports: sql`case when ${expired} then 1 else ${clientErrorQuota.reports} + 1 end`,
            windowStart: sql`case when ${expired} then now() else ${clientErrorQuota.windowStart} end`,
          },
        })
        .returning({ reports: clientErrorQuota.reports });
      return (r?.reports ?? 0) <= limit;
    },
    /** One row per fingerprint: a repeat counts and moves the latest occurrence's details onto it. */
    async record(v: Omit<typeof clientError.$inferInsert, 'id' | 'count' | 'firstSeen' | 'lastSeen'>) {
      await db
        .insert(clientError)
        .values(v)
        .onConflictDoUpdate({
          target: clientError.fingerprint,
          set: {
            count: sql`${clientError.count} + 1`,
            lastSeen: sql`now()`,
            route: v.route,
            userId: v.userId ?? null,
            username: v.username ?? null,
            providerId: v.providerId ?? null,
            userAgent: v.userAgent ?? null,
          },
        });
    },
    /** Scoped by the reporting user's provider: reports without a user are the super provider's to see. */
    async list(p: Principal, f: ClientErrorFilter, page: number, limit: number) {
      const cond: SQL | undefined = and(
        providerScope(p, clientError.providerId),
        f.message ? ilike(clientError.message, contains(f.message)) : undefined,
        f.buildId ? eq(clientError.buildId, f.buildId) : undefined,
        f.username ? ilike(clientError.username, contains(f.username)) : undefined,
        f.startTime ? gte(clientError.lastSeen, f.startTime) : undefined,
        f.endTime ? lte(clientError.lastSeen, f.endTime) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(clientError)
          .where(cond)
          .orderBy(desc(clientError.lastSeen), desc(clientError.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(clientError).where(cond),
      ]);
      return { list: rows.map(toDto), total: total?.n ?? 0 };
    },
  };
}

export type ClientErrorRepo = ReturnType<typeof createClientErrorRepo>;
