import { translate, type Lang } from './i18n/index.js';

/** Dictionaries served by `GET /system/dict/data/type/{type}`: values from the contract, labels from the vocabulary. */
export interface DictEntry {
  dictLabel: string;
  dictValue: string;
  /** antd Tag colour hint (RuoYi's listClass: default, primary, success, info, warning, danger). */
  listClass: string;
  cssClass: string;
}

/** Values in display order with their listClass (an array: numeric-looking object keys would be re-sorted). */
type DictDef = { enumKey: string; values: [value: string, listClass: string][] };

const def = (enumKey: string, values: Record<string, string> | [string, string][]): DictDef => ({
  enumKey,
  values: Array.isArray(values) ? values : Object.entries(values),
});

export const dictionaries = {
  providerType: def('providerType', { super: 'primary', common: 'default' }),
  userStatus: def('userStatus', [
    ['1', 'success'],
    ['0', 'danger'],
  ]),
  yesNo: def('yesNo', [
    ['1', 'primary'],
    ['0', 'default'],
  ]),
  logMode: def('logMode', { web: 'primary', api: 'info', ocpp: 'warning' }),
  logResult: def('logResult', {
    '200': 'success',
    '400': 'warning',
    '401': 'danger',
    '403': 'danger',
    '404': 'warning',
    '409': 'warning',
    '500': 'danger',
    '601': 'warning',
  }),
  operation: def('operation', {
    login: 'info',
    logout: 'info',
    changePassword: 'warning',
    add: 'success',
    edit: 'primary',
    remove: 'danger',
    export: 'warning',
    upload: 'info',
    status: 'warning',
    resetPassword: 'warning',
    chargeUser: 'primary',
    testMail: 'info',
    send: 'success',
    read: 'info',
    other: 'default',
  }),
  roleEnabled: def('roleEnabled', [
    ['true', 'success'],
    ['false', 'danger'],
  ]),
  messageRead: def('messageRead', [
    ['0', 'warning'],
    ['1', 'success'],
  ]),
  providerValidity: def('providerValidity', [
    ['1', 'default'],
    ['2', 'default'],
    ['3', 'default'],
  ]),
  exportSource: def('exportSource', { organization: 'default', systemUser: 'default', systemLog: 'default', message: 'default' }),
} satisfies Record<string, DictDef>;

export type DictType = keyof typeof dictionaries;
export const dictTypes = Object.keys(dictionaries) as DictType[];

export function dictEntries(lang: Lang, type: DictType): DictEntry[] {
  const d = dictionaries[type];
  return d.values.map(([value, listClass]) => ({
    dictLabel: translate(lang, `enums.${d.enumKey}.${value}`),
    dictValue: value,
    listClass,
    cssClass: '',
  }));
}
