import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { plannedOnce } from '../db/named-statements.js';
import { prebuilt } from '../db/prebuilt.js';
import { provider, role, session, systemUser } from '../db/schema.js';
import type { Principal } from './context.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Provider ids visible to a user of `providerId`: itself and its descendants. */
export async function providerSubtree(db: Db, providerId: number): Promise<number[]> {
  const result = (await db.execute(sql`
    with recursive t(id) as (
      select id from provider where id = ${providerId}
      union all
      select p.id from provider p join t on p.parent_id = t.id
    ) select id from t`)) as unknown as { rows: { id: number }[] };
  return result.rows.map((r) => Number(r.id));
}

export function createSessionStore({ db, config }: { db: Db; config: Pick<Config, 'sessionTtlHours'> }) {
  // Every console request resolves its session: the query's text is built once, and its statement is
  // named (parsed and planned once per connection) although the request's own are not (src/db/
  // named-statements.ts). Built by drizzle at each call and planned each time, it cost a request about
  // 1 ms of the event loop and, on PGlite, about 3 ms of its thread (README, "Console weight").
  const principalBy = (key: typeof session.tokenHash | typeof session.id) =>
    prebuilt(db, (d) =>
      d
        .select({
          sessionId: session.id,
          userId: systemUser.id,
          username: systemUser.username,
          providerId: systemUser.providerId,
          providerType: provider.type,
          roleId: role.id,
          roleKey: role.roleKey,
          roleEnabled: role.enabled,
          permissions: role.permissions,
          rolePaths: role.rolePaths,
          stationIds: systemUser.stationIds,
          mustChangePassword: systemUser.mustChangePassword,
        })
        .from(session)
        .innerJoin(systemUser, eq(systemUser.id, session.userId))
        .innerJoin(role, eq(role.id, systemUser.roleId))
        .innerJoin(provider, eq(provider.id, systemUser.providerId))
        .where(
          and(
            eq(key, sql.placeholder('key')),
            isNull(session.revokedAt),
            gt(session.expiresAt, sql`now()`),
            eq(systemUser.status, 1),
            sql`(${provider.expiresAt} is null or ${provider.expiresAt} > now())`,
          ),
        )
        .limit(1),
    );
  const byToken = principalBy(session.tokenHash);
  const byId = principalBy(session.id);

  function principalWhere(lookup: typeof byToken, key: string | number): Promise<Principal | null> {
    return plannedOnce(async () => {
      const [row] = await lookup(db, { key });
      if (!row) return null;
      return {
        ...row,
        permissions: row.roleEnabled ? row.permissions : [],
        rolePaths: row.roleEnabled ? row.rolePaths : [],
        providerIds: row.providerType === 'super' ? 'all' : await providerSubtree(db, row.providerId),
        stationIds: row.stationIds.length > 0 ? row.stationIds : null,
      };
    });
  }

  return {
    async create(userId: number, ip: string, userAgent: string | undefined): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await db.insert(session).values({
        tokenHash: hashToken(token),
        userId,
        ip,
        userAgent: userAgent?.slice(0, 255),
        expiresAt: new Date(Date.now() + config.sessionTtlHours * 3_600_000),
      });
      return token;
    },

    /** The principal behind a token, or null when the session is unknown, expired, revoked, or its user or provider is no longer allowed in. */
    resolve(token: string): Promise<Principal | null> {
      return principalWhere(byToken, hashToken(token));
    },

    /** The same for a session already resolved once (an open event stream re-reads its scope): by its id, not its token. */
    resolveSession(sessionId: number): Promise<Principal | null> {
      return principalWhere(byId, sessionId);
    },

    async revoke(sessionId: number): Promise<void> {
      await db
        .update(session)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(session.id, sessionId), isNull(session.revokedAt)));
    },

    /** Revoke every open session of a user (password change, disable). */
    async revokeUser(userId: number): Promise<void> {
      await db
        .update(session)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(session.userId, userId), isNull(session.revokedAt)));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
