import { cookieKeys, getCookie, setCookie } from '../../shared/cookies';
import { createStore } from './create-store';

export const MOBILE_BREAKPOINT = 992;
/**
 * Sidebar width: 210 px (spec); English menu names run longer ("Real-time Monitoring",
 * "Electricity Price Setting" would be cut), so the English sidebar is 230 px.
 */
export const sidebarWidth = (language: string) => (language === 'en-US' ? 230 : 210);

export type Device = 'desktop' | 'mobile';
export type SizeName = 'default' | 'medium' | 'small' | 'mini';
export const sizeNames: SizeName[] = ['default', 'medium', 'small', 'mini'];

const isMobileWidth = () => typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT;

/** Sidebar open state persisted as '1' / '0' (spec §4); closed by default on mobile. */
export const sidebarStore = createStore<boolean>(isMobileWidth() ? false : getCookie(cookieKeys.sidebarStatus) !== '0');

export const deviceStore = createStore<Device>(isMobileWidth() ? 'mobile' : 'desktop');

/** Toggle from the hamburger; a hidden sidebar (top nav item without children) cannot toggle. */
export function toggleSidebar(hidden: boolean) {
  if (hidden) return;
  const opened = !sidebarStore.get();
  sidebarStore.set(opened);
  if (deviceStore.get() === 'desktop') setCookie(cookieKeys.sidebarStatus, opened ? '1' : '0');
}

export function closeSidebar() {
  sidebarStore.set(false);
}

function readSize(): SizeName {
  const v = getCookie(cookieKeys.size);
  return sizeNames.includes(v as SizeName) ? (v as SizeName) : 'medium';
}

export const sizeStore = createStore<SizeName>(readSize(), (v) => setCookie(cookieKeys.size, v));
