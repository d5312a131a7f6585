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

/**
 * Where to go after signing in: an in-app path only (no open redirect), else the dashboard. Judged as the
 * browser will read it: resolved against this origin (which drops tabs and line breaks, turning
 * `/\t/evil.example` into `//evil.example`), it must stay on this origin.
 */
export function safeRedirect(raw: string | null, origin = window.location.origin): string {
  if (!raw || !raw.startsWith('/')) return '/dashboard';
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return '/dashboard';
  }
  if (url.origin !== origin || url.pathname.startsWith('/login')) return '/dashboard';
  return `${url.pathname}${url.search}${url.hash}`;
}
