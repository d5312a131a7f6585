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

/** The catalogue startI18n loaded (antd's locale for the console's providers). */
export function loadedCatalogue(): Catalogue {
  if (!started) throw new Error('loadedCatalogue() before startI18n()');
  return started;
}

/** Loads the language's catalogue and starts i18next and dayjs on it. */
export async function startI18n(locale: Locale = currentLocale()): Promise<Catalogue> {
  const catalogue = await loadCatalogue(locale);
  started = catalogue;
  initI18n(locale, { [locale]: { translation: catalogue.translation } });
  dayjs.locale(catalogue.dayjsLocale);
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
