import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { role } from '../../db/schema.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

type Role = {
  id: number;
  roleName: string;
  roleKey: string;
  memberCount: number;
  enabled: boolean;
  rolePaths: string[];
  permissions: string[];
  orgName: string | null;
};
let seq = 0;
const body = (v: Record<string, unknown> = {}) => ({
  roleName: `Role ${++seq}`,
  roleKey: `role${seq}`,
  rolePaths: ['/systemManagement/userManage'],
  permissions: ['system:user:list'],
  ...v,
});
const create = (token: string, v: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
  s.call<Role>('POST', '/web/permissionManage/createRole', { token, body: body(v), lang });

describe('roles', () => {
  it('creates within an organisation, lists by organisation and reads permissions back', async () => {
    const org = await s.call<{ id: number }>('POST', '/web/organizationManage/createOrg', {
      token: admin,
      body: { orgName: 'Operations' },
    });
    const r = await create(admin, { roleName: 'Dispatcher', orgId: org.data.id, description: 'Night shift' });
    expect(r).toMatchObject({ code: 200, data: { roleName: 'Dispatcher', orgName: 'Operations', memberCount: 0, enabled: true } });
    const list = await s.call<{ list: Role[]; total: number }>(
      'GET',
      '/web/permissionManage/queryRolesByOrg?page=1&limit=10&orgName=oper',
      { token: admin },
    );
    expect(list.data).toMatchObject({ total: 1, list: [{ roleName: 'Dispatcher' }] });
    const perms = await s.call('GET', `/web/permissionManage/getRolePermissions?roleId=${r.data.id}`, { token: admin });
    expect(perms.data).toEqual({ roleId: r.data.id, rolePaths: ['/systemManagement/userManage'], permissions: ['system:user:list'] });
    expect((await s.call('GET', `/web/userManage/getStringPermission?roleId=${r.data.id}`, { token: admin })).data).toEqual([
      'system:user:list',
    ]);
    const options = await s.call<{ roleKey: string }[]>('GET', '/web/permissionManage/queryRoles', { token: admin });
    expect(options.data.map((o) => o.roleKey)).toContain(r.data.roleKey);
  });

  it('accepts only menu paths of the menu tree and permissions of the catalogue', async () => {
    expect(await create(admin, { rolePaths: ['/nowhere'] })).toMatchObject({
      code: 400,
      msg: 'Menu path "/nowhere" does not exist',
      data: { field: 'rolePaths' },
    });
    expect((await create(admin, { permissions: ['*:*:*'] }, 'zh')).msg).toBe('操作权限“*:*:*”不存在');
    expect(await create(admin, { roleKey: 'admin' })).toMatchObject({ code: 409, data: { field: 'roleKey' } });
  });

  it('refuses to delete a role with linked users, with the reason in both languages', async () => {
    const r = await create(admin, { roleName: 'Busy role' });
    await createUser(s.database.db, { providerId: 1, roleId: r.data.id });
    const en = await s.call('POST', '/web/permissionManage/deleteRole', { token: admin, body: { ids: [r.data.id] } });
    expect(en).toMatchObject({ code: 409, msg: 'Role "Busy role" is linked to 1 system users and cannot be deleted' });
    const zh = await s.call('POST', '/web/permissionManage/deleteRole', { token: admin, body: { ids: [r.data.id] }, lang: 'zh' });
    expect(zh.msg).toBe('角色“Busy role”已关联 1 个系统用户，不能删除');
    const free = await create(admin);
    expect((await s.call('POST', '/web/permissionManage/deleteRole', { token: admin, body: { ids: [free.data.id] } })).data).toEqual({
      removed: 1,
    });
  });

  it('keeps the admin role what it is', async () => {
    const del = await s.call('POST', '/web/permissionManage/deleteRole', { token: admin, body: { ids: [1] } });
    expect(del).toMatchObject({ code: 409, msg: 'The admin role cannot be deleted, disabled or given another key' });
    expect((await s.call('POST', '/web/permissionManage/updateRoleStatus', { token: admin, body: { id: 1, enabled: false } })).code).toBe(
      409,
    );
    const rekey = await s.call('POST', '/web/permissionManage/editRoleInfo', { token: admin, body: { ...body(), id: 1, roleKey: 'boss' } });
    expect(rekey.code).toBe(409);
    const renamed = await s.call<Role>('POST', '/web/permissionManage/editRoleInfo', {
      token: admin,
      body: { ...body(), id: 1, roleKey: 'admin', roleName: 'Super admin' },
    });
    expect(renamed.data).toMatchObject({ roleName: 'Super admin', roleKey: 'admin', permissions: ['*:*:*'] });
  });

  it('lets a non-admin grant only what it holds', async () => {
    const held = ['system:role:add', 'system:role:edit', 'system:role:query', 'system:user:list'];
    const op = await createOperator(s.database.db, {
      permissions: held,
      rolePaths: ['/systemManagement/userManage', '/systemManagement/permissionManage'],
    });
    const t = await s.login(op.user.username, op.user.password);
    expect((await create(t, { permissions: ['system:user:list'] })).code).toBe(200);
    const more = await create(t, { permissions: ['system:user:remove'] });
    expect(more).toMatchObject({ code: 403, msg: 'You cannot grant the operation permission "system:user:remove", which you do not hold' });
    expect((await create(t, { rolePaths: ['/financialManagement/financialStatistics'] })).code).toBe(403);
    // Its own role cannot be widened either.
    const widen = await s.call('POST', '/web/permissionManage/editRoleInfo', {
      token: t,
      body: { ...body(), id: op.role.id, roleKey: op.role.roleKey, permissions: [...held, 'system:user:remove'] },
    });
    expect(widen.code).toBe(403);
    const [still] = await s.database.db.select().from(role).where(eq(role.id, op.role.id));
    expect(still!.permissions).toEqual(held);
  });
});

describe('done means: a limited operator of a common provider', () => {
  it('sees only its menus and its provider, and the server refuses the rest', async () => {
    const provider = await s.call<{ id: number }>('POST', '/web/userManage/addProvider', {
      token: admin,
      body: {
        providerName: 'West Co',
        parentId: 1,
        expiration: 1,
        mailAccount: 'w@x.test',
        mailAuthCode: 'c',
        smtpAddress: 'smtp.west.test',
        smtpPort: 25,
      },
    });
    const paths = ['/systemManagement/userManage'];
    const granted = ['system:user:list', 'system:user:query', 'system:user:status'];
    const r = await create(admin, { roleName: 'West viewer', rolePaths: paths, permissions: granted });
    // The role belongs to the super provider here; an admin assigns it to the new provider's user.
    const u = await s.call<{ id: number }>('POST', '/web/userManage/addUser', {
      token: admin,
      body: { username: 'west-op', password: 'secret1', roleId: r.data.id, providerId: provider.data.id, phone: '13600000000' },
    });
    expect(u.code).toBe(200);
    const t = await s.login('west-op', 'secret1');
    const info = await s.call<{ rolePaths: string[]; permissions: string[]; providerName: string }>('POST', '/web/info', { token: t });
    expect(info.data).toMatchObject({ rolePaths: paths, permissions: granted, providerName: 'West Co' });

    const users = await s.call<{ list: { username: string }[] }>('GET', '/web/userManage/getAllUsers?page=1&limit=10', { token: t });
    expect(users.data.list.map((x) => x.username)).toEqual(['west-op']);
    expect((await s.call('GET', '/web/logs/getOperateLogs?page=1&limit=10', { token: t })).code).toBe(403);
    expect((await s.call('POST', '/web/userManage/deleteUser', { token: t, body: { ids: [1] } })).code).toBe(403);
    expect((await s.call('GET', '/web/permissionManage/queryRolesByOrg?page=1&limit=10', { token: t })).code).toBe(403);
    expect((await s.call('GET', '/web/userManage/getAllProviders', { token: t })).data).toEqual([
      expect.objectContaining({ providerName: 'West Co' }),
    ]);

    // Crafted requests naming the super provider's rows through routes the role does hold: nothing is found, nothing changes.
    const east = await s.call<{ id: number }>('POST', '/web/userManage/addUser', {
      token: admin,
      body: { username: 'east-op', password: 'secret1', roleId: r.data.id, providerId: 1, phone: '13600000001' },
    });
    expect(east.code).toBe(200);
    const filtered = await s.call<{ list: unknown[]; total: number }>('GET', '/web/userManage/getAllUsers?page=1&limit=10&providerId=1', {
      token: t,
    });
    expect(filtered).toMatchObject({ code: 200, data: { list: [], total: 0 } });
    const searched = await s.call('POST', '/web/userManage/searchSystemUser', {
      token: t,
      body: { page: 1, limit: 10, username: 'east-op' },
    });
    expect(searched).toMatchObject({ code: 200, data: { list: [], total: 0 } });
    const disable = await s.call('POST', '/web/userManage/updateSystemUserStatus', { token: t, body: { id: east.data.id, status: 0 } });
    expect(disable.code).toBe(404);
    expect((await s.call('POST', '/web/userManage/updateSystemUserStatus', { token: t, body: { id: 1, status: 0 } })).code).toBe(404);
    expect(await s.login('east-op', 'secret1')).toBeTruthy();
    // A route the role does not hold is refused whatever the id, its own provider's included.
    expect((await s.call('GET', `/web/getProvider?id=${provider.data.id}`, { token: t })).code).toBe(403);
    expect((await s.call('GET', '/web/getProvider?id=1', { token: t })).code).toBe(403);
  });
});
