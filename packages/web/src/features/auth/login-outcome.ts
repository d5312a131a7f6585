import type { authApi, DataOf } from '@csms/contract';

type LoginData = DataOf<typeof authApi.login>;

export type LoginOutcome =
  { ok: true; token: string } | { ok: false; key: 'auth.badCredentials' | 'auth.accountExpired' | 'auth.notMatch' };

/** Sign-in outcomes of DESIGN.md §5 for a reply with code 200. */
export function loginOutcome(data: LoginData | undefined): LoginOutcome {
  if (!data) return { ok: false, key: 'auth.badCredentials' };
  if (data.systemUserStatus === 0) return { ok: false, key: 'auth.accountExpired' };
  if (!data.token) return { ok: false, key: 'auth.notMatch' };
  return { ok: true, token: data.token };
}

/** Where to go after signing in: an in-app path only (no open redirect), else the dashboard. */
export function safeRedirect(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || raw.startsWith('/login')) return '/dashboard';
  return raw;
}
