import { catalogue as enUS } from './catalogue.en-US';
import { catalogue as zhCN } from './catalogue.zh-CN';
import enOcppKeys from './locales/en-US/ocppKeys';
import zhOcppKeys from './locales/zh-CN/ocppKeys';

/**
 * Both languages at once, with every catalogue part (./parts.ts), for tests that switch language
 * in place; the console loads only one, and a part with its screen (./index.ts).
 */
export const resources = {
  'zh-CN': { translation: { ...zhCN.translation, ocppKeys: zhOcppKeys } },
  'en-US': { translation: { ...enUS.translation, ocppKeys: enOcppKeys } },
} as const;
