import { zhCN as vocabulary } from '@csms/contract';
import antdLocale from 'antd/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { zhCN } from './locales/zh-CN';

/** Everything the console shows in Chinese: loaded only when Chinese is the language (see ./index.ts). */
export const catalogue = {
  translation: { ...vocabulary, ...zhCN },
  antdLocale,
  dayjsLocale: 'zh-cn',
};
