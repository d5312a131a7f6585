import { toLang, type Lang } from '@csms/contract';
import { cookieKeys, getCookie, setCookie } from '../shared/cookies';

export type Locale = 'zh-CN' | 'en-US';

/** Stored preference first, else Chinese when the browser's language contains zh, else English (spec §9). */
export function currentLocale(): Locale {
  const stored = getCookie(cookieKeys.language);
  if (stored === 'zh-CN' || stored === 'en-US') return stored;
  const nav = typeof navigator === 'undefined' ? 'zh' : (navigator.languages?.join(',') ?? navigator.language ?? '');
  return /zh/i.test(nav) ? 'zh-CN' : 'en-US';
}

export function setLocale(locale: Locale) {
  setCookie(cookieKeys.language, locale);
}

/** The `X-Language` value the server expects. */
export const apiLang = (locale: Locale = currentLocale()): Lang => toLang(locale);
