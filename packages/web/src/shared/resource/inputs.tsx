import type { DictType } from '@csms/contract';
import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { dictOptions, useDict } from '../dict/useDict';
import type { Option } from './types';

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
