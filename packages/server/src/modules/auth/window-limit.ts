import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { loginAttempt } from '../../db/schema.js';

/**
 * Counters of unauthenticated requests per key (a client IP, an e-mail) in the sign-in attempts' table,
 * so that every node sees them: a key takes one slot per call in one upsert that refuses once its
 * window holds `max` (parallel requests cannot pass the limit together). A window that is over starts
 * again from one. Callers prefix their keys (`captcha:`, `apply…:`), which never meet sign-in's.
 */
export function createWindowLimiter({ db }: { db: Db }) {
  const t = loginAttempt;
  return {
    /** 0 when the slot was taken, else whole minutes (at least 1) until the key's window ends. */
    async take(key: string, max: number, windowSeconds: number): Promise<number> {
      const window = sql`${windowSeconds} * interval '1 second'`;
      const stale = sql`${t.windowStart} <= now() - ${window}`;
      const rows = await db
        .insert(t)
        .values({ key, failures: 1, windowStart: sql`now()` })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            failures: sql`case when ${stale} then 1 else ${t.failures} + 1 end`,
            windowStart: sql`case when ${stale} then now() else ${t.windowStart} end`,
          },
          setWhere: sql`${stale} or ${t.failures} < ${max}`,
        })
        .returning({ failures: t.failures });
      if (rows.length > 0) return 0;
      const [left] = await db
        .select({ seconds: sql<number>`extract(epoch from ${t.windowStart} + ${window} - now())::float8` })
        .from(t)
        .where(sql`${t.key} = ${key}`);
      return Math.max(1, Math.ceil(Number(left?.seconds ?? 60) / 60));
    },
  };
}

export type WindowLimiter = ReturnType<typeof createWindowLimiter>;
