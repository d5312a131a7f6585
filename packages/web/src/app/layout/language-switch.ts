import { setLocale, type Locale } from '../../i18n/lang';

/** Set after a language switch so that the reloaded page confirms it once. */
export const LANGUAGE_SWITCHED_KEY = 'language-switched';

/** Stores the choice and reloads: the page starts again with the other language's catalogue. */
export function switchLanguage(locale: Locale) {
  setLocale(locale);
  sessionStorage.setItem(LANGUAGE_SWITCHED_KEY, '1');
  window.location.reload();
}
