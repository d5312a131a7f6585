import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { i18n } from './index';
import type { Locale } from './lang';

/**
 * Catalogue parts: copy only one screen shows, fetched with that screen instead of with the
 * catalogue every page loads (sign-in included). Each part is a top-level namespace of the
 * translation (`ocppKeys.meaning.HeartbeatInterval`), in both languages under ./locales.
 */
const parts = {
  ocppKeys: {
    'zh-CN': () => import('./locales/zh-CN/ocppKeys'),
    'en-US': () => import('./locales/en-US/ocppKeys'),
  },
} satisfies Record<string, Record<Locale, () => Promise<{ default: object }>>>;

export type CataloguePart = keyof typeof parts;

/** Adds the part to the loaded language's translation (once; a second call finds it there). */
export async function loadCataloguePart(part: CataloguePart, locale = i18n.language as Locale): Promise<true> {
  if (i18n.getResource(locale, 'translation', part) !== undefined) return true;
  const { default: strings } = await parts[part][locale]();
  i18n.addResourceBundle(locale, 'translation', { [part]: strings }, true, false);
  return true;
}

/** True once the part is loaded; the screen renders its texts from then on. */
export function useCataloguePart(part: CataloguePart): boolean {
  const { i18n: current } = useTranslation();
  const { data } = useQuery({
    queryKey: ['cataloguePart', part, current.language],
    queryFn: () => loadCataloguePart(part, current.language as Locale),
    staleTime: Infinity,
  });
  return data === true;
}
