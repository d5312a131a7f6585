import { enUS as vocabEn, zhCN as vocabZh } from '@csms/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enUS } from './locales/en-US';
import { zhCN } from './locales/zh-CN';
import { currentLocale, type Locale } from './lang';

/** Both catalogues: the contract's domain vocabulary (fields, enums, errors, validation) and the console's own copy. */
export const resources = {
  'zh-CN': { translation: { ...vocabZh, ...zhCN } },
  'en-US': { translation: { ...vocabEn, ...enUS } },
} as const;

export function initI18n(locale: Locale = currentLocale()) {
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

export { i18n };
