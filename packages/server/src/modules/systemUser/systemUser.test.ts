import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { eq } from 'drizzle-orm';
import { chargeUser, station as stationTable } from '../../db/schema.js';

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
/** A station written to the database (the stations area's API is tested there). */
async function station(name: string, providerId = 1) {
  const [row] = await s.database.db
    .insert(stationTable)
    .values({ providerId, name, country: 'CN', address: 'x', longitude: 121, latitude: 31, timeZone: 'Asia/Shanghai' })
    .returning({ id: stationTable.id });
  return row!.id;
}
const phone = () => `1370000${String(++seq).padStart(4, '0')}`;
const add = (v: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
  s.call<User>('POST', '/web/userManage/addUser', {
    token: admin,
    lang,
    body: { username: `op${++seq}`, password: 'secret1', roleId: 1, providerId: 1, phone: phone(), name: 'Operator', ...v },
  });

describe('system users', () => {
  it('adds, lists, searches and edits without ever returning a password hash', async () => {
    const [st1, st2] = [await station('Alice one'), await station('Alice two')];
    const r = await add({ username: 'Alice', email: 'alice@example.test', stationIds: [st1, st2] });
    expect(r).toMatchObject({
      code: 200,
      data: {
        username: 'Alice',
        status: 1,
        roleName: 'Administrator',
        providerName: 'CSMS',
        stationIds: [st1, st2],
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
    expect(edited.data).toMatchObject({ phone: '13912345678', stationIds: [st1, st2] });
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

    // It is now a platform charge user of its provider, found by phone; unsetting disables it, setting again enables the same one.
    const linked = () => s.database.db.select().from(chargeUser).where(eq(chargeUser.phone, r.data.phone!));
    expect(await linked()).toMatchObject([{ userType: 'platform', status: 1, account: r.data.username }]);
    const off = await s.call<User>('POST', '/web/userManage/systemUserChargeUserRel', {
      token: admin,
      body: { id: u.data.id, isChargeUser: false },
    });
    expect(off.data.isChargeUser).toBe(false);
    expect(await linked()).toMatchObject([{ status: 0 }]);
    await s.call('POST', '/web/userManage/systemUserChargeUserRel', { token: admin, body: { id: u.data.id, isChargeUser: true } });
    expect(await linked()).toMatchObject([{ status: 1 }]);
  });

  it('answers the bound stations of the caller, or the stations of a name', async () => {
    expect((await s.call('GET', '/web/userManage/getUserPcaIds', { token: admin })).data).toEqual({ stationIds: [], unrestricted: true });
    const id = await station('Pca lookup');
    expect((await s.call('GET', '/web/userManage/getUserPcaIds?stationName=pca%20look', { token: admin })).data).toEqual({
      stationIds: [id],
      unrestricted: true,
    });
  });

  it("binds only stations the caller can see: another provider's station does not exist", async () => {
    const other = await createOperator(s.database.db, { permissions: ['system:user:add', 'system:user:edit'] });
    const theirs = await station('Theirs', other.providerId);
    const mine = await station('Mine');
    const t = await s.login(other.user.username, other.user.password);
    const body = { username: `op${++seq}`, password: 'secret1', roleId: other.role.id, providerId: other.providerId, phone: phone() };
    expect((await s.call('POST', '/web/userManage/addUser', { token: t, body: { ...body, stationIds: [mine] } })).code).toBe(404);
    expect(
      (await s.call<User>('POST', '/web/userManage/addUser', { token: t, body: { ...body, stationIds: [theirs, theirs] } })).data
        .stationIds,
    ).toEqual([theirs]);
    expect((await add({ stationIds: [999_999] })).code).toBe(404);
  });

  it("binds a user only to its own provider's stations, also when its provider changes", async () => {
    const east = await createOperator(s.database.db);
    const eastStation = await station('East depot', east.providerId);
    const home = await station('Home depot');
    const body = { username: `op${++seq}`, password: 'secret1', roleId: east.role.id, providerId: east.providerId, phone: phone() };
    const wrong = await s.call('POST', '/web/userManage/addUser', { token: admin, body: { ...body, stationIds: [home] } });
    expect(wrong).toMatchObject({ code: 400, data: { field: 'stationIds' }, msg: expect.stringContaining('Home depot') });
    const zh = await s.call('POST', '/web/userManage/addUser', { token: admin, body: { ...body, stationIds: [home] }, lang: 'zh' });
    expect(zh.msg).toMatch(/^绑定场站必须属于该用户所属的运营商/);
    expect(
      (await s.call<User>('POST', '/web/userManage/addUser', { token: admin, body: { ...body, stationIds: [eastStation] } })).data
        .stationIds,
    ).toEqual([eastStation]);
    // A super provider's user bound to its own station moves to East without rebinding: it would see nothing.
    const u = await add({ stationIds: [home] });
    const edit = { id: u.data.id, roleId: east.role.id, phone: u.data.phone };
    const moved = await s.call('POST', '/web/userManage/editUserInfo', { token: admin, body: { ...edit, providerId: east.providerId } });
    expect(moved).toMatchObject({ code: 400, data: { field: 'stationIds' } });
    const rebound = await s.call<User>('POST', '/web/userManage/editUserInfo', {
      token: admin,
      body: { ...edit, providerId: east.providerId, stationIds: [eastStation] },
    });
    expect(rebound).toMatchObject({ code: 200, data: { providerName: expect.any(String), stationIds: [eastStation] } });
  });

  it("narrows the user's open event stream at once when its bound stations are edited", async () => {
    const [kept, dropped] = [await station('Kept depot'), await station('Dropped depot')];
    const u = await add({ username: `live${++seq}`, stationIds: [kept, dropped] });
    const token = await s.login(u.data.username, 'secret1');
    const controller = new AbortController();
    // Closed also when an assertion fails, or the server's shutdown would wait for the open stream.
    onTestFinished(() => controller.abort());
    const res = await fetch(`${s.url}/prod-api/web/events`, { headers: { cookie: `Admin-Token=${token}` }, signal: controller.signal });
    const reader = res.body!.getReader();
    let seen = '';
    const until = async (text: string) => {
      while (!seen.includes(text)) seen += new TextDecoder().decode((await reader.read()).value);
    };
    await until('retry:');
    const fault = (stationId: number, tag: string) =>
      s.app.events.publish({ type: 'point.fault', providerId: 1, stationId, payload: { tag } });
    fault(dropped, 'before');
    await until('"tag":"before"');

    const edited = await s.call('POST', '/web/userManage/editUserInfo', {
      token: admin,
      body: { id: u.data.id, roleId: 1, providerId: 1, phone: u.data.phone, stationIds: [kept] },
    });
    expect(edited.code).toBe(200);
    // The stream re-reads its scope on the edit's signal, asynchronously: until it has, the dropped station's
    // events still come. Probe until one is left out (each probe is followed by a kept one, so the stream
    // has had its chance to deliver it). "At once" means before the stream's next keep-alive ping (25 s),
    // which re-reads the scope too: a stream that narrows only then fails here.
    for (let round = 0; ; round++) {
      const from = seen.length;
      fault(dropped, `probe-${round}`);
      fault(kept, `mark-${round}`);
      await until(`"tag":"mark-${round}"`);
      expect(seen, 'narrowed only by the keep-alive ping').not.toContain(': ping');
      if (!seen.slice(from).includes(`"tag":"probe-${round}"`)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    fault(dropped, 'after');
    fault(kept, 'kept');
    await until('"tag":"kept"');
    expect(seen).not.toContain('"tag":"after"');
    controller.abort();
  });
});
