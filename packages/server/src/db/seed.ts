import { allMenuPaths, ALL_PERMISSION, defaultPasswordPolicy, type PasswordPolicy } from '@csms/contract';
import { eq } from 'drizzle-orm';
import { createPasswordRule } from '../lib/password-rule.js';
import { hashPassword } from '../lib/passwords.js';
import type { Db } from './client.js';
import { provider, role, systemUser } from './schema.js';

export interface SeedResult {
  /** Set only when the admin was created now with a generated password: print it once. */
  generatedPassword?: string;
  created: boolean;
}

/**
 * First start: the super provider, the admin role and the `admin` user. Idempotent; the admin
 * role's paths are refreshed on every start so that new screens appear for it.
 */
export async function seed(db: Db, opts: { adminPassword?: string; passwordPolicy?: PasswordPolicy }): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    let [superProvider] = await tx.select().from(provider).where(eq(provider.type, 'super')).limit(1);
    superProvider ??= (await tx.insert(provider).values({ name: 'CSMS', type: 'super' }).returning())[0]!;

    let [adminRole] = await tx.select().from(role).where(eq(role.roleKey, 'admin')).limit(1);
    if (adminRole) {
      await tx
        .update(role)
        .set({ rolePaths: allMenuPaths, permissions: [ALL_PERMISSION] })
        .where(eq(role.id, adminRole.id));
    } else {
      adminRole = (
        await tx
          .insert(role)
          .values({
            providerId: superProvider.id,
            roleName: 'Administrator',
            roleKey: 'admin',
            rolePaths: allMenuPaths,
            permissions: [ALL_PERMISSION],
          })
          .returning()
      )[0]!;
    }

    const [admin] = await tx.select({ id: systemUser.id }).from(systemUser).where(eq(systemUser.username, 'admin')).limit(1);
    if (admin) return { created: false };
    const password = opts.adminPassword ?? createPasswordRule(opts.passwordPolicy ?? defaultPasswordPolicy).generate();
    await tx.insert(systemUser).values({
      providerId: superProvider.id,
      roleId: adminRole.id,
      username: 'admin',
      name: 'Administrator',
      passwordHash: await hashPassword(password),
    });
    return { created: true, ...(opts.adminPassword ? {} : { generatedPassword: password }) };
  });
}
