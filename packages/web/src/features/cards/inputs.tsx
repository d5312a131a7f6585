import { chargeUserApi, commonApi, userGroupApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { ReadCardButton } from '../../shared/cardReader';
import { kwhToWh } from '../../shared/format/units';
import type { Scaled } from '../../shared/resource/money-input';

// Moved to shared/ (finance types amounts too); re-exported for the cards screens.
export { MoneyInput } from '../../shared/resource/money-input';

/** Energy typed in kWh (three decimals), held in Wh. */
export function KwhInput({ value, onChange, ...props }: Scaled) {
  return (
    <InputNumber<number>
      min={0.001}
      precision={3}
      style={{ width: '100%' }}
      {...props}
      value={value === null || value === undefined ? null : value / 1000}
      onChange={(v) => onChange?.(v === null || v === undefined ? null : kwhToWh(Number(v)))}
    />
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}

export interface ChargeUserSelectProps {
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  /** Only users of this provider. */
  providerId?: number;
  /** The option of the current value, shown before any search (an edited record's account). */
  initial?: { value: number; label: string } | null;
  multiple?: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** Injected by Form.Item, so that the label points at the input. */
  id?: string;
}

/**
 * Charge users by account or phone: the server searches (50 at a time), so a provider with many
 * drivers still finds each one.
 */
export function ChargeUserSelect({ value, onChange, providerId, initial, multiple, disabled, placeholder, id }: ChargeUserSelectProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const keyword = useDebounced(typed.trim(), 250);
  const { data, isFetching } = useQuery({
    queryKey: ['options', 'chargeUsers', providerId ?? null, keyword],
    queryFn: ({ signal }) =>
      call(chargeUserApi.options, { query: { keyword: keyword || undefined, providerId } }, { signal, silent: true }).catch(() => []),
    staleTime: 10_000,
  });
  const options = (data ?? []).map((u) => ({ value: u.id, label: u.phone ? `${u.account} (${u.phone})` : u.account }));
  if (initial && !options.some((o) => o.value === initial.value)) options.unshift(initial);
  return (
    <Select<number | number[]>
      id={id}
      style={{ width: '100%' }}
      allowClear
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={isFetching}
      disabled={disabled}
      placeholder={placeholder ?? t('cards.searchPlaceholder')}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      onClear={() => setTyped('')}
      options={options}
    />
  );
}

/** User groups of one provider (a user joins only a group of its own provider). */
export function GroupSelect({
  value,
  onChange,
  providerId,
  placeholder,
  disabled,
  id,
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  providerId?: number;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
}) {
  const { data, isFetching } = useQuery({
    queryKey: ['options', 'userGroups', providerId ?? null],
    queryFn: ({ signal }) => call(userGroupApi.options, { query: { providerId } }, { signal, silent: true }).catch(() => []),
    enabled: providerId !== undefined,
    staleTime: 10_000,
  });
  return (
    <Select<number>
      id={id}
      style={{ width: '100%' }}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={isFetching}
      disabled={disabled || providerId === undefined}
      placeholder={placeholder}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={(data ?? []).map((g) => ({ value: g.id, label: g.name }))}
    />
  );
}

/** The physical card id, typed or read from the card on the reader (the companion of DESIGN.md §9). */
export function PhysicalIdInput({
  value,
  onChange,
  disabled,
  placeholder,
  id,
}: {
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
}) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        value={value}
        disabled={disabled}
        placeholder={placeholder}
        onChange={(e) => onChange?.(e.target.value)}
        data-testid="physical-id-input"
      />
      {!disabled && <ReadCardButton onRead={(uid) => onChange?.(uid)} />}
    </Space.Compact>
  );
}

/**
 * Whether a card is a master pass (OCPP 2.0.1 C16), with what the chargers must be told: the group
 * Authorize answers for it, which they recognise by their AuthCtrlr.MasterPassGroupId.
 */
export function MasterPassSwitch({ value, onChange, id }: { value?: boolean; onChange?: (value: boolean) => void; id?: string }) {
  const { t } = useTranslation();
  const group = useQuery({
    queryKey: [commonApi.configKey.path, 'ocpp.masterPassGroupId'],
    queryFn: () => call(commonApi.configKey, { params: { key: 'ocpp.masterPassGroupId' } }, { silent: true }),
    staleTime: Infinity,
  });
  return (
    <Space direction="vertical" size={4}>
      <Switch id={id} checked={value ?? false} onChange={onChange} data-testid="card-master-pass" />
      {group.data && (
        <Typography.Text type="secondary" data-testid="card-master-pass-hint">
          {t('cards.masterPassHint', { group: group.data })}
        </Typography.Text>
      )}
    </Space>
  );
}
