import { catalogue as enUS } from './catalogue.en-US';
import { catalogue as zhCN } from './catalogue.zh-CN';

/** Both languages at once, for tests that switch language in place; the console loads only one (./index.ts). */
export const resources = {
  'zh-CN': { translation: zhCN.translation },
  'en-US': { translation: enUS.translation },
} as const;
