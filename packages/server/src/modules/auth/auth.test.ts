import { systemLog } from '../../db/schema.js';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createProvider, createRole, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const login = (body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<{ token?: string; systemUserStatus?: number } | null>('POST', '/web/login', { body, lang });

describe('sign-in outcomes (DESIGN.md §5)', () => {
  it('field missing: 400 naming the field, in both languages', async () => {
    const en = await login({ password: 'x' }, 'en');
    expect(en).toMatchObject({ code: 400, data: { field: 'username' } });
    expect(en.msg).toBe('Account is required');
    const zh = await login({ username: 'admin' }, 'zh');
    expect(zh).toMatchObject({ code: 400, data: { field: 'password' } });
    expect(zh.msg).toBe('请输入密码');
  });

  it('unknown user or wrong password: 401 with no data', async () => {
    for (const body of [
      { username: 'nobody', password: 'x' },
      { username: 'admin', password: 'wrong' },
    ]) {
      const r = await login(body);
      expect(r).toEqual({ code: 401, msg: 'Incorrect username or password', data: null });
    }
    expect((await login({ username: 'admin', password: 'wrong' }, 'zh')).msg).toBe('用户名或密码错误');
  });

  it('provider past its expiration: 200, systemUserStatus 0, no token', async () => {
    const p = await createProvider(s.database.db, { expiresAt: new Date(Date.now() - 60_000) });
    const r = await createRole(s.database.db, { providerId: p.id, rolePaths: ['/dashboard'] });
    const u = await createUser(s.database.db, { providerId: p.id, roleId: r.id });
    const res = await login({ username: u.username, password: u.password });
    expect(res).toEqual({
      code: 200,
      msg: 'Your back-office account has expired, please contact after-sales',
      data: { systemUserStatus: 0 },
    });
    expect((await login({ username: u.username, password: u.password }, 'zh')).msg).toBe('您的后台账号已过期，请联系售后');
  });

  it('user disabled: 401 with the disabled message', async () => {
    const op = await createOperator(s.database.db);
    await s.database.db
      .update((await import('../../db/schema.js')).systemUser)
      .set({ status: 0 })
      .where(eq((await import('../../db/schema.js')).systemUser.id, op.user.id));
    const r = await login({ username: op.user.username, password: op.user.password });
    expect(r).toEqual({ code: 401, msg: 'Account has been disabled, please contact the system administrator', data: null });
    expect(await login({ username: op.user.username, password: op.user.password }, 'zh')).toEqual({
      code: 401,
      msg: '账号已被停用，请联系系统管理员',
      data: null,
    });
  });

  it("user's role disabled: token, then rolePaths ['forbidden']", async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/systemManagement'], roleEnabled: false });
    const token = await s.login(op.user.username, op.user.password);
    const info = await s.call<{ rolePaths?: string[]; permissions: string[] }>('POST', '/web/info', { token });
    expect(info.code).toBe(200);
    expect(info.data.rolePaths).toEqual(['forbidden']);
    expect(info.data.permissions).toEqual([]);
  });

  it('role has no paths: token, then rolePaths missing', async () => {
    const op = await createOperator(s.database.db, { rolePaths: [] });
    const token = await s.login(op.user.username, op.user.password);
    const info = await s.call<Record<string, unknown>>('POST', '/web/info', { token });
    expect(info.code).toBe(200);
    expect(info.data).not.toHaveProperty('rolePaths');
  });

  it('success: token and status 1; info has roles, paths, permissions and provider fields', async () => {
    const res = await login({ username: ' admin ', password: 'admin123' });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ systemUserStatus: 1, token: expect.any(String) });
    // The token travels in the header, never in the URL (a `?token=` is not read: security-http.test.ts).
    const info = await s.call<Record<string, unknown>>('POST', '/web/info', { token: res.data!.token });
    expect(info.data).toMatchObject({
      roles: ['admin'],
      permissions: ['*:*:*'],
      providerName: 'CSMS',
      providerType: 'super',
      isShowProvider: true,
      user: { username: 'admin' },
    });
    expect(info.data.rolePaths).toContain('/systemManagement/organizationManage');
  });

  it('a common role sees its own paths and permissions', async () => {
    const op = await createOperator(s.database.db, {
      rolePaths: ['/systemManagement/organizationManage'],
      permissions: ['system:organization:list'],
    });
    const token = await s.login(op.user.username, op.user.password);
    const info = await s.call<Record<string, unknown>>('POST', '/web/info', { token });
    expect(info.data).toMatchObject({
      rolePaths: ['/systemManagement/organizationManage'],
      permissions: ['system:organization:list'],
      isShowProvider: false,
    });
  });

  it('isShowProvider: a common provider with sub-providers sees several, so its users get provider columns', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const token = await s.login(op.user.username, op.user.password);
    const alone = await s.call<Record<string, unknown>>('POST', '/web/info', { token });
    expect(alone.data).toMatchObject({ providerType: 'common', isShowProvider: false });
    await createProvider(s.database.db, { parentId: op.providerId });
    const again = await s.login(op.user.username, op.user.password);
    const info = await s.call<Record<string, unknown>>('POST', '/web/info', { token: again });
    expect(info.data).toMatchObject({ providerType: 'common', isShowProvider: true });
  });
});

describe('sessions', () => {
  it("info's last sign-in is the one before the current session", async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const first = await s.login(op.user.username, op.user.password);
    expect(
      (await s.call<{ user: { lastLoginTime: string | null } }>('POST', '/web/info', { token: first })).data.user.lastLoginTime,
    ).toBeNull();
    const second = await s.login(op.user.username, op.user.password);
    const { session } = await import('../../db/schema.js');
    const rows = await s.database.db.select().from(session).where(eq(session.userId, op.user.id)).orderBy(session.id);
    const info = await s.call<{ user: { lastLoginTime: string | null } }>('POST', '/web/info', { token: second });
    expect(info.data.user.lastLoginTime).toBe(rows[0]!.createdAt.toISOString());
  });

  it('logout revokes the token', async () => {
    const token = await s.login();
    expect((await s.call('POST', '/web/logout', { token })).code).toBe(200);
    expect((await s.call('POST', '/web/info', { token })).code).toBe(401);
  });

  it('a forged or missing token is 401 in the caller language', async () => {
    expect(await s.call('POST', '/web/info', { token: 'forged' })).toEqual({
      code: 401,
      msg: 'Your session is invalid or has expired, please sign in again',
      data: null,
    });
    expect((await s.call('POST', '/web/info', { lang: 'zh' })).msg).toBe('登录状态已过期，请重新登录');
  });

  it('an expired provider ends open sessions', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const token = await s.login(op.user.username, op.user.password);
    const { provider } = await import('../../db/schema.js');
    await s.database.db
      .update(provider)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(provider.id, op.providerId));
    expect((await s.call('POST', '/web/info', { token })).code).toBe(401);
  });
});

describe('password change', () => {
  it('checks the rules, then forces a new sign-in', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const token = await s.login(op.user.username, op.user.password);
    const other = await s.login(op.user.username, op.user.password);
    const edit = (body: unknown, lang: 'zh' | 'en' = 'en') => s.call<unknown>('POST', '/web/userManage/editUserPwd', { token, body, lang });

    expect(await edit({ oldPwd: op.user.password, newPwd: 'abc', confirmNewPwd: 'abc' })).toMatchObject({
      code: 400,
      data: { field: 'newPwd' },
      msg: 'New password must be at least 5 characters',
    });
    expect(await edit({ oldPwd: op.user.password, newPwd: 'abcde', confirmNewPwd: 'abcdf' }, 'zh')).toMatchObject({
      code: 400,
      data: { field: 'confirmNewPwd' },
      msg: '两次输入密码不一致!',
    });
    expect(await edit({ oldPwd: 'wrong-one', newPwd: 'abcde', confirmNewPwd: 'abcde' }, 'zh')).toMatchObject({
      code: 400,
      data: { field: 'oldPwd' },
      msg: '原密码错误，请重新输入',
    });

    expect(await edit({ oldPwd: op.user.password, newPwd: 'abcde', confirmNewPwd: 'abcde' })).toMatchObject({ code: 200, data: true });
    expect((await s.call('POST', '/web/info', { token })).code).toBe(401);
    expect((await s.call('POST', '/web/info', { token: other })).code).toBe(401);
    expect((await login({ username: op.user.username, password: op.user.password })).code).toBe(401);
    await s.login(op.user.username, 'abcde');
  });
});

describe('attempt limiting and audit', () => {
  it('locks an account after repeated failures, even for the right password', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    for (let i = 0; i < s.config.loginMaxAttempts; i++) await login({ username: op.user.username, password: 'bad' });
    const r = await login({ username: op.user.username, password: op.user.password });
    expect(r.code).toBe(401);
    expect(r.msg).toMatch(/Too many failed sign-ins, please try again in \d+ minutes/);
  });

  it('locks a client IP after repeated failures across accounts', async () => {
    const c = await startServer({ trustProxy: 1, loginMaxAttemptsPerIp: 3 });
    try {
      const from = (ip: string, body: unknown) => c.call('POST', '/web/login', { body, headers: { 'x-forwarded-for': ip } });
      for (const u of ['a1', 'a2', 'a3']) expect((await from('203.0.113.7', { username: u, password: 'x' })).code).toBe(401);
      const locked = await from('203.0.113.7', { username: 'admin', password: 'admin123' });
      expect(locked.msg).toMatch(/Too many failed sign-ins/);
      expect((await from('203.0.113.8', { username: 'admin', password: 'admin123' })).code).toBe(200);
    } finally {
      await c.close();
    }
  });

  it('writes one system-log row per sign-in attempt, with the password redacted', async () => {
    const before = (await s.database.db.select({ n: count() }).from(systemLog))[0]!.n;
    await login({ username: 'admin', password: 'nope' });
    await login({ username: 'admin', password: 'admin123' });
    const rows = await s.database.db.select().from(systemLog).where(eq(systemLog.operation, 'login'));
    expect(rows.length - 0).toBeGreaterThanOrEqual(2);
    const after = (await s.database.db.select({ n: count() }).from(systemLog))[0]!.n;
    expect(after - before).toBe(2);
    const last = rows.at(-1)!;
    expect(last).toMatchObject({ operator: 'admin', result: 200, mode: 'api' });
    expect(JSON.stringify(last.request)).not.toContain('admin123');
  });
});

describe('captcha', () => {
  it('is required when on, single-use, and checked case-insensitively', async () => {
    const c = await startServer({ captcha: true });
    try {
      const img = await c.call<never>('GET', '/captchaImage');
      expect(img).toMatchObject({ code: 200, captchaEnabled: true, uuid: expect.any(String), img: expect.any(String) });
      // A PNG in base64, as the console shows it (captcha-image.test.ts looks inside).
      expect(
        Buffer.from(img.img as string, 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(await c.call('POST', '/web/login', { body: { username: 'admin', password: 'admin123' } })).toMatchObject({
        code: 400,
        data: { field: 'code' },
      });
      const wrong = await c.call('POST', '/web/login', { body: { username: 'admin', password: 'admin123', code: 'zzzz', uuid: img.uuid } });
      expect(wrong).toMatchObject({ code: 400, data: { field: 'code' }, msg: 'The captcha is incorrect' });
      const img2 = await c.call<never>('GET', '/captchaImage');
      const wrongZh = await c.call('POST', '/web/login', {
        body: { username: 'admin', password: 'admin123', code: 'zzzz', uuid: img2.uuid },
        lang: 'zh',
      });
      expect(wrongZh).toMatchObject({ code: 400, data: { field: 'code' }, msg: '验证码错误' });
      // Used up by the wrong guess: the same uuid is now expired.
      const again = await c.call('POST', '/web/login', { body: { username: 'admin', password: 'admin123', code: 'zzzz', uuid: img.uuid } });
      expect(again).toMatchObject({ code: 400, msg: 'The captcha has expired, please refresh it' });
      const fresh = await c.call<never>('GET', '/captchaImage');
      const { captcha } = await import('../../db/schema.js');
      const [row] = await c.database.db
        .select()
        .from(captcha)
        .where(eq(captcha.uuid, fresh.uuid as string));
      const ok = await c.call<{ token: string }>('POST', '/web/login', {
        body: { username: 'admin', password: 'admin123', code: row!.answer.toUpperCase(), uuid: fresh.uuid },
      });
      expect(ok.code).toBe(200);
      expect(ok.data.token).toBeTruthy();
    } finally {
      await c.close();
    }
  });

  it('draws at most CSMS_CAPTCHA_MAX_PER_IP images per client address and minute', async () => {
    const c = await startServer({ captcha: true, captchaMaxPerIp: 2, trustProxy: 1 });
    try {
      const from = (ip: string, lang?: 'zh') => c.call<never>('GET', '/captchaImage', { headers: { 'x-forwarded-for': ip }, lang });
      expect((await from('203.0.113.7')).code).toBe(200);
      expect((await from('203.0.113.7')).code).toBe(200);
      expect(await from('203.0.113.7')).toMatchObject({
        code: 409,
        msg: 'Too many captcha requests from this address, please try again in 1 minutes',
      });
      expect(await from('203.0.113.7', 'zh')).toMatchObject({ code: 409, msg: '此地址获取验证码过于频繁，请 1 分钟后再试' });
      // Refused requests draw nothing and store nothing; another address is not affected.
      const { captcha } = await import('../../db/schema.js');
      expect((await c.database.db.select({ n: count() }).from(captcha))[0]!.n).toBe(2);
      expect((await from('203.0.113.8')).code).toBe(200);
    } finally {
      await c.close();
    }
  });

  it('says so when off', async () => {
    expect(await s.call('GET', '/captchaImage')).toEqual({ code: 200, msg: 'Success', captchaEnabled: false });
  });
});
