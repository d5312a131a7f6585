import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

type User = {
  id: number;
  username: string;
  phone: string | null;
  status: number;
  roleName: string;
  providerName: string;
  isChargeUser: boolean;
  lastLoginTime: string | null;
  stationIds: number[];
};
let seq = 0;
const phone = () => `1370000${String(++seq).padStart(4, '0')}`;
const add = (v: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
  s.call<User>('POST', '/web/userManage/addUser', {
    token: admin,
    lang,
    body: { username: `op${++seq}`, password: 'secret1', roleId: 1, providerId: 1, phone: phone(), name: 'Operator', ...v },
  });

describe('system users', () => {
  it('adds, lists, searches and edits without ever returning a password hash', async () => {
    const r = await add({ username: 'Alice', email: 'alice@example.test', stationIds: [3, 4] });
    expect(r).toMatchObject({
      code: 200,
      data: {
        username: 'Alice',
        status: 1,
        roleName: 'Administrator',
        providerName: 'CSMS',
        stationIds: [3, 4],
        isChargeUser: false,
        lastLoginTime: null,
      },
    });
    expect(JSON.stringify(r)).not.toMatch(/argon2|password/i);
    const list = await s.call<{ list: User[]; total: number }>('GET', '/web/userManage/getAllUsers?page=1&limit=10&username=ali', {
      token: admin,
    });
    expect(list.data).toMatchObject({ total: 1, list: [{ username: 'Alice' }] });
    expect(JSON.stringify(list)).not.toMatch(/argon2|passwordHash/);
    const search = await s.call<{ list: User[]; total: number }>('POST', '/web/userManage/searchSystemUser', {
      token: admin,
      body: { page: 1, limit: 10, phone: r.data.phone },
    });
    expect(search.data.total).toBe(1);
    const edited = await s.call<User>('POST', '/web/userManage/editUserInfo', {
      token: admin,
      body: { id: r.data.id, roleId: 1, providerId: 1, phone: '13912345678', name: 'Alice W' },
    });
    expect(edited.data).toMatchObject({ phone: '13912345678', stationIds: [3, 4] });
    expect((await add({ password: 'abcd' })).data).toEqual({ field: 'password' });
  });

  it('keeps usernames unique system-wide, case-insensitively, and phones unique', async () => {
    expect((await s.call('GET', '/web/userManage/isUserNameExisted?userName=ADMIN', { token: admin })).data).toBe(true);
    expect((await s.call('GET', '/web/userManage/isUserNameExisted?userName=nobody-here', { token: admin })).data).toBe(false);
    expect(await add({ username: 'aDmIn' })).toMatchObject({
      code: 409,
      msg: 'Username "aDmIn" already exists',
      data: { field: 'username' },
    });
    expect((await add({ username: 'aDmIn' }, 'zh')).msg).toBe('用户账号“aDmIn”已存在');
    const u = await add();
    expect((await s.call('GET', `/web/userManage/isSysUserByPhoNumExisted?phoneNumber=${u.data.phone}`, { token: admin })).data).toBe(true);
    expect(await add({ phone: u.data.phone })).toMatchObject({ code: 409, data: { field: 'phone' } });
  });

  it('disabling revokes sessions; the admin and yourself are protected', async () => {
    const u = await add({ username: 'bob' });
    const t = await s.login('bob', 'secret1');
    expect((await s.call('POST', '/web/info', { token: t })).code).toBe(200);
    expect(
      (await s.call<User>('POST', '/web/userManage/updateSystemUserStatus', { token: admin, body: { id: u.data.id, status: 0 } })).data
        .status,
    ).toBe(0);
    expect((await s.call('POST', '/web/info', { token: t })).code).toBe(401);
    expect((await s.call('POST', '/web/login', { body: { username: 'bob', password: 'secret1' } })).code).toBe(401);

    const self = await s.call('POST', '/web/userManage/updateSystemUserStatus', { token: admin, body: { id: 1, status: 0 } });
    expect(self).toMatchObject({ code: 409, msg: 'You cannot disable the account you are signed in with' });
    const del = await s.call('POST', '/web/userManage/deleteUser', { token: admin, body: { ids: [1] }, lang: 'zh' });
    expect(del).toMatchObject({ code: 409, msg: '不能删除当前登录的账号' });
    expect((await s.call('POST', '/web/userManage/deleteUser', { token: admin, body: { ids: [u.data.id] } })).data).toEqual({ removed: 1 });
  });

  it('resets a password: old sessions end, the new password signs in', async () => {
    const u = await add({ username: 'carol' });
    const t = await s.login('carol', 'secret1');
    expect(
      (await s.call('POST', '/web/userManage/resetUserPwd', { token: admin, body: { id: u.data.id, password: 'fresh-one' } })).code,
    ).toBe(200);
    expect((await s.call('POST', '/web/info', { token: t })).code).toBe(401);
    await s.login('carol', 'fresh-one');
    const listed = await s.call<{ list: User[] }>('GET', '/web/userManage/getAllUsers?page=1&limit=10&username=carol', { token: admin });
    expect(listed.data.list[0]!.lastLoginTime).not.toBeNull();
  });

  it('sets a charging user only when it has a phone', async () => {
    const noPhone = await s.call('POST', '/web/userManage/systemUserChargeUserRel', { token: admin, body: { id: 1 } });
    expect(noPhone).toMatchObject({ code: 409, msg: 'User "admin" has no mobile phone; add one before setting it as a charging user' });
    const u = await add();
    const r = await s.call<User>('POST', '/web/userManage/systemUserChargeUserRel', { token: admin, body: { id: u.data.id } });
    expect(r.data.isChargeUser).toBe(true);
  });

  it('answers the bound stations of the caller', async () => {
    expect((await s.call('GET', '/web/userManage/getUserPcaIds', { token: admin })).data).toEqual({ stationIds: [], unrestricted: true });
  });
});
