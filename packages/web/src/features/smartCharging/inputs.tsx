import { api } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import type { FormFieldCtx } from '../../shared/resource/types';

interface Injected<V> {
  value?: V;
  onChange?: (v: V) => void;
  id?: string;
}

/** The points of the form's station (`getPoints`), with their connectors. */
function useStationPoints(stationId: number | undefined) {
  return useQuery({
    queryKey: [api.point.options.path, 'station', stationId],
    queryFn: ({ signal }) => call(api.point.options, { body: { stationId } }, { signal }),
    enabled: stationId !== undefined,
  });
}

/** Points of the chosen station, several at once. */
export function PointsField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string[]>) {
  const stationId = Form.useWatch('stationId', form) as number | undefined;
  const { data, isFetching } = useStationPoints(stationId);
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      loading={isFetching}
      disabled={stationId === undefined}
      placeholder={
        stationId === undefined
          ? t('chargingProfile.chooseStationFirst')
          : t('kit.selectPlaceholder', { field: t('fields.chargingProfile.serialNumbers') })
      }
      showSearch={{ optionFilterProp: 'label' }}
      options={(data ?? []).map((p) => ({ value: p.serialNumber, label: `${p.serialNumber} · ${p.pointName}` }))}
      data-testid="profile-points"
    />
  );
}

/** Connector numbers of the chosen points, 0 standing for the whole point. */
export function ConnectorsField({ form, t, value, onChange, id }: FormFieldCtx & Injected<number[]>) {
  const { i18n } = useTranslation();
  const stationId = Form.useWatch('stationId', form) as number | undefined;
  const chosen = (Form.useWatch('serialNumbers', form) as string[] | undefined) ?? [];
  const { data } = useStationPoints(stationId);
  const numbers = new Set<number>([0]);
  for (const p of data ?? []) if (chosen.includes(p.serialNumber)) for (const c of p.connectors) numbers.add(c.connectorNo);
  for (const v of value ?? []) numbers.add(v);
  return (
    <Select
      id={id}
      key={i18n.language}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.chargingProfile.connectors') })}
      options={[...numbers]
        .sort((a, b) => a - b)
        .map((n) => ({ value: n, label: n === 0 ? t('chargingProfile.connectorPoint') : String(n) }))}
      data-testid="profile-connectors"
    />
  );
}
