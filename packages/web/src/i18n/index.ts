import type { Lang, VocabularyLookup } from '@csms/contract';
import dayjs from 'dayjs';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { catalogue as zhCatalogue } from './catalogue.zh-CN';
import { apiLang, currentLocale, type Locale } from './lang';

export type Catalogue = typeof zhCatalogue;

/**
 * The catalogue of one language: the contract's domain vocabulary (fields, enums, errors,
 * validation), the console's own copy, antd's and dayjs's locale. Only the chosen language is
 * fetched; switching language reloads the page (lang-select.tsx), which fetches the other.
 */
export async function loadCatalogue(locale: Locale): Promise<Catalogue> {
  const { catalogue } = locale === 'en-US' ? await import('./catalogue.en-US') : await import('./catalogue.zh-CN');
  return catalogue;
}

/**
 * The small part of the catalogue (./sign-in.zh-CN.ts) that the pages drawn without antd need (the
 * sign-in page, 404, the agreement pages; app/plain-pages.ts): their own texts and the validation messages.
 */
async function loadSignInCatalogue(locale: Locale) {
  const { catalogue } = locale === 'en-US' ? await import('./sign-in.en-US') : await import('./sign-in.zh-CN');
  return catalogue;
}

/** Starts i18next on the given resources (the console: one language; tests: both, from ./resources). */
export function initI18n(locale: Locale = currentLocale(), resources: Resource) {
  void i18n.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: false,
    returnNull: false,
    // Same placeholders as the contract's vocabulary: {field}, {n}.
    interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  });
  return i18n;
}

let started: Catalogue | undefined;

/** The catalogue the console loaded (antd's locale for the console's providers). */
export function loadedCatalogue(): Catalogue {
  if (!started) throw new Error('loadedCatalogue() before startI18n() or loadConsoleCatalogue()');
  return started;
}

/**
 * Starts i18next on the language's catalogue: the plain pages' part of it when one of them is the
 * page opened (so they do not fetch the console's copy), else the whole.
 */
export async function startI18n(locale: Locale = currentLocale(), { plain = false } = {}): Promise<void> {
  if (plain) {
    const part = await loadSignInCatalogue(locale);
    initI18n(locale, { [locale]: { translation: part.translation } });
    return;
  }
  const catalogue = await loadCatalogue(locale);
  started = catalogue;
  initI18n(locale, { [locale]: { translation: catalogue.translation } });
  dayjs.locale(catalogue.dayjsLocale);
}

/** The whole catalogue, before the console renders: fetched now when the app started on the sign-in page. */
export async function loadConsoleCatalogue(): Promise<Catalogue> {
  if (started) return started;
  const locale = i18n.language as Locale;
  const catalogue = await loadCatalogue(locale);
  i18n.addResourceBundle(locale, 'translation', catalogue.translation, true, true);
  dayjs.locale(catalogue.dayjsLocale);
  started = catalogue;
  return catalogue;
}

/**
 * The contract's vocabulary as loaded here, for its `…With` helpers (the console holds one
 * language, so the contract's own `vocabularies`, which hold both, stay out of the bundle).
 */
export function vocabularyLookup(lang: Lang = apiLang()): VocabularyLookup {
  const lng = lang === 'en' ? 'en-US' : 'zh-CN';
  return (key) => {
    const text: unknown = i18n.getResource(lng, 'translation', key);
    return typeof text === 'string' ? text : undefined;
  };
}

export { i18n };
