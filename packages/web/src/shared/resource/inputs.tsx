import type { DictType } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
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

/** A Select over options the server lists (roles, organisations, operation types). */
export function RemoteSelect({ remote, ...props }: Omit<SelectProps, 'options'> & { remote: RemoteOptions }) {
  const { i18n } = useTranslation();
  const { data, isFetching } = useQuery({ queryKey: remoteOptionsKey(remote.key, i18n.language), queryFn: remote.load, staleTime: 30_000 });
  return <Select allowClear showSearch={{ optionFilterProp: 'label' }} loading={isFetching} {...props} options={data ?? []} />;
}
