import { describe, expect, it } from 'vitest';
import { editPasswordBody, loginBody } from './api/auth.js';
import { cardCreate } from './api/card.js';
import { organizationCreate } from './api/organization.js';
import { pointActionApi } from './api/point-action.js';
import { zhCN, enUS } from './i18n/index.js';
import { longPageQuery, pageQuery } from './endpoint.js';
import { findBadText, validate } from './validation.js';

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

describe('text no column can hold is bad input (issue 12, item 3)', () => {
  it('finds NUL and unpaired UTF-16 halves in values and keys, at any depth, and names the field', () => {
    expect(findBadText({ a: 'ok', b: ['fine', { c: 'x\u0000' }] })).toEqual(['b', '1', 'c']);
    expect(findBadText({ a: 'x\ud800' })).toEqual(['a']);
    expect(findBadText({ a: '\udc00x' })).toEqual(['a']);
    expect(findBadText({ ['k\u0000']: 1 })).toEqual(['k\ufffd']);
    expect(findBadText({ a: '充电 😀 ok', b: 1, c: null })).toBeNull();
    expect(validate(organizationCreate, { orgName: 'a\u0000' }, 'en', 'organization')).toEqual({
      ok: false,
      error: { field: 'orgName', msg: 'Organisation name contains a character that is not allowed (NUL or broken Unicode)' },
    });
    expect(validate(organizationCreate, { orgName: 'a\u0000' }, 'zh', 'organization')).toMatchObject({ error: { field: 'orgName' } });
  });
});

describe('page sizes are the spec’s (issue 12, item 8)', () => {
  it('takes 10, 20, 50 and 300, and 1000 only on the long (message) paging', () => {
    for (const limit of [10, 20, 50, 300]) expect(pageQuery.safeParse({ limit: String(limit) }).success).toBe(true);
    for (const limit of [1000, 30, 0, -10, 1e6]) expect(pageQuery.safeParse({ limit: String(limit) }).success).toBe(false);
    expect(longPageQuery.safeParse({ limit: '1000' }).success).toBe(true);
    expect(longPageQuery.safeParse({ limit: '999' }).success).toBe(false);
    expect(validate(pageQuery, { limit: '30' }, 'zh', 'organization')).toMatchObject({
      error: { field: 'limit', msg: '每页条数只能是 10、20、50、300' },
    });
  });
});

const remoteStart = pointActionApi.remoteStart.body!;

describe('idTags are OCPP 1.6 IdTokens (CiString20): trimmed printable ASCII, 1 to 20 characters, kept as issued', () => {
  const body = (physicalId: unknown) => ({
    cardNumber: 'NO-1',
    physicalId,
    providerId: 1,
    expireTime: new Date(Date.now() + 86_400_000).toISOString(),
    prepaidCents: 0,
    email: 'a@example.com',
  });
  it('accepts contract ids, app tokens, lower case, short tags and the reader’s hex UIDs, as typed', () => {
    for (const tag of [
      'NL-TNM-C12345678-X',
      'APP-4471',
      'app-4471',
      'ab1',
      'A',
      '04A1B2C3',
      '04a1b2c3d4e5f6',
      'x.y_z:1/2 #3',
      '~!@$%^&*()+={}[]|;<>',
    ])
      for (const schema of [cardCreate, remoteStart]) {
        const input = schema === cardCreate ? body(tag) : { serialNumber: 'CP1', idTag: tag };
        const r = validate(schema, input, 'en', 'card');
        expect(r.ok, tag).toBe(true);
        if (r.ok) expect((r.value as { physicalId?: string; idTag?: string }).physicalId ?? (r.value as { idTag: string }).idTag).toBe(tag);
      }
    const trimmed = validate(cardCreate, body('  NL-TNM-C12345678-X \t'), 'en', 'card');
    expect(trimmed.ok && trimmed.value.physicalId).toBe('NL-TNM-C12345678-X');
  });
  it('refuses empty, longer than 20, non-ASCII and control characters, naming the field in both languages', () => {
    expect(validate(cardCreate, body('   '), 'en', 'card')).toMatchObject({ ok: false, error: { field: 'physicalId' } });
    expect(validate(cardCreate, body('X'.repeat(21)), 'en', 'card')).toMatchObject({
      error: { field: 'physicalId', msg: 'Physical card ID must be at most 20 characters' },
    });
    for (const tag of ['卡号1234', 'CAFÉ-1', 'A\u0007B', 'A\nB', 'ＡＢＣ']) {
      expect(validate(cardCreate, body(tag), 'en', 'card'), tag).toEqual({
        ok: false,
        error: {
          field: 'physicalId',
          msg: 'Physical card ID must be 1 to 20 printable ASCII characters (letters, digits, spaces and symbols such as - _ .)',
        },
      });
      expect(validate(cardCreate, body(tag), 'zh', 'card'), tag).toEqual({
        ok: false,
        error: { field: 'physicalId', msg: '物理卡号须为 1–20 个可打印的 ASCII 字符（字母、数字、空格及 - _ . 等符号）' },
      });
      expect(validate(remoteStart, { serialNumber: 'CP1', idTag: tag }, 'en', 'pointAction')).toMatchObject({
        ok: false,
        error: { field: 'idTag' },
      });
    }
  });
});
