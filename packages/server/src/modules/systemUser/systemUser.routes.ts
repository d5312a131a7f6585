import { checkPermi, checkRole, Code, translate, type systemUserApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { AuditNote, Handlers } from '../../http/mount.js';
import type { SessionStore } from '../../http/sessions.js';
import { SCOPE_CHANGED, type EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { assertCovers, BUILT_IN_ADMIN, userRefusal } from '../../lib/grants.js';
import type { PasswordRule } from '../../lib/password-rule.js';
import { hashPassword } from '../../lib/passwords.js';
import { canSeeProvider, isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import type { ImageField, StoredImages } from '../../lib/stored-images.js';
import { toDto, type SystemUserRepo, type UserRow } from './systemUser.repo.js';

/** The stations a caller can see, for binding users to them. */
export interface StationLookup {
  visibleIds(p: Principal, ids: number[]): Promise<number[]>;
  options(p: Principal, f: { stationName?: string }): Promise<{ id: number }[]>;
}

interface Deps {
  repo: SystemUserRepo;
  stations: StationLookup;
  sessions: SessionStore;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  images: StoredImages;
  passwords: PasswordRule;
}

const AVATAR: ImageField = { field: 'avatar', key: 'errors.upload.avatarInvalid' };

const blank = (v: string | undefined) => (v === undefined || v === '' ? null : v);
const locked = (key: string) => new AppError(Code.CONFLICT, key);

export function systemUserRoutes({
  repo,
  stations,
  sessions,
  events,
  columns,
  config,
  images,
  passwords,
}: Deps): Handlers<typeof systemUserApi> {
  /** A user the caller may see (else 404) and change (else 403, DESIGN.md §5); names it in the system log. */
  async function mustManage(p: Principal, id: number, audit: AuditNote) {
    const user = await repo.get(p, id);
    if (!user) throw notFound();
    audit.operand = `systemUser:${user.username}`;
    const refusal = userRefusal(p, user);
    if (refusal) throw refusal;
    return user;
  }
  /**
   * References must be visible to the caller (another provider's role or provider "does not
   * exist"), and the role may grant no more than the caller holds (DESIGN.md §5).
   */
  async function checkRefs(p: Principal, roleId: number, providerId: number) {
    const role = await repo.role(p, roleId);
    if (!canSeeProvider(p, providerId) || !role) throw notFound();
    assertCovers(p, role, 'errors.systemUser.roleNotAssignable', { role: role.roleName });
  }
  /**
   * A station-bound caller binds only its own stations, and cannot create an unbound (all-station)
   * user; anyone binds only stations it can see (another provider's station "does not exist").
   */
  async function checkStations(p: Principal, stationIds: number[]) {
    if (p.stationIds !== null && (stationIds.length === 0 || stationIds.some((s) => !p.stationIds!.includes(s)))) {
      throw new AppError(Code.BAD_REQUEST, 'errors.systemUser.stationsOutOfScope', {}, 'stationIds');
    }
    if ((await stations.visibleIds(p, stationIds)).length !== new Set(stationIds).size) throw notFound();
  }
  /** Bound stations belong to the user's own provider (or its descendants); others it could never see. */
  async function checkStationsOfProvider(providerId: number, stationIds: number[]) {
    const outside = await repo.stationsOutside(providerId, stationIds);
    if (outside.length > 0) throw badField('stationIds', 'errors.systemUser.stationsOfOtherProvider', { names: outside.join(', ') });
  }
  const phoneTaken = (phone: string) => conflict('errors.systemUser.phoneTaken', { phone }, 'phone');
  const usernameTaken = (name: string) => conflict('errors.systemUser.usernameTaken', { name }, 'username');
  const reread = async (p: Principal, id: number) => toDto((await repo.get(p, id))!, p);

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f as never, page, limit);
    },
    async search({ body, ctx }) {
      const { page, limit, ...f } = body;
      return repo.list(ctx.principal, f as never, page, limit);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `systemUser:${body.username}`;
      passwords.check(ctx.lang, 'systemUser', 'password', body.password);
      await checkRefs(p, body.roleId, body.providerId);
      const stationIds = [...new Set(body.stationIds ?? [])];
      await checkStations(p, stationIds);
      await checkStationsOfProvider(body.providerId, stationIds);
      await images.check(p, body.avatar, AVATAR);
      if (await repo.usernameTaken(body.username)) throw usernameTaken(body.username);
      if (await repo.phoneTaken(body.phone)) throw phoneTaken(body.phone);
      try {
        const id = await repo.insert({
          username: body.username,
          passwordHash: await hashPassword(body.password),
          roleId: body.roleId,
          providerId: body.providerId,
          name: blank(body.name),
          phone: body.phone,
          email: blank(body.email),
          avatar: blank(body.avatar),
          status: body.status ?? 1,
          stationIds,
        });
        return reread(p, id);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        throw (await repo.usernameTaken(body.username)) ? usernameTaken(body.username) : phoneTaken(body.phone);
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustManage(p, body.id, audit);
      await checkRefs(p, body.roleId, body.providerId);
      if (current.username === BUILT_IN_ADMIN && (body.roleId !== current.roleId || body.providerId !== current.providerId)) {
        throw locked('errors.systemUser.adminLocked');
      }
      if (body.id === p.userId && body.roleId !== current.roleId) throw locked('errors.systemUser.selfRole');
      const stationIds = body.stationIds ? [...new Set(body.stationIds)] : current.stationIds;
      if (body.stationIds) await checkStations(p, stationIds);
      // Also when only the provider changes: stations kept from the old provider would show the user nothing.
      await checkStationsOfProvider(body.providerId, stationIds);
      if (blank(body.avatar) !== current.avatar) await images.check(p, body.avatar, AVATAR);
      if (await repo.phoneTaken(body.phone, { exceptId: body.id })) throw phoneTaken(body.phone);
      try {
        await repo.update(body.id, {
          roleId: body.roleId,
          providerId: body.providerId,
          name: blank(body.name),
          phone: body.phone,
          email: blank(body.email),
          avatar: blank(body.avatar),
          stationIds,
        });
      } catch (err) {
        throw isUniqueViolation(err) ? phoneTaken(body.phone) : err;
      }
      // Its open event streams narrow (or widen) to the new provider and stations now, not at their next ping.
      events.publish({ type: SCOPE_CHANGED, userId: body.id, payload: {} });
      return reread(p, body.id);
    },
    async status({ body, ctx, audit }) {
      const p = ctx.principal;
      await mustManage(p, body.id, audit);
      if (body.status === 0 && body.id === p.userId) throw locked('errors.systemUser.disableSelf');
      await repo.update(body.id, { status: body.status });
      if (body.status === 0) await sessions.revokeUser(body.id);
      return reread(p, body.id);
    },
    async resetPwd({ body, ctx, audit }) {
      await mustManage(ctx.principal, body.id, audit);
      passwords.check(ctx.lang, 'systemUser', 'password', body.password);
      await repo.update(body.id, { passwordHash: await hashPassword(body.password) });
      await sessions.revokeUser(body.id);
      return null;
    },
    async remove({ body, ctx, audit }) {
      const p = ctx.principal;
      const found = await repo.visible(p, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `systemUser:${found.map((u) => u.username).join(',')}`.slice(0, 255);
      if (found.some((u) => u.id === p.userId)) throw locked('errors.systemUser.deleteSelf');
      // The built-in admin is not among them: only it could delete itself, and nobody deletes itself.
      for (const u of found) {
        const refusal = userRefusal(p, u);
        if (refusal) throw refusal;
      }
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // Work orders keep who opened and who served them: such a user is disabled, not deleted.
        if (isForeignKeyViolation(err)) throw conflict('errors.systemUser.inUse', { name: found.map((u) => u.username).join(', ') });
        throw err;
      }
    },
    // The console's early checks learn only about the caller's providers; saving still refuses a value taken anywhere.
    async usernameExists({ query, ctx }) {
      return repo.usernameTaken(query.userName, ctx.principal);
    },
    async phoneExists({ query, ctx }) {
      return repo.phoneTaken(query.phoneNumber, { scope: ctx.principal });
    },
    async stationIds({ query, ctx }) {
      // With a name: the stations of that name the caller may bind; without: the caller's own binding.
      const own = ctx.principal.stationIds;
      const named = query.stationName ? (await stations.options(ctx.principal, { stationName: query.stationName })).map((s) => s.id) : null;
      return { stationIds: named ?? own ?? [], unrestricted: own === null };
    },
    async chargeUserRel({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustManage(p, body.id, audit);
      if (body.isChargeUser && !current.phone) throw conflict('errors.systemUser.noPhone', { name: current.username });
      // The link enables or disables the provider's charge user with the same phone. A phone is anyone's to
      // type (one's own profile), so reaching a charge user that exists needs the right to change its status.
      const existing = current.phone ? await repo.chargeUserByPhone(current.providerId, current.phone) : undefined;
      if (existing && !(checkRole([p.roleKey], 'admin') || checkPermi(p.permissions, 'user:chargeUser:status')))
        throw new AppError(Code.FORBIDDEN, 'errors.systemUser.chargeUserStatusNeeded', {
          name: current.username,
          account: existing.account,
        });
      await repo.setChargeUser(body.id, body.isChargeUser);
      return reread(p, body.id);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<UserRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'username' },
        { key: 'name' },
        { key: 'phone' },
        { key: 'email' },
        { key: 'roleName' },
        { key: 'providerName' },
        { key: 'status', value: (r) => translate(ctx.lang, `enums.userStatus.${r.status}`) },
        { key: 'lastLoginTime', value: (r) => r.lastLoginAt?.toISOString() ?? null },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'systemUser',
        fileBase: 'systemUser',
        format,
        columns: await columns.columnsFor('systemUser', defaults, ctx),
        total: await repo.count(p, filter as never),
        batches: keysetBatches((after, size) => repo.page(p, filter as never, after, size)) as AsyncIterable<
          (UserRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
