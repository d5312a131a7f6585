import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { systemUser } from '../src/db/schema.js';
import { createPasswordRule } from '../src/lib/password-rule.js';
import { createOperator } from './fixtures.js';
import { startServer, type TestServer } from './harness.js';

/**
 * Operators' passwords (issue 12, item 11): the spec's minimum of 5 by default, a length and
 * character classes an administrator can raise, and the most common passwords refused always.
 * Every refusal is a 400 naming the field and the rule, and changes nothing.
 */
let seq = 0;
const phone = () => `1580000${String(++seq).padStart(4, '0')}`;

async function harness(s: TestServer) {
  const admin = await s.login();
  const add = (password: string, lang: 'zh' | 'en' = 'en') =>
    s.call<{ id: number }>('POST', '/web/userManage/addUser', {
      token: admin,
      lang,
      body: { username: `pw${++seq}`, password, roleId: 1, providerId: 1, phone: phone() },
    });
  const reset = (id: number, password: string, lang: 'zh' | 'en' = 'en') =>
    s.call('POST', '/web/userManage/resetUserPwd', { token: admin, lang, body: { id, password } });
  /** A user of its own, signed in, changing its own password. */
  async function changeOwn(oldPwd: string, newPwd: string, lang: 'zh' | 'en' = 'en') {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'], permissions: [] });
    const token = await s.login(op.user.username, op.user.password);
    const r = await s.call('POST', '/web/userManage/editUserPwd', {
      token,
      lang,
      body: { oldPwd: oldPwd || op.user.password, newPwd, confirmNewPwd: newPwd },
    });
    return { r, op };
  }
  return { admin, add, reset, changeOwn };
}
const hashOf = async (s: TestServer, id: number) =>
  (await s.database.db.select({ h: systemUser.passwordHash }).from(systemUser).where(eq(systemUser.id, id)))[0]!.h;

describe('by default', () => {
  let s: TestServer;
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    s = await startServer();
    h = await harness(s);
  });
  afterAll(() => s.close());

  it('keeps the spec minimum of 5 characters and says so in the user info', async () => {
    expect(await h.add('abcd')).toMatchObject({ code: 400, msg: 'Password must be at least 5 characters', data: { field: 'password' } });
    expect((await h.add('abcde')).code).toBe(200);
    const info = await s.call<{ passwordPolicy: unknown }>('POST', '/web/info', { token: h.admin });
    expect(info.data.passwordPolicy).toEqual({ minLength: 5, classes: [], minClasses: 0 });
  });

  it('refuses the most common passwords, whatever their case, on every path that sets one', async () => {
    expect(await h.add('password')).toMatchObject({
      code: 400,
      msg: 'Password is one of the most commonly used passwords; choose another',
      data: { field: 'password' },
    });
    expect((await h.add('Password1', 'zh')).msg).toBe('密码是最常用的密码之一，请换一个');
    expect((await h.add('iloveyou')).code).toBe(400);

    const u = await h.add('fine-pass-1');
    const before = await hashOf(s, u.data.id);
    expect(await h.reset(u.data.id, '12345678')).toMatchObject({ code: 400, data: { field: 'password' } });
    expect(await hashOf(s, u.data.id)).toBe(before);

    const { r, op } = await h.changeOwn('', 'qwerty123', 'zh');
    expect(r).toMatchObject({ code: 400, msg: '新密码是最常用的密码之一，请换一个', data: { field: 'newPwd' } });
    expect(await s.login(op.user.username, op.user.password)).toBeTruthy();
  });
});

describe('with a raised rule', () => {
  let s: TestServer;
  let h: Awaited<ReturnType<typeof harness>>;
  const policy = { minLength: 10, classes: ['lower', 'upper', 'digit'] as const, minClasses: 3 };
  beforeAll(async () => {
    s = await startServer({ passwordPolicy: { ...policy, classes: [...policy.classes] } });
    h = await harness(s);
  });
  afterAll(() => s.close());

  it('refuses short passwords and missing classes when a user is added, naming the field and the rule', async () => {
    expect(await h.add('Abcdefgh1')).toMatchObject({
      code: 400,
      msg: 'Password must be at least 10 characters',
      data: { field: 'password' },
    });
    expect((await h.add('Abcdefgh1', 'zh')).msg).toBe('密码长度不能少于 10 个字符');
    expect(await h.add('abcdefghij1')).toMatchObject({
      code: 400,
      msg: 'Password must contain lower-case letters, upper-case letters, digits',
      data: { field: 'password' },
    });
    expect((await h.add('abcdefghij1', 'zh')).msg).toBe('密码必须包含小写字母、大写字母、数字');
    expect((await h.add('Abcdefghij1')).code).toBe(200);
  });

  it('applies to a reset and to changing one’s own password, changing nothing when refused', async () => {
    const u = await h.add('Abcdefghij2');
    const before = await hashOf(s, u.data.id);
    expect(await h.reset(u.data.id, 'abcdefghijk')).toMatchObject({ code: 400, data: { field: 'password' } });
    expect(await hashOf(s, u.data.id)).toBe(before);
    expect((await h.reset(u.data.id, 'Abcdefghij3')).code).toBe(200);

    const { r, op } = await h.changeOwn('', 'Short1a');
    expect(r).toMatchObject({ code: 400, msg: 'New password must be at least 10 characters', data: { field: 'newPwd' } });
    expect(await s.login(op.user.username, op.user.password)).toBeTruthy();
    const ok = await h.changeOwn('', 'Long-enough1');
    expect(ok.r).toMatchObject({ code: 200, data: true });
  });

  it('is what the console learns from the user info', async () => {
    const info = await s.call<{ passwordPolicy: unknown }>('POST', '/web/info', { token: h.admin });
    expect(info.data.passwordPolicy).toEqual(policy);
  });
});

describe('configuration', () => {
  const policyOf = (env: Record<string, string>) => loadConfig(env).passwordPolicy;
  it('reads a length and classes as a count or a list', () => {
    expect(policyOf({})).toEqual({ minLength: 5, classes: [], minClasses: 0 });
    expect(policyOf({ CSMS_PASSWORD_MIN_LENGTH: '12', CSMS_PASSWORD_CLASSES: 'Upper, digit' })).toEqual({
      minLength: 12,
      classes: ['upper', 'digit'],
      minClasses: 2,
    });
    expect(policyOf({ CSMS_PASSWORD_CLASSES: '3' })).toEqual({
      minLength: 5,
      classes: ['lower', 'upper', 'digit', 'symbol'],
      minClasses: 3,
    });
  });
  it('refuses to start with a rule it cannot apply', () => {
    expect(() => policyOf({ CSMS_PASSWORD_MIN_LENGTH: '4' })).toThrow(/CSMS_PASSWORD_MIN_LENGTH must be between 5 and 128/);
    expect(() => policyOf({ CSMS_PASSWORD_CLASSES: 'letters' })).toThrow(
      /CSMS_PASSWORD_CLASSES must be a count 1-4 or a comma-separated list/,
    );
    expect(() => policyOf({ CSMS_PASSWORD_CLASSES: 'digit,digit' })).toThrow(/CSMS_PASSWORD_CLASSES/);
    expect(() => policyOf({ CSMS_PASSWORD_CLASSES: '5' })).toThrow(/CSMS_PASSWORD_CLASSES/);
  });
  it('generates a first administrator password that meets the rule', () => {
    const rule = createPasswordRule({ minLength: 16, classes: ['lower', 'upper', 'digit', 'symbol'], minClasses: 4 });
    for (let i = 0; i < 50; i++) {
      const pw = rule.generate();
      expect(pw).toHaveLength(16);
      expect(rule.problem('en', 'auth', 'password', pw)).toBeNull();
    }
  });
});
