import { and, asc, count, desc, eq, gt, gte, ilike, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { systemLog } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface SystemLogFilter {
  operation?: string | undefined;
  operator?: string | undefined;
  operand?: string | undefined;
  result?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

type Row = typeof systemLog.$inferSelect;

export const toDto = (r: Row) => ({
  id: r.id,
  operation: r.operation,
  operator: r.operator,
  operand: r.operand,
  method: r.method,
  path: r.path,
  ip: r.ip,
  result: r.result,
  msg: r.msg,
  mode: r.mode,
  durationMs: r.durationMs,
  providerId: r.providerId,
  createTime: r.createdAt.toISOString(),
});

/** The system log, scoped by the operator's provider (rows without one, e.g. unknown sign-ins, only for the super provider). */
export function createSystemLogRepo({ db }: { db: Db }) {
  const where = (p: Principal, f: SystemLogFilter, ...more: (SQL | undefined)[]) =>
    and(
      providerScope(p, systemLog.providerId),
      f.operation ? eq(systemLog.operation, f.operation) : undefined,
      f.operator ? ilike(systemLog.operator, contains(f.operator)) : undefined,
      f.operand ? ilike(systemLog.operand, contains(f.operand)) : undefined,
      f.result !== undefined ? eq(systemLog.result, f.result) : undefined,
      f.startTime ? gte(systemLog.createdAt, f.startTime) : undefined,
      f.endTime ? lte(systemLog.createdAt, f.endTime) : undefined,
      ...more,
    );

  return {
    async list(p: Principal, f: SystemLogFilter, page: number, limit: number) {
      const cond = where(p, f);
      const offset = (page - 1) * limit;
      const rows = await db.select().from(systemLog).where(cond).orderBy(desc(systemLog.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: systemLog.id }).from(systemLog).where(cond),
      );
      return { list: rows.map(toDto), ...total };
    },
    /** Exact, for exports. */
    async count(p: Principal, f: SystemLogFilter) {
      const [r] = await db.select({ n: count() }).from(systemLog).where(where(p, f));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: SystemLogFilter, afterId: number, size: number) {
      return db
        .select()
        .from(systemLog)
        .where(where(p, f, gt(systemLog.id, afterId)))
        .orderBy(asc(systemLog.id))
        .limit(size);
    },
    async get(p: Principal, id: number) {
      const [r] = await db
        .select()
        .from(systemLog)
        .where(where(p, {}, eq(systemLog.id, id)))
        .limit(1);
      return r ? { ...toDto(r), request: r.request } : undefined;
    },
  };
}

export type SystemLogRepo = ReturnType<typeof createSystemLogRepo>;
