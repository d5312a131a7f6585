import { describe, expect, it } from 'vitest';
import { editPasswordBody, loginBody } from './api/auth.js';
import { organizationCreate } from './api/organization.js';
import { zhCN, enUS } from './i18n/index.js';
import { validate } from './validation.js';

describe('field errors name the field in the caller language', () => {
  it('required', () => {
    expect(validate(loginBody, {}, 'en', 'auth')).toEqual({ ok: false, error: { field: 'username', msg: 'Account is required' } });
    expect(validate(loginBody, { username: '  ' }, 'zh', 'auth')).toEqual({ ok: false, error: { field: 'username', msg: '请输入账号' } });
  });
  it('length limits', () => {
    expect(validate(organizationCreate, { orgName: 'x'.repeat(51) }, 'en', 'organization')).toMatchObject({
      error: { msg: 'Organisation name must be at most 50 characters' },
    });
    expect(validate(editPasswordBody, { oldPwd: 'a', newPwd: 'abcd', confirmNewPwd: 'abcd' }, 'zh', 'auth')).toMatchObject({
      error: { field: 'newPwd', msg: '新密码长度不能少于 5 个字符' },
    });
  });
  it('refinements carry a vocabulary key', () => {
    expect(validate(editPasswordBody, { oldPwd: 'a', newPwd: 'abcde', confirmNewPwd: 'abcdf' }, 'zh', 'auth')).toMatchObject({
      error: { field: 'confirmNewPwd', msg: '两次输入密码不一致!' },
    });
  });
  it('wrong types', () => {
    expect(validate(organizationCreate, { orgName: 12 }, 'en', 'organization')).toMatchObject({
      error: { field: 'orgName', msg: 'Organisation name has the wrong type' },
    });
  });
});

describe('catalogues', () => {
  const keys = (o: object, prefix = ''): string[] =>
    Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keys(v as object, `${prefix}${k}.`)));
  it('zh-CN and en-US have the same keys and no empty text', () => {
    expect(keys(enUS).sort()).toEqual(keys(zhCN).sort());
    for (const cat of [zhCN, enUS])
      for (const k of keys(cat)) expect(k.split('.').reduce((o: never, p) => o[p], cat as never)).not.toBe('');
  });
});
