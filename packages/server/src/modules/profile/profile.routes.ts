import type { profileApi } from '@csms/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { provider, role, systemUser } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import { isUniqueViolation } from '../../lib/scope.js';
import type { ImageField, StoredImages } from '../../lib/stored-images.js';

const blankToNull = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : v);

/** Personal center: the signed-in user's own name, phone, email and avatar. */
const AVATAR: ImageField = { field: 'avatar', key: 'errors.upload.avatarInvalid' };

export function profileRoutes({ db, images }: { db: Db; images: StoredImages }): Handlers<typeof profileApi> {
  async function load(userId: number) {
    const [r] = await db
      .select({ u: systemUser, roleName: role.roleName, providerName: provider.name })
      .from(systemUser)
      .innerJoin(role, eq(role.id, systemUser.roleId))
      .innerJoin(provider, eq(provider.id, systemUser.providerId))
      .where(eq(systemUser.id, userId))
      .limit(1);
    if (!r) throw notFound();
    return {
      id: r.u.id,
      username: r.u.username,
      name: r.u.name,
      phone: r.u.phone,
      email: r.u.email,
      avatar: r.u.avatar,
      roleName: r.roleName,
      providerName: r.providerName,
      lastLoginTime: r.u.lastLoginAt?.toISOString() ?? null,
      createTime: r.u.createdAt.toISOString(),
    };
  }

  return {
    async get({ ctx }) {
      return load(ctx.principal.userId);
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `systemUser:${p.username}`;
      const phoneTaken = () => conflict('errors.systemUser.phoneTaken', { phone: body.phone }, 'phone');
      if (body.phone) {
        const [other] = await db
          .select({ id: systemUser.id })
          .from(systemUser)
          .where(and(eq(systemUser.phone, body.phone), ne(systemUser.id, p.userId)))
          .limit(1);
        if (other) throw phoneTaken();
      }
      if (body.avatar) {
        const [me] = await db.select({ avatar: systemUser.avatar }).from(systemUser).where(eq(systemUser.id, p.userId)).limit(1);
        // An avatar stored before this rule stays until it is changed.
        if (body.avatar !== me?.avatar) await images.check(p, body.avatar, AVATAR);
      }
      const values = { name: blankToNull(body.name), phone: body.phone, email: blankToNull(body.email), avatar: blankToNull(body.avatar) };
      const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
      if (Object.keys(set).length > 0) {
        try {
          await db.update(systemUser).set(set).where(eq(systemUser.id, p.userId));
        } catch (err) {
          throw isUniqueViolation(err) ? phoneTaken() : err;
        }
      }
      return load(p.userId);
    },
  };
}
