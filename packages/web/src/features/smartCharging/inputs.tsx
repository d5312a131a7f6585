import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { pointLabel, useStationPoints } from '../../shared/options/station-point-options';
import { StationPointsSelect } from '../../shared/options/station-points-select';
import type { FormFieldCtx } from '../../shared/resource/types';

interface Injected<V> {
  value?: V;
  onChange?: (v: V) => void;
  id?: string;
}

/** Forms whose `serialNumbers` pick points of their `stationId` (the label is `fields.<resource>.serialNumbers`). */
type PointsResource = 'chargingProfile' | 'localController';

/** Points of the chosen station, several at once (the shared station-points select). */
export function PointsField({
  form,
  t,
  value,
  onChange,
  id,
  resource = 'chargingProfile',
  testId = 'profile-points',
}: FormFieldCtx & Injected<string[]> & { resource?: PointsResource; testId?: string }) {
  return (
    <StationPointsSelect
      form={form}
      {...(value !== undefined ? { value } : {})}
      {...(onChange ? { onChange } : {})}
      {...(id !== undefined ? { id } : {})}
      noStation={t('chargingProfile.chooseStationFirst')}
      placeholder={t('kit.selectPlaceholder', { field: t(`fields.${resource}.serialNumbers`) })}
      testId={testId}
    />
  );
}

/**
 * A local controller's priority points: offered among the points chosen above it. A priority point
 * taken out of those stays shown, and the contract's rule names it on save rather than dropping it unseen.
 */
export function PriorityPointsField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string[]>) {
  const stationId = Form.useWatch('stationId', form) as number | undefined;
  const chosen = (Form.useWatch('serialNumbers', form) as string[] | undefined) ?? [];
  const { data } = useStationPoints(stationId);
  const names = new Map((data ?? []).map((p) => [p.serialNumber, p] as const));
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      disabled={chosen.length === 0 && !value?.length}
      placeholder={
        chosen.length === 0
          ? t('localController.choosePointsFirst')
          : t('kit.selectPlaceholder', { field: t('fields.localController.prioritySerialNumbers') })
      }
      showSearch={{ optionFilterProp: 'label' }}
      options={chosen.map((sn) => {
        const p = names.get(sn);
        return { value: sn, label: p ? pointLabel(p) : sn };
      })}
      data-testid="controller-priority"
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
