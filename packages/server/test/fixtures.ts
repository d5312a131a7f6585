import type { Db } from '../src/db/client.js';
import { provider, role, systemUser } from '../src/db/schema.js';
import type { Principal } from '../src/http/context.js';
import { hashPassword } from '../src/lib/passwords.js';

let n = 0;
const uniq = (p: string) => `${p}${++n}_${Math.random().toString(36).slice(2, 6)}`;

/** Identity rows written straight to the database, for tests that need more than the seeded admin. */
export async function createProvider(db: Db, v: Partial<typeof provider.$inferInsert> = {}) {
  const [row] = await db
    .insert(provider)
    .values({ name: uniq('provider'), type: 'common', parentId: 1, ...v })
    .returning();
  return row!;
}

export async function createRole(db: Db, v: Partial<typeof role.$inferInsert> & { providerId: number }) {
  const [row] = await db
    .insert(role)
    .values({ roleName: uniq('role'), roleKey: uniq('key'), ...v })
    .returning();
  return row!;
}

export async function createUser(
  db: Db,
  v: Partial<Omit<typeof systemUser.$inferInsert, 'passwordHash'>> & { providerId: number; roleId: number; password?: string },
) {
  const { password = 'secret1', ...rest } = v;
  const [row] = await db
    .insert(systemUser)
    .values({ username: uniq('user'), passwordHash: await hashPassword(password), ...rest })
    .returning();
  return { ...row!, password };
}

/** A provider with one role and one user holding the given paths and permissions. */
export async function createOperator(
  db: Db,
  opts: { permissions?: string[]; rolePaths?: string[]; providerId?: number; roleEnabled?: boolean } = {},
) {
  const p = opts.providerId ? { id: opts.providerId } : await createProvider(db);
  const r = await createRole(db, {
    providerId: p.id,
    permissions: opts.permissions ?? [],
    rolePaths: opts.rolePaths ?? [],
    enabled: opts.roleEnabled ?? true,
  });
  const u = await createUser(db, { providerId: p.id, roleId: r.id });
  return { providerId: p.id, role: r, user: u };
}

/**
 * A caller of a common provider without a user row, for calling a repository directly: it sees the
 * provider's data (or only `stationIds`' when bound to stations). Permissions are the routes' business.
 */
export const repoCaller = (providerId: number, stationIds: number[] | null = null): Principal => ({
  sessionId: 0,
  userId: 0,
  username: 'test',
  providerId,
  providerType: 'common',
  roleId: 0,
  roleKey: 'test',
  roleEnabled: true,
  permissions: [],
  rolePaths: [],
  providerIds: [providerId],
  stationIds,
});
