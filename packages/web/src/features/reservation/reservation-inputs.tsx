import { Select } from 'antd';
import { useMemo } from 'react';
import { chargeUserOptions } from '../../shared/options/charge-user-options';
import { useChosenPoint } from '../../shared/options/station-point-options';
import { RemoteSelect } from '../../shared/resource/inputs';
import type { FormFieldCtx } from '../../shared/resource/types';

interface Injected<V> {
  value?: V;
  onChange?: (v: V) => void;
  id?: string;
}

/** One point of the chosen station; choosing another puts the connector back to "any". */
export function ReservePointField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string>) {
  const { stationId, points, isFetching } = useChosenPoint(form);
  return (
    <Select
      id={id}
      allowClear
      value={value}
      onChange={(v: string | undefined) => {
        onChange?.(v as string);
        form.setFieldValue('connectorNo', 0);
      }}
      loading={isFetching}
      disabled={stationId === undefined}
      placeholder={
        stationId === undefined
          ? t('reservation.chooseStationFirst')
          : t('kit.selectPlaceholder', { field: t('fields.reservation.serialNumber') })
      }
      showSearch={{ optionFilterProp: 'label' }}
      options={points.map((p) => ({ value: p.serialNumber, label: `${p.serialNumber} · ${p.pointName}` }))}
      data-testid="reserve-point"
    />
  );
}

/** "Any connector" (0, the charger picks) or one of the chosen point's. */
export function ReserveConnectorField({ form, t, value, onChange, id }: FormFieldCtx & Injected<number>) {
  const { point } = useChosenPoint(form);
  const numbers = new Set<number>([0, ...(point?.connectors ?? []).map((c) => c.connectorNo)]);
  if (value !== undefined) numbers.add(value);
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      disabled={!point}
      placeholder={t('reservation.choosePointFirst')}
      options={[...numbers].sort((a, b) => a - b).map((n) => ({ value: n, label: n === 0 ? t('enums.anyConnector.0') : String(n) }))}
      data-testid="reserve-connector"
    />
  );
}

/** The charge user, among the chosen point's provider's (the server refuses another provider's). */
export function ReserveUserField({ form, t, value, onChange, id }: FormFieldCtx & Injected<number>) {
  const { point } = useChosenPoint(form);
  const providerId = point?.providerId;
  const remote = useMemo(() => chargeUserOptions(providerId), [providerId]);
  return (
    <RemoteSelect
      id={id}
      remote={remote}
      value={value}
      onChange={onChange}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.reservation.chargeUserId') })}
      data-testid="reserve-user"
    />
  );
}
