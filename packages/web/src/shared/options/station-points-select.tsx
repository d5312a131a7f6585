import { Form, Select } from 'antd';
import type { FormFieldCtx } from '../resource/types';
import { pointLabel, useStationPoints } from './station-point-options';

/**
 * Several points of the form's chosen `stationId`, by serial number: disabled, with `noStation` as
 * its hint, until a station is chosen. The form fields that pick points of one station wrap it.
 */
export function StationPointsSelect({
  form,
  value,
  onChange,
  id,
  placeholder,
  noStation,
  testId,
}: Pick<FormFieldCtx, 'form'> & {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
  placeholder: string;
  noStation: string;
  testId?: string;
}) {
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
      placeholder={stationId === undefined ? noStation : placeholder}
      showSearch={{ optionFilterProp: 'label' }}
      options={(data ?? []).map((p) => ({ value: p.serialNumber, label: pointLabel(p) }))}
      data-testid={testId}
    />
  );
}
