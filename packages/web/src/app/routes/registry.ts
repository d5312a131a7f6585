import { DashboardOutlined } from '@ant-design/icons';
import { createElement, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

/**
 * One screen of the console. `path` is a menu path of the contract's menuTree (the menu shows
 * only paths that have a screen), or a page outside the menu (an edit page, a detail page).
 */
export interface ScreenDef {
  path: string;
  component: LazyExoticComponent<ComponentType>;
  icon?: ReactNode;
  /** Tab cannot be closed (the dashboard). */
  affix?: boolean;
  /** Entering the page marks cached queries stale, so it always refetches instead of showing cached data. */
  noCache?: boolean;
  /** A page that never shows in the menu. */
  hidden?: boolean;
  /** Menu entry highlighted while this page is open; a page outside the menu also takes its access from it. */
  activeMenu?: string;
  /** Title key; default `menu.<name>` of the menu node. */
  titleKey?: string;
}

/** Spec §9: a screen's code that has not arrived after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** `lazy()` with the chunk timeout; the screen's error boundary shows the failure with a reload. */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return lazy(() =>
    Promise.race([load(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS))]),
  );
}

/** The single static registry: a capability registers its screen by adding one entry. */
export const screens: ScreenDef[] = [
  {
    path: '/dashboard',
    component: lazyScreen(() => import('../dashboard/dashboard-page')),
    icon: createElement(DashboardOutlined),
    affix: true,
    titleKey: 'menu.dashboard',
  },
  { path: '/systemManagement/organizationManage', component: lazyScreen(() => import('../../features/organization/organization.page')) },
  { path: '/systemManagement/userManage', component: lazyScreen(() => import('../../features/systemUser/user-manage.page')) },
  // Personal center: outside the menu and without activeMenu, so open to every signed-in user.
  {
    path: '/user/profile',
    component: lazyScreen(() => import('../../features/profile/profile.page')),
    hidden: true,
    titleKey: 'profile.title',
  },
  { path: '/systemManagement/permissionManage', component: lazyScreen(() => import('../../features/role/role.page')) },
  { path: '/systemManagement/systemLog', component: lazyScreen(() => import('../../features/systemLog/system-log.page')) },
  // System messages: opened from the navbar's bell, open to every signed-in user (the server picks the view).
  {
    path: '/message/inbox',
    component: lazyScreen(() => import('../../features/message/message.page')),
    hidden: true,
    titleKey: 'message.title',
    noCache: true,
  },
  // Public pages for drivers (spec: Disclaimer, Privacy Agreement); see publicPaths.
  {
    path: '/disclaimer/:providerId',
    component: lazyScreen(() => import('../../features/agreement/agreement-page')),
    hidden: true,
    titleKey: 'fields.provider.disclaimer',
  },
  {
    path: '/privacyAgreement/:providerId',
    component: lazyScreen(() => import('../../features/agreement/agreement-page')),
    hidden: true,
    titleKey: 'fields.provider.privacyAgreement',
  },
];
