import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { editPasswordSchema } from './api/auth.js';
import { passwordSchema, type PasswordPolicy } from './password.js';
import { validate } from './validation.js';

const strict: PasswordPolicy = { minLength: 10, classes: ['lower', 'upper', 'digit'], minClasses: 3 };
const threeOfFour: PasswordPolicy = { minLength: 8, classes: ['lower', 'upper', 'digit', 'symbol'], minClasses: 3 };
const check = (policy: PasswordPolicy, password: string, lang: 'zh' | 'en' = 'en') =>
  validate(z.object({ password: passwordSchema(policy) }), { password }, lang, 'systemUser');

describe('the password rule names the field and the rule', () => {
  it('keeps the spec minimum of 5 by default and never goes below it', () => {
    expect(check({ minLength: 5, classes: [], minClasses: 0 }, 'abcd')).toMatchObject({
      error: { field: 'password', msg: 'Password must be at least 5 characters' },
    });
    expect(check({ minLength: 2, classes: [], minClasses: 0 }, 'abcd').ok).toBe(false);
    expect(check({ minLength: 5, classes: [], minClasses: 0 }, 'abcde').ok).toBe(true);
  });

  it('a raised length', () => {
    expect(check(strict, 'Abcdefgh1', 'zh')).toMatchObject({ error: { msg: '密码长度不能少于 10 个字符' } });
    expect(check(strict, 'Abcdefgh12').ok).toBe(true);
  });

  it('every listed class', () => {
    expect(check(strict, 'abcdefghij1')).toMatchObject({
      error: { field: 'password', msg: 'Password must contain lower-case letters, upper-case letters, digits' },
    });
    expect(check(strict, 'abcdefghij1', 'zh')).toMatchObject({ error: { msg: '密码必须包含小写字母、大写字母、数字' } });
  });

  it('n of the classes', () => {
    expect(check(threeOfFour, 'abcdefgh12')).toMatchObject({
      error: { msg: 'Password must contain at least 3 of: lower-case letters, upper-case letters, digits, symbols' },
    });
    expect(check(threeOfFour, 'abcdefgh12', 'zh')).toMatchObject({
      error: { msg: '密码必须至少包含以下字符中的 3 类：小写字母、大写字母、数字、符号' },
    });
    expect(check(threeOfFour, 'abcdefgh1!').ok).toBe(true);
    // Classes are Unicode's: full-width digits are digits, a space is a symbol, Chinese counts as no class.
    expect(check(threeOfFour, 'abcdefgh１ ').ok).toBe(true);
    expect(check(threeOfFour, '密码密码密码密码12').ok).toBe(false);
  });

  it('the change-password form under a policy', () => {
    const r = validate(editPasswordSchema(strict), { oldPwd: 'x', newPwd: 'short1A', confirmNewPwd: 'short1A' }, 'en', 'auth');
    expect(r).toMatchObject({ error: { field: 'newPwd', msg: 'New password must be at least 10 characters' } });
  });
});
