import { defaultPasswordPolicy, type PasswordPolicy, type UserInfo } from '@csms/contract';
import { useSyncExternalStore } from 'react';
import { cookieKeys, removeCookie, removeToken } from '../cookies';

/**
 * The signed-in user's info from `POST /web/info`. `null` until loaded: the guard loads it,
 * and until then every permission check fails (deny by default).
 */
let current: UserInfo | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function getSession(): UserInfo | null {
  return current;
}

export function setSession(info: UserInfo | null) {
  current = info;
  emit();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current user info, re-rendering when it changes. */
export function useSession(): UserInfo | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** The server's password rule (from the user info), which every password form follows. */
export function usePasswordPolicy(): PasswordPolicy {
  return useSession()?.passwordPolicy ?? defaultPasswordPolicy;
}

/** Drop the token and the stored login name (the cookies of spec §3). */
export function clearCredentials() {
  removeToken();
  removeCookie(cookieKeys.loginName);
}

/** Forced local logout (spec §4): token, stored credentials and info gone, no server call. */
export function clearSession() {
  clearCredentials();
  setSession(null);
}
