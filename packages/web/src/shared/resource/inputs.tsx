import type { DictType } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dictOptions, useDict } from '../dict/useDict';
import type { Option, RemoteOptions } from './types';

/** A Select over a dictionary's entries. */
export function DictSelect({ dict, ...props }: Omit<SelectProps, 'options'> & { dict: DictType }) {
  const entries = useDict(dict);
  return <Select allowClear {...props} options={dictOptions(entries)} />;
}

/** A Select over declared options whose labels are catalogue keys. */
export function OptionSelect({ options, ...props }: Omit<SelectProps, 'options'> & { options: Option[] }) {
  const { t } = useTranslation();
  return <Select allowClear {...props} options={options.map((o) => ({ value: o.value, label: t(o.label) }))} />;
}

/** The query key of remote options; the language is part of it because the server labels them. */
export const remoteOptionsKey = (key: string, lang: string) => ['options', key, lang] as const;

/** Typing pauses this long before a select searches the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/** A Select over options the server lists (roles, organisations, operation types). */
export function RemoteSelect({ remote, ...props }: Omit<SelectProps, 'options'> & { remote: RemoteOptions }) {
  if (remote.search) return <SearchSelect remote={remote} search={remote.search} {...props} />;
  return <LoadedSelect remote={remote} {...props} />;
}

function LoadedSelect({ remote, ...props }: Omit<SelectProps, 'options'> & { remote: RemoteOptions }) {
  const { i18n } = useTranslation();
  const { data, isFetching } = useQuery({ queryKey: remoteOptionsKey(remote.key, i18n.language), queryFn: remote.load, staleTime: 30_000 });
  return <Select allowClear showSearch={{ optionFilterProp: 'label' }} loading={isFetching} {...props} options={data ?? []} />;
}

/** The server searches: the first options, then what matches the typed text, the selected values always labelled. */
function SearchSelect({
  remote,
  search,
  ...props
}: Omit<SelectProps, 'options'> & { remote: RemoteOptions; search: NonNullable<RemoteOptions['search']> }) {
  const { i18n } = useTranslation();
  const [typed, setTyped] = useState('');
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setText(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const raw: unknown = props.value;
  const values = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]) as Array<string | number>;
  const { data, isFetching } = useQuery({
    queryKey: [...remoteOptionsKey(remote.key, i18n.language), text, values],
    queryFn: () => search(text, values),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  return (
    <Select
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={isFetching}
      {...props}
      onOpenChange={(open) => !open && setTyped('')}
      options={data ?? []}
    />
  );
}
