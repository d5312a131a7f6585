import i18n from 'i18next';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import { revokeSession } from '../shared/auth/logout';
import { clearCredentials } from '../shared/auth/session';
import { removeToken } from '../shared/cookies';
import { tagsStore } from './tags/tags-store';

/**
 * Leave for the sign-in page with a full page load, so nothing of this user (info, cached
 * queries) survives in memory; the info goes with the page, so the guard never sees a
 * half-logged-out state. The tab strip is emptied for whoever signs in next.
 */
function leave(target: string, keepTabs = false) {
  clearCredentials();
  if (!keepTabs) tagsStore.set([]);
  window.location.href = target;
}

/** Log out from the avatar menu: revoke on the server, then leave. */
export async function signOut(): Promise<void> {
  await revokeSession();
  leave('/login');
}

/** Forced local logout (password changed: the server has revoked the session already). */
export function forcedSignOut(): void {
  leave('/login');
}

let reloginOpen = false;

/**
 * What a 401 does (DESIGN.md §4): drop the token at once and ask, one dialog at a time,
 * whether to sign in again; confirming logs out locally and returns here after sign-in.
 */
export function createUnauthorizedHandler(modal: ModalHookAPI): () => void {
  return () => {
    removeToken();
    if (reloginOpen || window.location.pathname === '/login') return;
    reloginOpen = true;
    modal.confirm({
      title: i18n.t('common.systemPrompt'),
      content: i18n.t('auth.relogin'),
      okText: i18n.t('auth.reloginOk'),
      cancelText: i18n.t('common.cancel'),
      onOk: () => {
        const back = window.location.pathname + window.location.search;
        leave(`/login?redirect=${encodeURIComponent(back)}`, true);
      },
      afterClose: () => {
        reloginOpen = false;
      },
    });
  };
}
