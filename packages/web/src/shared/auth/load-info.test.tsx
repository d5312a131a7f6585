import { describe, expect, it } from 'vitest';
import { checkRolePaths } from './load-info';

describe('rolePaths verdict', () => {
  it('refuses a disabled role and a role without paths', () => {
    expect(checkRolePaths({ rolePaths: ['forbidden'] })).toBe('forbidden');
    expect(checkRolePaths({})).toBe('empty');
    expect(checkRolePaths({ rolePaths: [] })).toBe('empty');
    expect(checkRolePaths({ rolePaths: ['/historyRecord'] })).toBe('ok');
  });
});
