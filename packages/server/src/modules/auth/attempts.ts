import { eq, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { loginAttempt } from '../../db/schema.js';

type Limits = Pick<Config, 'loginMaxAttempts' | 'loginMaxAttemptsPerIp' | 'loginLockMinutes'>;
interface Key {
  key: string;
  max: number;
}

/**
 * Sign-in attempts counted per account and per IP in the database, so that every node sees them.
 *
 * An attempt takes a slot before its password is checked, in one upsert that refuses once the window
 * is full: parallel requests (on one node or several) can never check more passwords than the limit.
 * A wrong password keeps its slot (and locks the key when it filled the window); a right one starts the
 * account over and gives the address its slot back. Times are the database's, the same for every node.
 */
export function createAttemptLimiter({ db, config }: { db: Db; config: Limits }) {
  const window = sql`${config.loginLockMinutes * 60} * interval '1 second'`;
  // The address first: an address that is locked never touches the account's count.
  const keys = (username: string, ip: string): [Key, Key] => [
    { key: `ip:${ip}`, max: config.loginMaxAttemptsPerIp },
    { key: `user:${username.toLowerCase()}`, max: config.loginMaxAttempts },
  ];
  const t = loginAttempt;
  const unlocked: SQL = sql`(${t.lockedUntil} is null or ${t.lockedUntil} <= now())`;
  // A window that is over, with no lock running, starts again from one.
  const stale: SQL = sql`(${t.windowStart} <= now() - ${window} and ${unlocked})`;

  /** Takes a slot for `key`; false when the key is locked or its window already holds `max` attempts. */
  async function take(key: string, max: number): Promise<boolean> {
    const rows = await db
      .insert(t)
      .values({ key, failures: 1, windowStart: sql`now()` })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          failures: sql`case when ${stale} then 1 else ${t.failures} + 1 end`,
          windowStart: sql`case when ${stale} then now() else ${t.windowStart} end`,
          lockedUntil: sql`case when ${stale} then null else ${t.lockedUntil} end`,
        },
        setWhere: sql`${stale} or (${unlocked} and ${t.failures} < ${max})`,
      })
      .returning({ failures: t.failures });
    return rows.length > 0;
  }

  /** Gives a slot back; a lock that slot helped to reach is lifted when the count falls below `max`. */
  async function give(key: string, max: number) {
    await db
      .update(t)
      .set({
        failures: sql`greatest(${t.failures} - 1, 0)`,
        lockedUntil: sql`case when ${t.failures} - 1 < ${max} then null else ${t.lockedUntil} end`,
      })
      .where(eq(t.key, key));
  }

  /** Whole minutes until the key's lock or full window ends (at least 1). */
  async function minutesLeft(key: string): Promise<number> {
    const rows = await db
      .select({ seconds: sql<number>`extract(epoch from greatest(${t.lockedUntil}, ${t.windowStart} + ${window}) - now())::float8` })
      .from(t)
      .where(eq(t.key, key));
    return Math.max(1, ...rows.map((r) => Math.ceil(Number(r.seconds) / 60)));
  }

  return {
    /** Counts this attempt before its password is checked: 0 when it may go on, else minutes until it may. */
    async reserve(username: string, ip: string): Promise<number> {
      const taken: Key[] = [];
      for (const k of keys(username, ip)) {
        if (await take(k.key, k.max)) {
          taken.push(k);
          continue;
        }
        for (const back of taken) await give(back.key, back.max);
        return minutesLeft(k.key);
      }
      return 0;
    },
    /** A wrong password: its slots stay counted; a key whose window is now full is locked for the lock time. */
    async fail(username: string, ip: string) {
      for (const k of keys(username, ip)) {
        await db
          .update(t)
          .set({ lockedUntil: sql`now() + ${window}` })
          .where(sql`${t.key} = ${k.key} and ${t.failures} >= ${k.max} and ${unlocked}`);
      }
    },
    /** The right password: the account starts over; the address only gets this attempt's slot back. */
    async succeed(username: string, ip: string) {
      const [address, account] = keys(username, ip);
      await db.delete(t).where(eq(t.key, account.key));
      await give(address.key, address.max);
    },
  };
}
