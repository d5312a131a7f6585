import { type PointOption, pointApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { call } from '../api/client';

/** The caller's points (`getPoints`), searched by serial number on the server; `onPick` gets the choice with its connectors. */
export function PointSelect({
  value,
  onChange,
  onPick,
  id,
  placeholder,
}: {
  value?: string;
  onChange?: (serialNumber: string) => void;
  onPick?: (p: PointOption | undefined) => void;
  id?: string;
  /** Already in the user's language. */
  placeholder: string;
}) {
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: [pointApi.options.path, keyword],
    queryFn: ({ signal }) => call(pointApi.options, { body: keyword ? { serialNumber: keyword } : {} }, { signal }),
  });
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value}
      onChange={(v: string) => {
        onChange?.(v);
        onPick?.(data?.find((p) => p.serialNumber === v));
      }}
      loading={isFetching}
      style={{ width: '100%' }}
      placeholder={placeholder}
      options={(data ?? []).map((p) => ({ value: p.serialNumber, label: `${p.serialNumber} · ${p.pointName} · ${p.stationName}` }))}
      data-testid="point-select"
    />
  );
}
