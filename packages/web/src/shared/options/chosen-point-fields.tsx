import type { PointOption } from '@csms/contract';
import { Select } from 'antd';
import type { FormFieldCtx } from '../resource/types';
import { pointLabel, useChosenPoint } from './station-point-options';

/** What Form.Item hands a custom field. */
export interface FieldValue<V> {
  value?: V;
  onChange?: (v: V) => void;
  id?: string;
}

/**
 * One point of the form's chosen station (its `stationId` field), disabled until a station is chosen.
 * `onPicked` adjusts what depends on the point (its connectors); `placeholderKey` names the field.
 */
export function ChosenPointField({
  form,
  t,
  value,
  onChange,
  id,
  chooseStationFirst,
  fieldKey,
  onPicked,
  testId,
}: FormFieldCtx &
  FieldValue<string> & {
    chooseStationFirst: string;
    /** The field's label key, for the placeholder. */
    fieldKey: string;
    onPicked?: (point: PointOption | undefined) => void;
    testId?: string;
  }) {
  const { stationId, points, isFetching } = useChosenPoint(form);
  return (
    <Select
      id={id}
      allowClear
      value={value}
      onChange={(v: string | undefined) => {
        onChange?.(v as string);
        onPicked?.(points.find((p) => p.serialNumber === v));
      }}
      loading={isFetching}
      disabled={stationId === undefined}
      placeholder={stationId === undefined ? t(chooseStationFirst) : t('kit.selectPlaceholder', { field: t(fieldKey) })}
      showSearch={{ optionFilterProp: 'label' }}
      options={points.map((p) => ({ value: p.serialNumber, label: pointLabel(p) }))}
      data-testid={testId}
    />
  );
}

/** 0 (labelled `zeroLabel`: any connector, the whole point) or one of the chosen point's connectors. */
export function ChosenConnectorField({
  form,
  t,
  value,
  onChange,
  id,
  zeroLabel,
  choosePointFirst,
  testId,
}: FormFieldCtx & FieldValue<number> & { zeroLabel: string; choosePointFirst: string; testId?: string }) {
  const { point } = useChosenPoint(form);
  const numbers = new Set<number>([0, ...(point?.connectors ?? []).map((c) => c.connectorNo)]);
  if (value !== undefined) numbers.add(value);
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      disabled={!point}
      placeholder={t(choosePointFirst)}
      options={[...numbers].sort((a, b) => a - b).map((n) => ({ value: n, label: n === 0 ? t(zeroLabel) : String(n) }))}
      data-testid={testId}
    />
  );
}
