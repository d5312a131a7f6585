import { enUS as vocabulary } from '@csms/contract';
import antdLocale from 'antd/locale/en_US';
import { enUS } from './locales/en-US';

/** Everything the console shows in English: loaded only when English is the language (see ./index.ts). dayjs speaks English built in. */
export const catalogue = {
  translation: { ...vocabulary, ...enUS },
  antdLocale,
  dayjsLocale: 'en',
};
