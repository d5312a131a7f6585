import { toLang, type Lang } from '@csms/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

export interface ResourceText {
  t: TFunction;
  lang: Lang;
  /** `fields.<resource>.<key>`, else `fields.common.<key>`; `override` is a catalogue key. */
  label: (key: string, override?: string) => string;
  /** The resource's noun (`<resource>.entity`), for dialog titles. */
  entity: string;
  /** A translation with its first letter capitalised (titles that start with the noun). */
  title: (key: string, params?: Record<string, unknown>) => string;
}

export function makeResourceText(t: TFunction, exists: (key: string) => boolean, language: string, name: string): ResourceText {
  return {
    t,
    lang: toLang(language),
    label: (key, override) => {
      if (override) return t(override);
      const own = `fields.${name}.${key}`;
      return t(exists(own) ? own : `fields.common.${key}`);
    },
    entity: t(`${name}.entity`),
    title: (key, params) => {
      const s = t(key, params ?? {});
      return s.charAt(0).toUpperCase() + s.slice(1);
    },
  };
}

export function useResourceText(name: string): ResourceText {
  const { t, i18n } = useTranslation();
  return makeResourceText(t, (k) => i18n.exists(k), i18n.language, name);
}
