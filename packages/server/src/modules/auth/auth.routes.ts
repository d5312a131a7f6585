import { ADMIN_ROLE, ALL_PERMISSION, allMenuPaths, Code, fieldLabel, type authApi, type UserInfo } from '@csms/contract';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { provider, role, session, systemUser } from '../../db/schema.js';
import { AppError, badField } from '../../http/errors.js';
import { external, Outcome, SESSION_COOKIE, type Handlers } from '../../http/mount.js';
import type { SessionStore } from '../../http/sessions.js';
import type { PasswordRule } from '../../lib/password-rule.js';
import { decoyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { createAttemptLimiter } from './attempts.js';
import type { createCaptchaService } from './captcha.js';
import type { WindowLimiter } from './window-limit.js';

interface Deps {
  db: Db;
  config: Pick<Config, 'captcha' | 'captchaMaxPerIp' | 'sessionTtlHours'>;
  sessions: SessionStore;
  passwords: PasswordRule;
  attempts: ReturnType<typeof createAttemptLimiter>;
  captcha: ReturnType<typeof createCaptchaService>;
  windows: WindowLimiter;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function authRoutes({ db, config, sessions, passwords, attempts, captcha, windows }: Deps): Handlers<typeof authApi> {
  /** "Last sign-in" as people mean it: the one before the session in use (each sign-in opens a session). */
  async function previousSignIn(userId: number, sessionId: number): Promise<Date | null> {
    const [prev] = await db
      .select({ at: session.createdAt })
      .from(session)
      .where(and(eq(session.userId, userId), lt(session.id, sessionId)))
      .orderBy(desc(session.id))
      .limit(1);
    return prev?.at ?? null;
  }

  return {
    // Unauthenticated, and each answer draws a PNG and writes a row: counted per client address.
    async captchaImage({ ctx }) {
      if (!config.captcha) return { captchaEnabled: false };
      const minutes = await windows.take(`captcha:ip:${ctx.ip}`, config.captchaMaxPerIp, 60);
      if (minutes > 0) throw new AppError(Code.CONFLICT, 'errors.auth.tooManyCaptchas', { minutes });
      return { captchaEnabled: true, ...(await captcha.issue()) };
    },

    // Checks a password (slow by design) and counts attempts that must stay counted when it fails:
    // its system-log row is written first, not in a transaction held across the check.
    login: external(async ({ body, ctx, req, reply, audit }) => {
      const username = body.username;
      audit.operand = `auth:${username}`;
      audit.operator = { username };
      if (config.captcha) {
        if (!body.code) throw badField('code', 'validation.required', { field: fieldLabel(ctx.lang, 'auth', 'code') });
        const verdict = await captcha.check(body.uuid ?? '', body.code);
        if (verdict !== 'ok') throw badField('code', verdict === 'wrong' ? 'errors.auth.captchaWrong' : 'errors.auth.captchaExpired');
      }
      // Counted before the password is checked, so that parallel attempts cannot pass the limit.
      const minutes = await attempts.reserve(username, ctx.ip);
      if (minutes > 0) throw new AppError(Code.UNAUTHORIZED, 'errors.auth.tooManyAttempts', { minutes });

      const [user] = await db
        .select({ user: systemUser, providerExpiresAt: provider.expiresAt })
        .from(systemUser)
        .innerJoin(provider, eq(provider.id, systemUser.providerId))
        .where(sql`lower(${systemUser.username}) = lower(${username})`)
        .limit(1);
      const ok = user
        ? await verifyPassword(user.user.passwordHash, body.password)
        : (await verifyPassword(await decoyHash(), body.password)) && false;
      if (!user || !ok) {
        await attempts.fail(username, ctx.ip);
        throw new AppError(Code.UNAUTHORIZED, 'errors.auth.badCredentials');
      }
      await attempts.succeed(username, ctx.ip);
      audit.operator = { username: user.user.username, userId: user.user.id, providerId: user.user.providerId };
      if (user.user.status !== 1) throw new AppError(Code.UNAUTHORIZED, 'errors.auth.userDisabled');
      if (user.providerExpiresAt && user.providerExpiresAt.getTime() <= Date.now()) {
        return new Outcome({ systemUserStatus: 0 as const }, Code.OK, 'errors.auth.accountExpired');
      }
      const token = await sessions.create(user.user.id, ctx.ip, req.headers['user-agent']);
      await db.update(systemUser).set({ lastLoginAt: new Date() }).where(eq(systemUser.id, user.user.id));
      // The event stream and file links authenticate with this cookie; script never reads it (the
      // console keeps the token from this answer), and other sites' requests never carry it (Lax; and
      // a change needs the header token anyway).
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: req.protocol === 'https',
        maxAge: config.sessionTtlHours * 3600,
      });
      return { token, systemUserStatus: 1 as const };
    }),

    async info({ ctx }) {
      const p = ctx.principal;
      const [row] = await db
        .select({ user: systemUser, role, provider })
        .from(systemUser)
        .innerJoin(role, eq(role.id, systemUser.roleId))
        .innerJoin(provider, eq(provider.id, systemUser.providerId))
        .where(eq(systemUser.id, p.userId))
        .limit(1);
      if (!row) throw new AppError(Code.UNAUTHORIZED, 'errors.unauthorized');
      const isAdmin = row.role.roleKey === ADMIN_ROLE;
      const paths = !row.role.enabled ? ['forbidden'] : isAdmin ? allMenuPaths : row.role.rolePaths;
      const info: UserInfo = {
        user: {
          id: row.user.id,
          username: row.user.username,
          name: row.user.name,
          avatar: row.user.avatar,
          phone: row.user.phone,
          email: row.user.email,
          lastLoginTime: iso(await previousSignIn(p.userId, p.sessionId)),
        },
        roles: [row.role.roleKey],
        roleName: row.role.roleName,
        ...(paths.length > 0 ? { rolePaths: paths } : {}),
        permissions: !row.role.enabled ? [] : isAdmin ? [ALL_PERMISSION] : row.role.permissions,
        providerId: row.provider.id,
        providerName: row.provider.name,
        providerType: row.provider.type,
        logoPath: row.provider.logoPath,
        // The provider panel and columns are for users who see more than their own provider.
        isShowProvider: p.providerIds === 'all' || p.providerIds.length > 1,
        passwordPolicy: passwords.policy,
        mustChangePassword: row.user.mustChangePassword,
      };
      return info;
    },

    async logout({ ctx, reply }) {
      await sessions.revoke(ctx.principal.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return null;
    },

    async editUserPwd({ body, ctx, reply, audit }) {
      const p = ctx.principal;
      audit.operand = `systemUser:${p.username}`;
      passwords.check(ctx.lang, 'auth', 'newPwd', body.newPwd);
      const [user] = await db.select().from(systemUser).where(eq(systemUser.id, p.userId)).limit(1);
      if (!user || !(await verifyPassword(user.passwordHash, body.oldPwd))) throw badField('oldPwd', 'errors.auth.oldPasswordWrong');
      if (body.oldPwd === body.newPwd) throw badField('newPwd', 'errors.auth.samePassword');
      await db
        .update(systemUser)
        .set({ passwordHash: await hashPassword(body.newPwd), mustChangePassword: false })
        .where(eq(systemUser.id, p.userId));
      // Every session of the user ends, this one included: the console signs in again.
      await sessions.revokeUser(p.userId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return true;
    },
  };
}
