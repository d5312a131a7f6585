import { ADMIN_ROLE, allMenuPaths, allPermissions, Code, type roleApi, type RoleDto } from '@csms/contract';
import type { Principal } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { AuditNote, Handlers } from '../../http/mount.js';
import { assertCovers } from '../../lib/grants.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import type { RoleRepo } from './role.repo.js';

type RoleInput = {
  roleKey: string;
  rolePaths: string[];
  permissions: string[];
  orgId?: number | null | undefined;
  parentId?: number | null | undefined;
};

const adminLocked = () => new AppError(Code.CONFLICT, 'errors.role.adminLocked');

type RoleBody = {
  orgId?: number | null;
  parentId?: number | null;
  roleName: string;
  roleKey: string;
  description?: string;
  rolePaths: string[];
  permissions: string[];
};

/** Row columns shared by create and edit. */
const columns = (body: RoleBody, providerId: number) => ({
  providerId,
  orgId: body.orgId ?? null,
  parentId: body.parentId ?? null,
  roleName: body.roleName,
  roleKey: body.roleKey,
  description: body.description || null,
});

const grants = (body: RoleBody) => ({ rolePaths: [...new Set(body.rolePaths)], permissions: [...new Set(body.permissions)] });

export function roleRoutes({ repo }: { repo: RoleRepo }): Handlers<typeof roleApi> {
  const keyTaken = (key: string) => conflict('errors.role.keyTaken', { key }, 'roleKey');

  /** Paths from the menu tree and permissions from the catalogue only; nobody grants more than it holds (DESIGN.md §5). */
  function checkGrants(p: Principal, body: RoleInput) {
    const badPath = body.rolePaths.find((x) => !allMenuPaths.includes(x));
    if (badPath) throw badField('rolePaths', 'errors.role.badPath', { path: badPath });
    const badPermi = body.permissions.find((x) => !allPermissions.includes(x));
    if (badPermi) throw badField('permissions', 'errors.role.badPermission', { permission: badPermi });
    assertCovers(p, body, 'errors.role.notGrantable');
  }
  /** A role the caller may see (else 404) and change: one that grants no more than it holds (else 403). */
  async function mustManage(p: Principal, id: number, audit: AuditNote): Promise<RoleDto> {
    const current = await repo.get(p, id);
    if (!current) throw notFound();
    audit.operand = `role:${current.roleKey}`;
    assertCovers(p, current, 'errors.role.notManageable', { name: current.roleName });
    return current;
  }

  /** Organisation and parent role must be visible; the role belongs to the organisation's provider. */
  async function refs(p: Principal, body: RoleInput, selfId?: number) {
    let providerId: number | undefined;
    if (body.orgId) {
      const org = await repo.org(p, body.orgId);
      if (!org) throw notFound();
      providerId = org.providerId;
    }
    if (body.parentId) {
      if (!(await repo.get(p, body.parentId))) throw notFound();
      if (selfId !== undefined && (await repo.ancestors(body.parentId)).includes(selfId)) {
        throw new AppError(Code.CONFLICT, 'errors.role.parentInvalid', {}, 'parentId');
      }
    }
    return providerId;
  }

  return {
    async list({ query, ctx }) {
      return repo.list(ctx.principal, { orgName: query.orgName, roleName: query.roleName }, query.page, query.limit);
    },
    async options({ query, ctx }) {
      return repo.options(ctx.principal, query.roleName, query.providerId, query);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `role:${body.roleKey}`;
      if (body.roleKey === ADMIN_ROLE || (await repo.keyTaken(body.roleKey))) throw keyTaken(body.roleKey);
      checkGrants(p, body);
      const providerId = (await refs(p, body)) ?? p.providerId;
      try {
        const id = await repo.insert({ ...columns(body, providerId), enabled: body.enabled ?? true, ...grants(body) });
        return (await repo.get(p, id))!;
      } catch (err) {
        throw isUniqueViolation(err) ? keyTaken(body.roleKey) : err;
      }
    },
    async permissions({ query, ctx }) {
      const r = await repo.get(ctx.principal, query.roleId);
      if (!r) throw notFound();
      return { roleId: r.id, rolePaths: r.rolePaths, permissions: r.permissions };
    },
    async stringPermission({ query, ctx }) {
      const r = await repo.get(ctx.principal, query.roleId);
      if (!r) throw notFound();
      return r.permissions;
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustManage(p, body.id, audit);
      const admin = current.roleKey === ADMIN_ROLE;
      if (admin && (body.roleKey !== ADMIN_ROLE || body.enabled === false)) throw adminLocked();
      if (!admin && body.roleKey !== current.roleKey && (body.roleKey === ADMIN_ROLE || (await repo.keyTaken(body.roleKey, body.id)))) {
        throw keyTaken(body.roleKey);
      }
      // The admin role holds everything by definition; its paths and permissions are not edited.
      if (!admin) checkGrants(p, body);
      const providerId = (await refs(p, body, body.id)) ?? current.providerId;
      try {
        await repo.update(body.id, {
          ...columns(body, providerId),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          ...(admin ? {} : grants(body)),
        });
      } catch (err) {
        throw isUniqueViolation(err) ? keyTaken(body.roleKey) : err;
      }
      return (await repo.get(p, body.id))!;
    },
    async status({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustManage(p, body.id, audit);
      if (current.roleKey === ADMIN_ROLE && !body.enabled) throw adminLocked();
      await repo.update(body.id, { enabled: body.enabled });
      return (await repo.get(p, body.id))!;
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `role:${found.map((r) => r.roleKey).join(',')}`.slice(0, 255);
      if (found.some((r) => r.roleKey === ADMIN_ROLE)) throw adminLocked();
      for (const r of found) assertCovers(ctx.principal, r, 'errors.role.notManageable', { name: r.roleName });
      const busy = found.find((r) => Number(r.memberCount) > 0);
      if (busy) throw conflict('errors.role.hasUsers', { name: busy.roleName, count: Number(busy.memberCount) });
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // A user joined the role between the check and the delete.
        if (isForeignKeyViolation(err)) throw conflict('errors.role.hasUsers', { name: found[0]!.roleName, count: 1 });
        throw err;
      }
    },
  };
}
