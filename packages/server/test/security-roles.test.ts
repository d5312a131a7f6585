import { allMenuPaths, allPermissions } from '@csms/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeUser, role as roleTable, systemLog, systemUser } from '../src/db/schema.js';
import { insertStation } from '../src/modules/monitor/monitor.fixtures.js';
import { createOperator, createProvider, createRole, createUser } from './fixtures.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness.js';

/**
 * DESIGN.md §5 "nobody hands out more than they hold", tried as an attacker would (issue 12,
 * items 1 and 9): user managers who are not administrators, of the super provider and of a
 * tenant, try to make administrators, take over accounts above them and learn about other tenants.
 */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

const USER_PERMISSIONS = allPermissions.filter((x) => x.startsWith('system:user:'));
const ROLE_PERMISSIONS = allPermissions.filter((x) => x.startsWith('system:role:'));
let seq = 0;
const phone = () => `1590000${String(++seq).padStart(4, '0')}`;
const db = () => s.database.db;

type Row = { id: number; username: string; manageable: boolean };
async function signIn(u: { username: string; password: string }) {
  return s.login(u.username, u.password);
}
const post = <T = unknown>(token: string, path: string, body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<T>('POST', path, { token, body, lang });
const canSignIn = async (username: string, password: string) =>
  (await s.call('POST', '/web/login', { body: { username, password } })).code === 200;
const userNamed = async (username: string) => (await db().select().from(systemUser).where(eq(systemUser.username, username)))[0];

/** The system-log rows of refused calls by `operator` on `path`. */
const refusals = (operator: string, path: string) =>
  db()
    .select({ result: systemLog.result, msg: systemLog.msg, operand: systemLog.operand })
    .from(systemLog)
    .where(and(eq(systemLog.operator, operator), eq(systemLog.path, path), eq(systemLog.result, 403)));

describe('a super-provider user manager who is not an administrator', () => {
  let mgr: Awaited<ReturnType<typeof createOperator>>;
  let token: string;
  beforeAll(async () => {
    mgr = await createOperator(db(), { providerId: 1, permissions: USER_PERMISSIONS, rolePaths: ['/systemManagement/userManage'] });
    token = await signIn(mgr.user);
  });

  it('cannot create an administrator (addUser with the admin role)', async () => {
    const body = { username: `boss${++seq}`, password: 'boss-pass-1', roleId: 1, providerId: 1, phone: phone() };
    const en = await post(token, '/web/userManage/addUser', body);
    expect(en).toMatchObject({
      code: 403,
      msg: 'You can only assign a role that grants no more than you hold: role "Administrator" has the operation permission "*:*:*", which you do not hold',
    });
    const zh = await post(token, '/web/userManage/addUser', body, 'zh');
    expect(zh).toMatchObject({ code: 403, msg: '只能分配不超出您自身权限的角色：角色“Administrator”含有您没有的操作权限“*:*:*”' });
    expect(await userNamed(body.username)).toBeUndefined();
    expect(await canSignIn(body.username, body.password)).toBe(false);
    // Refusals are in the system log, under the caller's name.
    expect(await refusals(mgr.user.username, '/web/userManage/addUser')).toHaveLength(2);
  });

  it("cannot reset the built-in admin's password, nor change it in any other way", async () => {
    const reset = await post(token, '/web/userManage/resetUserPwd', { id: 1, password: 'taken-over-1' });
    expect(reset).toMatchObject({ code: 403, msg: 'Only the built-in admin account can change itself' });
    expect((await post(token, '/web/userManage/resetUserPwd', { id: 1, password: 'taken-over-1' }, 'zh')).msg).toBe(
      '内置管理员账号 admin 只能由其本人修改',
    );
    expect(await canSignIn('admin', 'taken-over-1')).toBe(false);
    expect(await canSignIn('admin', ADMIN_PASSWORD)).toBe(true);

    const before = await userNamed('admin');
    const attempts: [string, unknown][] = [
      ['/web/userManage/editUserInfo', { id: 1, roleId: 1, providerId: 1, phone: phone(), name: 'Owned' }],
      ['/web/userManage/updateSystemUserStatus', { id: 1, status: 0 }],
      ['/web/userManage/systemUserChargeUserRel', { id: 1, isChargeUser: true }],
      ['/web/userManage/deleteUser', { ids: [1] }],
    ];
    for (const [path, body] of attempts) expect((await post(token, path, body)).code, path).toBe(403);
    expect(await userNamed('admin')).toEqual(before);
    expect(await refusals(mgr.user.username, '/web/userManage/resetUserPwd')).toHaveLength(2);
  });

  it('still manages users whose role grants no more than it holds', async () => {
    const viewer = await createRole(db(), {
      providerId: 1,
      permissions: ['system:user:list'],
      rolePaths: ['/systemManagement/userManage'],
    });
    const body = { username: `clerk${++seq}`, password: 'clerk-pass-1', roleId: viewer.id, providerId: 1, phone: phone() };
    const added = await post<{ id: number }>(token, '/web/userManage/addUser', body);
    expect(added.code).toBe(200);
    expect((await post(token, '/web/userManage/resetUserPwd', { id: added.data.id, password: 'clerk-pass-2' })).code).toBe(200);
    expect(await canSignIn(body.username, 'clerk-pass-2')).toBe(true);
    // Its own role is no more than it holds: a peer with the same role is manageable too.
    const peer = await post<{ id: number }>(token, '/web/userManage/addUser', {
      ...body,
      username: `peer${++seq}`,
      roleId: mgr.role.id,
      phone: phone(),
    });
    expect(peer.code).toBe(200);
  });
});

describe("a tenant's user manager", () => {
  let tenant: { id: number };
  let full: { id: number; roleName: string };
  let lesser: { id: number };
  let owner: Awaited<ReturnType<typeof createUser>>;
  let mgr: Awaited<ReturnType<typeof createUser>>;
  let mgrRole: { id: number };
  let token: string;
  beforeAll(async () => {
    tenant = await createProvider(db());
    full = await createRole(db(), { providerId: tenant.id, permissions: allPermissions, rolePaths: allMenuPaths });
    mgrRole = await createRole(db(), {
      providerId: tenant.id,
      permissions: [...USER_PERMISSIONS, ...ROLE_PERMISSIONS],
      rolePaths: ['/systemManagement/userManage', '/systemManagement/permissionManage'],
    });
    lesser = await createRole(db(), {
      providerId: tenant.id,
      permissions: ['system:user:list'],
      rolePaths: ['/systemManagement/userManage'],
    });
    owner = await createUser(db(), { providerId: tenant.id, roleId: full.id, password: 'owner-pass-1' });
    mgr = await createUser(db(), { providerId: tenant.id, roleId: mgrRole.id, password: 'mgr-pass-1' });
    token = await signIn(mgr);
  });

  it("cannot assign the tenant's full role, on a new user or an existing one", async () => {
    const body = { username: `t-boss${++seq}`, password: 'boss-pass-1', roleId: full.id, providerId: tenant.id, phone: phone() };
    const r = await post(token, '/web/userManage/addUser', body);
    expect(r.code).toBe(403);
    expect(r.msg).toMatch(
      /^You can only assign a role that grants no more than you hold: role ".+" has the operation permission ".+", which you do not hold$/,
    );
    expect(await userNamed(body.username)).toBeUndefined();

    const clerk = await createUser(db(), { providerId: tenant.id, roleId: lesser.id, phone: phone() });
    const promote = await post(token, '/web/userManage/editUserInfo', {
      id: clerk.id,
      roleId: full.id,
      providerId: tenant.id,
      phone: clerk.phone,
    });
    expect(promote.code).toBe(403);
    expect((await userNamed(clerk.username))!.roleId).toBe(lesser.id);
  });

  it("cannot reset the tenant owner's password, edit, disable or delete the owner", async () => {
    const reset = await post(token, '/web/userManage/resetUserPwd', { id: owner.id, password: 'taken-over-1' });
    expect(reset).toMatchObject({ code: 403 });
    expect(reset.msg).toMatch(/^You can only manage users whose role grants no more than you hold: user ".+" has the operation permission/);
    const zh = await post(token, '/web/userManage/resetUserPwd', { id: owner.id, password: 'taken-over-1' }, 'zh');
    expect(zh.msg).toMatch(/^只能管理角色权限不超出您自身权限的用户：用户“.+”拥有您没有的操作权限/);
    expect(await canSignIn(owner.username, 'taken-over-1')).toBe(false);
    expect(await canSignIn(owner.username, owner.password)).toBe(true);

    const before = await userNamed(owner.username);
    const attempts: [string, unknown][] = [
      ['/web/userManage/editUserInfo', { id: owner.id, roleId: full.id, providerId: tenant.id, phone: phone(), name: 'Owned' }],
      ['/web/userManage/updateSystemUserStatus', { id: owner.id, status: 0 }],
      ['/web/userManage/systemUserChargeUserRel', { id: owner.id, isChargeUser: true }],
      ['/web/userManage/deleteUser', { ids: [owner.id] }],
    ];
    for (const [path, body] of attempts) expect((await post(token, path, body)).code, path).toBe(403);
    expect(await userNamed(owner.username)).toEqual(before);
  });

  it('bound to stations, cannot take over a colleague who sees more stations, by reset, edit, status or link', async () => {
    const [s1, s2] = [await insertStation(db(), tenant.id), await insertStation(db(), tenant.id)];
    const bound = await createUser(db(), { providerId: tenant.id, roleId: mgrRole.id, password: 'bound-pass-1', stationIds: [s1.id] });
    const tb = await signIn(bound);
    const everywhere = await createUser(db(), { providerId: tenant.id, roleId: lesser.id, phone: phone(), password: 'all-pass-1' });
    const elsewhere = await createUser(db(), { providerId: tenant.id, roleId: lesser.id, phone: phone(), stationIds: [s1.id, s2.id] });
    const same = await createUser(db(), { providerId: tenant.id, roleId: lesser.id, phone: phone(), stationIds: [s1.id] });
    const reset = await post(tb, '/web/userManage/resetUserPwd', { id: everywhere.id, password: 'taken-over-1' }, 'zh');
    expect(reset).toMatchObject({
      code: 403,
      msg: `只能管理可见场站不超出您绑定场站的用户：用户“${everywhere.username}”可见您未绑定的场站`,
    });
    expect(await canSignIn(everywhere.username, 'taken-over-1')).toBe(false);
    for (const target of [everywhere, elsewhere]) {
      const before = await userNamed(target.username);
      const attempts: [string, unknown][] = [
        ['/web/userManage/resetUserPwd', { id: target.id, password: 'taken-over-1' }],
        ['/web/userManage/editUserInfo', { id: target.id, roleId: mgrRole.id, providerId: tenant.id, phone: target.phone }],
        ['/web/userManage/updateSystemUserStatus', { id: target.id, status: 0 }],
        ['/web/userManage/systemUserChargeUserRel', { id: target.id, isChargeUser: true }],
        ['/web/userManage/deleteUser', { ids: [target.id] }],
      ];
      for (const [path, body] of attempts) expect((await post(tb, path, body)).code, path).toBe(403);
      expect(await userNamed(target.username)).toEqual(before);
    }
    // A colleague bound within the caller's stations is the caller's to manage, and the list says which are.
    expect((await post(tb, '/web/userManage/resetUserPwd', { id: same.id, password: 'reset-by-1' })).code).toBe(200);
    const list = await s.call<{ list: Row[] }>('GET', '/web/userManage/getAllUsers?page=1&limit=50', { token: tb });
    const flag = (id: number) => list.data.list.find((u) => u.id === id)?.manageable;
    expect([flag(everywhere.id), flag(elsewhere.id), flag(same.id)]).toEqual([false, false, true]);
  });

  it("cannot enable or disable a driver by taking the driver's phone and setting itself as charging user", async () => {
    const driverPhone = phone();
    const [driver] = await db()
      .insert(chargeUser)
      .values({ providerId: tenant.id, account: `driver${++seq}`, phone: driverPhone, userType: 'card', status: 0 })
      .returning();
    // The phone is anyone's to type on their own profile.
    await db().update(systemUser).set({ phone: driverPhone }).where(eq(systemUser.id, mgr.id));
    const link = await post(token, '/web/userManage/systemUserChargeUserRel', { id: mgr.id, isChargeUser: true });
    expect(link).toMatchObject({ code: 403 });
    expect(link.msg).toContain(`enables or disables the charge user ${driver!.account} with the same phone`);
    const [after] = await db().select().from(chargeUser).where(eq(chargeUser.id, driver!.id));
    expect(after!.status).toBe(0);
    // The administrator, who may change charge users' status, links them.
    expect((await post(admin, '/web/userManage/systemUserChargeUserRel', { id: mgr.id, isChargeUser: true })).code).toBe(200);
    expect((await db().select().from(chargeUser).where(eq(chargeUser.id, driver!.id)))[0]!.status).toBe(1);
  });

  it('sees which users it may manage and which roles it may assign', async () => {
    const clerk = await createUser(db(), { providerId: tenant.id, roleId: lesser.id });
    const list = await s.call<{ list: Row[] }>('GET', '/web/userManage/getAllUsers?page=1&limit=50', { token });
    const flag = (id: number) => list.data.list.find((u) => u.id === id)?.manageable;
    expect([flag(owner.id), flag(mgr.id), flag(clerk.id)]).toEqual([false, true, true]);
    const roles = await s.call<{ id: number; assignable: boolean }[]>('GET', '/web/permissionManage/queryRoles', { token });
    const assignable = (id: number) => roles.data.find((r) => r.id === id)?.assignable;
    expect([assignable(full.id), assignable(mgrRole.id), assignable(lesser.id)]).toEqual([false, true, true]);
    // The administrator manages everyone but the built-in admin, which only it manages.
    const all = await s.call<{ list: Row[] }>('GET', '/web/userManage/getAllUsers?page=1&limit=50', { token: admin });
    expect(all.data.list.every((u) => u.manageable)).toBe(true);
  });

  it('cannot edit, disable or delete a role that grants more than it holds', async () => {
    const before = (await db().select().from(roleTable).where(eq(roleTable.id, full.id)))[0]!;
    const edit = await post(token, '/web/permissionManage/editRoleInfo', {
      id: full.id,
      roleName: 'Renamed',
      roleKey: before.roleKey,
      rolePaths: ['/systemManagement/userManage'],
      permissions: ['system:user:list'],
    });
    expect(edit.code).toBe(403);
    expect(edit.msg).toMatch(/^You can only change a role that grants no more than you hold: role ".+" has the operation permission/);
    expect((await post(token, '/web/permissionManage/updateRoleStatus', { id: full.id, enabled: false })).code).toBe(403);
    expect((await post(token, '/web/permissionManage/deleteRole', { ids: [full.id] })).code).toBe(403);
    expect((await db().select().from(roleTable).where(eq(roleTable.id, full.id)))[0]).toEqual(before);

    // A role it covers it edits, within what it holds.
    const mine = await createRole(db(), {
      providerId: tenant.id,
      permissions: ['system:user:list'],
      rolePaths: ['/systemManagement/userManage'],
    });
    const ok = await post(token, '/web/permissionManage/editRoleInfo', {
      id: mine.id,
      roleName: 'Clerks',
      roleKey: mine.roleKey,
      rolePaths: ['/systemManagement/userManage'],
      permissions: ['system:user:list', 'system:user:query'],
    });
    expect(ok.code).toBe(200);
  });

  it('cannot keep, on a role it edits, permissions it does not hold', async () => {
    // Made by an administrator: a card permission the manager does not hold.
    const cards = await createRole(db(), {
      providerId: tenant.id,
      permissions: ['user:card:list'],
      rolePaths: ['/userManagement/cardManage'],
    });
    const r = await post(token, '/web/permissionManage/editRoleInfo', {
      id: cards.id,
      roleName: 'Card clerks',
      roleKey: cards.roleKey,
      rolePaths: ['/userManagement/cardManage'],
      permissions: ['user:card:list'],
    });
    expect(r.code).toBe(403);
  });
});

describe('the built-in admin', () => {
  it('is changed only by itself, not by another administrator', async () => {
    const other = await createUser(db(), { providerId: 1, roleId: 1, password: 'second-admin-1', phone: phone() });
    const t = await signIn(other);
    expect((await post(t, '/web/userManage/resetUserPwd', { id: 1, password: 'taken-over-1' })).code).toBe(403);
    expect((await post(t, '/web/userManage/editUserInfo', { id: 1, roleId: 1, providerId: 1, phone: phone() })).code).toBe(403);
    expect(await canSignIn('admin', ADMIN_PASSWORD)).toBe(true);
    // Another administrator still manages everyone else, and the admin edits itself.
    const clerk = await createUser(db(), { providerId: 1, roleId: other.roleId });
    expect((await post(t, '/web/userManage/resetUserPwd', { id: clerk.id, password: 'clerk-pass-3' })).code).toBe(200);
    const self = await post<{ name: string }>(admin, '/web/userManage/editUserInfo', {
      id: 1,
      roleId: 1,
      providerId: 1,
      phone: phone(),
      name: 'Root',
    });
    expect(self).toMatchObject({ code: 200, data: { name: 'Root' } });
  });
});

describe('less to learn about other tenants (issue 12, item 9)', () => {
  it('lists charge users only to callers with a charge-user permission', async () => {
    const p = await createProvider(db());
    await db()
      .insert(chargeUser)
      .values({ providerId: p.id, account: `driver${++seq}`, phone: phone(), userType: 'card' });
    const monitorOnly = await createOperator(db(), {
      providerId: p.id,
      permissions: ['monitor:charging:list'],
      rolePaths: ['/realTimeMonitor/charging'],
    });
    const t = await signIn(monitorOnly.user);
    expect((await s.call('GET', '/web/chargeUser/options', { token: t })).code).toBe(403);
    // Issuing cards picks their owner: that permission is enough.
    const issuer = await createOperator(db(), {
      providerId: p.id,
      permissions: ['user:card:add'],
      rolePaths: ['/userManagement/cardManage'],
    });
    const list = await s.call<unknown[]>('GET', '/web/chargeUser/options', { token: await signIn(issuer.user) });
    expect(list.code).toBe(200);
    expect(list.data).toHaveLength(1);
  });

  it("answers username and phone checks about the caller's providers only; saving still refuses a taken one", async () => {
    const p = await createProvider(db());
    const op = await createOperator(db(), { providerId: p.id, permissions: USER_PERMISSIONS, rolePaths: ['/systemManagement/userManage'] });
    const own = await createUser(db(), { providerId: p.id, roleId: op.role.id, phone: phone() });
    const elsewhere = await createUser(db(), { providerId: 1, roleId: 1, phone: phone() });
    const t = await signIn(op.user);
    const exists = async (token: string, q: string) => (await s.call<boolean>('GET', `/web/userManage/${q}`, { token })).data;

    expect(await exists(t, `isUserNameExisted?userName=${own.username}`)).toBe(true);
    expect(await exists(t, `isUserNameExisted?userName=${elsewhere.username}`)).toBe(false);
    expect(await exists(t, 'isUserNameExisted?userName=admin')).toBe(false);
    expect(await exists(admin, `isUserNameExisted?userName=${elsewhere.username}`)).toBe(true);
    expect(await exists(t, `isSysUserByPhoNumExisted?phoneNumber=${own.phone}`)).toBe(true);
    expect(await exists(t, `isSysUserByPhoNumExisted?phoneNumber=${elsewhere.phone}`)).toBe(false);
    expect(await exists(admin, `isSysUserByPhoNumExisted?phoneNumber=${elsewhere.phone}`)).toBe(true);

    // Uniqueness holds system-wide at save, without naming where the value is used.
    const base = { password: 'member-pass-1', roleId: op.role.id, providerId: p.id };
    const name = await post(t, '/web/userManage/addUser', { ...base, username: elsewhere.username, phone: phone() });
    expect(name).toMatchObject({ code: 409, msg: `Username "${elsewhere.username}" already exists`, data: { field: 'username' } });
    const tel = await post(t, '/web/userManage/addUser', { ...base, username: `member${++seq}`, phone: elsewhere.phone });
    expect(tel).toMatchObject({ code: 409, data: { field: 'phone' } });
    expect(tel.msg).not.toMatch(/CSMS|provider/i);
  });
});
