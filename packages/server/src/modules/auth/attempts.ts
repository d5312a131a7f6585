import { and, gt, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { loginAttempt } from '../../db/schema.js';

type Limits = Pick<Config, 'loginMaxAttempts' | 'loginMaxAttemptsPerIp' | 'loginLockMinutes'>;

/** Failed sign-ins counted per account and per IP in the database, so that every node sees them. */
export function createAttemptLimiter({ db, config }: { db: Db; config: Limits }) {
  const windowMs = config.loginLockMinutes * 60_000;
  const keys = (username: string, ip: string) => ({ user: `user:${username.toLowerCase()}`, ip: `ip:${ip}` });

  async function bump(key: string, max: number) {
    const since = new Date(Date.now() - windowMs);
    const [row] = await db
      .insert(loginAttempt)
      .values({ key, failures: 1, windowStart: new Date() })
      .onConflictDoUpdate({
        target: loginAttempt.key,
        set: {
          failures: sql`case when ${loginAttempt.windowStart} < ${since} then 1 else ${loginAttempt.failures} + 1 end`,
          windowStart: sql`case when ${loginAttempt.windowStart} < ${since} then now() else ${loginAttempt.windowStart} end`,
        },
      })
      .returning({ failures: loginAttempt.failures });
    if (row && row.failures >= max) {
      await db
        .update(loginAttempt)
        .set({ lockedUntil: new Date(Date.now() + windowMs), failures: 0, windowStart: new Date() })
        .where(inArray(loginAttempt.key, [key]));
    }
  }

  return {
    /** Minutes until the account or the IP may try again; 0 when neither is locked. */
    async lockedMinutes(username: string, ip: string): Promise<number> {
      const k = keys(username, ip);
      const rows = await db
        .select({ lockedUntil: loginAttempt.lockedUntil })
        .from(loginAttempt)
        .where(and(inArray(loginAttempt.key, [k.user, k.ip]), gt(loginAttempt.lockedUntil, sql`now()`)));
      const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
      return until > Date.now() ? Math.ceil((until - Date.now()) / 60_000) : 0;
    },
    async fail(username: string, ip: string) {
      const k = keys(username, ip);
      await bump(k.user, config.loginMaxAttempts);
      await bump(k.ip, config.loginMaxAttemptsPerIp);
    },
    async succeed(username: string) {
      await db.delete(loginAttempt).where(inArray(loginAttempt.key, [keys(username, '').user]));
    },
  };
}
