import { describe, expect, it } from 'vitest';
import { checkPermi, checkRole, EmptyPermissionListError, exceeds, isExternal } from './permissions.js';

describe('checkPermi', () => {
  it('passes with the exact permission or the wildcard', () => {
    expect(checkPermi(['system:organization:list'], 'system:organization:list')).toBe(true);
    expect(checkPermi(['*:*:*'], 'anything:at:all')).toBe(true);
    expect(checkPermi(['system:organization:list'], 'system:organization:add')).toBe(false);
    expect(checkPermi([], 'system:organization:list')).toBe(false);
  });
  it('has any-of and all-of variants', () => {
    const held = ['a:b:c', 'a:b:d'];
    expect(checkPermi(held, ['a:b:c', 'x:y:z'], 'any')).toBe(true);
    expect(checkPermi(held, ['a:b:c', 'x:y:z'], 'all')).toBe(false);
    expect(checkPermi(held, ['a:b:c', 'a:b:d'], 'all')).toBe(true);
  });
  it('throws on an empty list', () => {
    expect(() => checkPermi(['*:*:*'], [])).toThrow(EmptyPermissionListError);
  });
});

describe('checkRole', () => {
  it('passes with role admin or the exact role', () => {
    expect(checkRole(['admin'], 'finance')).toBe(true);
    expect(checkRole(['finance'], 'finance')).toBe(true);
    expect(checkRole(['finance'], ['ops', 'audit'])).toBe(false);
    expect(checkRole(['finance', 'ops'], ['finance', 'ops'], 'all')).toBe(true);
    expect(() => checkRole(['admin'], [])).toThrow(EmptyPermissionListError);
  });
});

describe('exceeds (nobody hands out more than they hold)', () => {
  const g = (permissions: string[], rolePaths: string[] = [], roleKey = 'ops') => ({ roleKey, permissions, rolePaths });
  it('names the first permission, else the first menu path, the holder lacks', () => {
    const held = g(['a:b:c', 'a:b:d'], ['/x']);
    expect(exceeds(held, g(['a:b:c'], ['/x']))).toBeUndefined();
    expect(exceeds(held, held)).toBeUndefined();
    expect(exceeds(held, g(['a:b:c', 'e:f:g'], ['/y']))).toEqual({ permission: 'e:f:g' });
    expect(exceeds(held, g(['a:b:d'], ['/x', '/y']))).toEqual({ path: '/y' });
  });
  it('puts the wildcard and role key admin on top', () => {
    const everything = g(['a:b:c', 'e:f:g'], ['/x', '/y']);
    expect(exceeds(g(['*:*:*']), everything)).toBeUndefined();
    expect(exceeds(g([], [], 'admin'), g(['*:*:*'], [], 'admin'))).toBeUndefined();
    expect(exceeds(everything, g([], [], 'admin'))).toEqual({ permission: '*:*:*' });
    expect(exceeds(everything, g(['*:*:*']))).toEqual({ permission: '*:*:*' });
  });
});

it('recognises external links', () => {
  for (const v of ['http://a', 'https://a', 'mailto:a@b', 'tel:123']) expect(isExternal(v)).toBe(true);
  for (const v of ['/dashboard', 'ftp://x', 'https']) expect(isExternal(v)).toBe(false);
});
