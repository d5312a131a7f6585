import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargeUser, provider, userGroup } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope } from '../../lib/scope.js';

/** An optional text from a form: empty means none. */
export const blank = (v: string | null | undefined): string | null => (v === undefined || v === null || v.trim() === '' ? null : v);

/** Cents as the currency amount people read in a message or a spreadsheet: 1234 → "12.34". */
export const centsText = (cents: number): string => (cents / 100).toFixed(2);
export const centsValue = (cents: number): number => Number((cents / 100).toFixed(2));

/**
 * Look-ups of the rows another record refers to, each within the caller's scope: a reference the
 * caller cannot see answers "not found" exactly like a missing one.
 */
export function createRefs({ db }: { db: Db }) {
  return {
    async provider(p: Principal, id: number) {
      const [r] = await db
        .select({ id: provider.id, name: provider.name })
        .from(provider)
        .where(and(providerScope(p, provider.id), eq(provider.id, id)))
        .limit(1);
      return r;
    },
    async chargeUser(p: Principal, id: number) {
      const [r] = await db
        .select({ id: chargeUser.id, providerId: chargeUser.providerId, account: chargeUser.account, groupId: chargeUser.groupId })
        .from(chargeUser)
        .where(and(providerScope(p, chargeUser.providerId), eq(chargeUser.id, id)))
        .limit(1);
      return r;
    },
    async group(p: Principal, id: number) {
      const [r] = await db
        .select({ id: userGroup.id, providerId: userGroup.providerId, name: userGroup.name })
        .from(userGroup)
        .where(and(providerScope(p, userGroup.providerId), eq(userGroup.id, id)))
        .limit(1);
      return r;
    },
    /** Global: an account identifies its user on the wire (parent id tag), regardless of case. */
    async accountTaken(account: string, exceptId?: number) {
      const [r] = await db
        .select({ id: chargeUser.id })
        .from(chargeUser)
        .where(sql`lower(${chargeUser.account}) = lower(${account})`)
        .limit(1);
      return r !== undefined && r.id !== exceptId;
    },
  };
}

export type Refs = ReturnType<typeof createRefs>;
