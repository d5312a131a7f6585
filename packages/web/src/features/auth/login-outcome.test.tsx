import { describe, expect, it } from 'vitest';
import { loginOutcome, safeRedirect } from './login-outcome';

describe('sign-in outcomes (DESIGN.md §5)', () => {
  it('maps a code-200 reply to the right message', () => {
    expect(loginOutcome(null)).toEqual({ ok: false, key: 'auth.badCredentials' });
    expect(loginOutcome({ systemUserStatus: 0 })).toEqual({ ok: false, key: 'auth.accountExpired' });
    expect(loginOutcome({ systemUserStatus: 1 })).toEqual({ ok: false, key: 'auth.notMatch' });
    expect(loginOutcome({ systemUserStatus: 1, token: 't' })).toEqual({ ok: true, token: 't' });
  });

  it('only redirects inside the console', () => {
    expect(safeRedirect('/systemManagement/organizationManage?page=2')).toBe('/systemManagement/organizationManage?page=2');
    expect(safeRedirect(null)).toBe('/dashboard');
    expect(safeRedirect('//evil.example')).toBe('/dashboard');
    expect(safeRedirect('https://evil.example')).toBe('/dashboard');
    expect(safeRedirect('/login?redirect=/x')).toBe('/dashboard');
    // What the browser drops before reading the URL (tab, line breaks) makes no way out either.
    for (const sneaky of ['/\t/evil.example/login', '/\n/evil.example', '/\r/evil.example', '/\\evil.example', '/\t\\evil.example'])
      expect(safeRedirect(sneaky), JSON.stringify(sneaky)).toBe('/dashboard');
  });
});
