import { enUS } from './en-US.js';
import { zhCN, type Vocabulary } from './zh-CN.js';

export type Lang = 'zh' | 'en';
export const vocabularies: Record<Lang, Vocabulary> = { zh: zhCN, en: enUS };
export type { Vocabulary };
export { zhCN, enUS };
export { signInZh, signInEn } from './sign-in.js';

/** `X-Language` header or cookie value to a language; anything unknown is Chinese, the product default. */
export function toLang(value: string | undefined | null): Lang {
  return value && value.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

function lookup(tree: unknown, key: string): string | undefined {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function hasKey(lang: Lang, key: string): boolean {
  return lookup(vocabularies[lang], key) !== undefined;
}

export function interpolate(text: string, params?: Record<string, unknown>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/**
 * Where a vocabulary text comes from: a language of `vocabularies` (the server), or whatever
 * language the caller has loaded (the console fetches only the one it shows).
 */
export type VocabularyLookup = (key: string) => string | undefined;

export const vocabularyOf =
  (lang: Lang): VocabularyLookup =>
  (key) =>
    lookup(vocabularies[lang], key);

/** Translate a vocabulary key; an unknown key comes back as itself so that it shows up in tests. */
export function translateWith(look: VocabularyLookup, key: string, params?: Record<string, unknown>): string {
  return interpolate(look(key) ?? key, params);
}

export function translate(lang: Lang, key: string, params?: Record<string, unknown>): string {
  return translateWith(vocabularyOf(lang), key, params);
}

/** The label of a field of a resource, falling back to the common fields. */
export function fieldLabelWith(look: VocabularyLookup, resource: string, path: string): string {
  const leaf =
    path
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? path;
  return look(`fields.${resource}.${leaf}`) ?? look(`fields.common.${leaf}`) ?? leaf;
}

export function fieldLabel(lang: Lang, resource: string, path: string): string {
  return fieldLabelWith(vocabularyOf(lang), resource, path);
}
