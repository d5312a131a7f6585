import { type DictEntry, type DictType, commonApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';

export const dictQueryKey = (type: DictType, lang: string) => [commonApi.dict.path, type, lang] as const;

/** Entries of one dictionary (`GET /system/dict/data/type/{type}`), labelled by the server in the UI language; cached for the session. */
export function useDict(type: DictType | undefined): DictEntry[] {
  const { i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: dictQueryKey(type ?? ('' as DictType), i18n.language),
    queryFn: ({ signal }) => call(commonApi.dict, { params: { type: type! } }, { signal }),
    enabled: type !== undefined,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return data ?? [];
}

/** antd Tag colours for RuoYi's listClass values. */
export const listClassColor: Record<string, string | undefined> = {
  default: undefined,
  primary: 'processing',
  success: 'success',
  info: 'default',
  warning: 'warning',
  danger: 'error',
};

/** Options for a Select built from a dictionary. */
export function dictOptions(entries: DictEntry[]) {
  return entries.map((e) => ({ value: e.dictValue, label: e.dictLabel }));
}
