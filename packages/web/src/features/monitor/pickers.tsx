import { type IdTagOption, type RemoteStartProfileOption, pointActionApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';

interface PickerProps<V> {
  value?: V;
  onChange?: (value: V) => void;
  id?: string;
}

/** Cards and charge users of the point's provider for a remote start, searched on the server. */
export function IdTagSelect({ serialNumber, value, onChange, id }: PickerProps<string> & { serialNumber: string }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: [pointActionApi.idTagOptions.path, serialNumber, keyword],
    queryFn: ({ signal }) => call(pointActionApi.idTagOptions, { query: { serialNumber, keyword } }, { signal }),
  });
  const label = (o: IdTagOption) =>
    o.kind === 'chargeUser'
      ? t('monitor.dialog.idTagUser', { account: o.account, cardNumber: o.cardNumber })
      : o.account
        ? t('monitor.dialog.idTagCardOf', { cardNumber: o.cardNumber, idTag: o.idTag, account: o.account })
        : t('monitor.dialog.idTagCard', { cardNumber: o.cardNumber, idTag: o.idTag });
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value}
      onChange={onChange}
      loading={isFetching}
      placeholder={t('monitor.dialog.idTagPlaceholder')}
      // A charge user and that user's first card share an idTag: the option key tells them apart.
      options={(data ?? []).map((o) => ({ key: `${o.kind}:${o.idTag}`, value: o.idTag, label: label(o) }))}
      data-testid="idtag-select"
    />
  );
}

/** TxProfiles of the point's provider a remote start may carry (RemoteStartTransaction.chargingProfile); empty: none. */
export function ChargingProfileSelect({ serialNumber, value, onChange, id }: PickerProps<number | undefined> & { serialNumber: string }) {
  const { t } = useTranslation();
  const { data, isFetching } = useQuery({
    queryKey: [pointActionApi.profileOptions.path, serialNumber],
    queryFn: ({ signal }) => call(pointActionApi.profileOptions, { query: { serialNumber } }, { signal }),
  });
  const label = (o: RemoteStartProfileOption) =>
    t('monitor.dialog.chargingProfileOption', {
      id: o.id,
      station: o.stationName,
      kind: t(`enums.profileKind.${o.chargingProfileKind}`),
      limit: o.limit,
      unit: o.chargingRateUnit,
      stackLevel: o.stackLevel,
    });
  return (
    <Select
      id={id}
      allowClear
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      loading={isFetching}
      placeholder={t('monitor.dialog.chargingProfilePlaceholder')}
      options={(data ?? []).map((o) => ({ value: o.id, label: label(o) }))}
      data-testid="profile-select"
    />
  );
}
