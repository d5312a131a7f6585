import type { PointOption } from '@csms/contract';
import { Form, Select } from 'antd';
import type { ReactNode } from 'react';
import type { FormFieldCtx } from '../resource/types';
import { pointLabel, useStationPoints, type PointNarrowing } from './station-point-options';

/**
 * Several points of the form's chosen `stationId`, by serial number: disabled, with `noStation` as
 * its hint, until a station is chosen. The form fields that pick points of one station wrap it.
 * `narrow` (a model, a firmware version) filters the points too, and enables the picker on its own;
 * `footer` renders under it with the points offered (e.g. a "choose all" link).
 */
export function StationPointsSelect({
  form,
  value,
  onChange,
  id,
  placeholder,
  noStation,
  testId,
  narrow = {},
  footer,
}: Pick<FormFieldCtx, 'form'> & {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
  placeholder: string;
  noStation: string;
  testId?: string;
  narrow?: PointNarrowing;
  footer?: (offered: PointOption[]) => ReactNode;
}) {
  const stationId = Form.useWatch('stationId', form) as number | undefined;
  const { data, isFetching } = useStationPoints(stationId, narrow);
  const off = stationId === undefined && !narrow.model && !narrow.firmwareVersion;
  const select = (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      loading={isFetching}
      disabled={off}
      placeholder={off ? noStation : placeholder}
      showSearch={{ optionFilterProp: 'label' }}
      options={(data ?? []).map((p) => ({ value: p.serialNumber, label: pointLabel(p) }))}
      data-testid={testId}
    />
  );
  return footer ? (
    <>
      {select}
      {!off && footer(data ?? [])}
    </>
  ) : (
    select
  );
}
