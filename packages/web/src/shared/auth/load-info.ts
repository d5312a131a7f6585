import { type UserInfo, authApi } from '@csms/contract';
import i18n from 'i18next';
import { ApiError, call, pageUnloading } from '../api/client';
import { logout } from './logout';
import { clearSession, setSession } from './session';

export type LoadInfoResult = { ok: true; info: UserInfo } | { ok: false; message: string };

/** rolePaths rules of DESIGN.md §5: `['forbidden']` means a disabled role, none means no access. */
export function checkRolePaths(info: Pick<UserInfo, 'rolePaths'>): 'ok' | 'forbidden' | 'empty' {
  const paths = info.rolePaths;
  if (!paths || paths.length === 0) return 'empty';
  if (paths.includes('forbidden')) return 'forbidden';
  return 'ok';
}

let inflight: Promise<LoadInfoResult> | null = null;

async function load(): Promise<LoadInfoResult> {
  let info: UserInfo;
  try {
    info = await call(authApi.info, {}, { silent: true });
  } catch (err) {
    // The page is going away (reload, typed address): the browser aborted the call; keep the session.
    if (pageUnloading()) return new Promise<LoadInfoResult>(() => {});
    clearSession();
    const msg = err instanceof ApiError ? err.message : '';
    return { ok: false, message: msg || i18n.t('auth.verifyFailed') };
  }
  const verdict = checkRolePaths(info);
  if (verdict !== 'ok') {
    await logout();
    return { ok: false, message: i18n.t(verdict === 'forbidden' ? 'auth.accountDisabled' : 'auth.badCredentials') };
  }
  setSession(info);
  return { ok: true, info };
}

/**
 * Load the user info once (concurrent callers share the request). On any failure the user is
 * logged out and the result carries the message to show.
 */
export function loadSession(): Promise<LoadInfoResult> {
  inflight ??= load().finally(() => {
    inflight = null;
  });
  return inflight;
}
