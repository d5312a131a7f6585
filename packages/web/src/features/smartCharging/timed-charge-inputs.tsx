import { DatePicker, Select, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { chargeUserOptions } from '../../shared/options/charge-user-options';
import { RemoteSelect } from '../../shared/resource/inputs';
import type { FormFieldCtx } from '../../shared/resource/types';
import { ChosenPointField, type FieldValue } from '../../shared/options/chosen-point-fields';
import { useChosenPoint } from '../../shared/options/station-point-options';

/** One point of the chosen station. A new point's connectors start as its only one, else empty. */
export function TimedPointField(ctx: FormFieldCtx & FieldValue<string>) {
  return (
    <ChosenPointField
      {...ctx}
      chooseStationFirst="chargingProfile.chooseStationFirst"
      fieldKey="fields.timedCharge.serialNumber"
      onPicked={(point) => {
        const connectors = point?.connectors ?? [];
        ctx.form.setFieldValue('connectors', connectors.length === 1 ? [connectors[0]!.connectorNo] : undefined);
      }}
      testId="timed-point"
    />
  );
}

/** Connectors of the chosen point (a number already held stays listed, for the server to judge). */
export function TimedConnectorsField({ form, t, value, onChange, id }: FormFieldCtx & FieldValue<number[]>) {
  const { point } = useChosenPoint(form);
  const numbers = new Set<number>((point?.connectors ?? []).map((c) => c.connectorNo));
  for (const v of value ?? []) numbers.add(v);
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      disabled={!point && !value?.length}
      placeholder={point ? t('kit.selectPlaceholder', { field: t('fields.timedCharge.connectors') }) : t('timedCharge.choosePointFirst')}
      options={[...numbers].sort((a, b) => a - b).map((n) => ({ value: n, label: String(n) }))}
      data-testid="timed-connectors"
    />
  );
}

/** The charge user, among the chosen point's provider's (the server refuses another provider's). */
export function TimedChargeUserField({ form, record, t, value, onChange, id }: FormFieldCtx & FieldValue<number>) {
  const { point } = useChosenPoint(form);
  const providerId = point?.providerId;
  // The edited record's user is labelled even when the first 50 the server offers do not hold it.
  const knownId = record?.chargeUserId as number | undefined;
  const knownLabel = String(record?.chargeUserAccount ?? '');
  const remote = useMemo(
    () => chargeUserOptions(providerId, knownId ? { value: knownId, label: knownLabel } : null),
    [providerId, knownId, knownLabel],
  );
  return (
    <RemoteSelect
      id={id}
      remote={remote}
      value={value}
      onChange={onChange}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.timedCharge.chargeUserId') })}
      data-testid="timed-user"
    />
  );
}

/** First and last day of the valid period, in one range picker (the form holds `[from, to]`). */
export function ValidPeriodInput({ value, onChange, id, t }: Pick<FormFieldCtx, 't'> & FieldValue<[Dayjs, Dayjs] | null>) {
  return (
    <DatePicker.RangePicker
      id={id}
      value={value ?? null}
      onChange={(v) => onChange?.(v && v[0] && v[1] ? [v[0], v[1]] : null)}
      placeholder={[t('fields.timedCharge.validFrom'), t('fields.timedCharge.validTo')]}
      style={{ width: '100%' }}
      data-testid="timed-period"
    />
  );
}

const HHMM = 'HH:mm';

/** `HH:mm` as today's time (parsing by format would need a dayjs plugin). */
function toDay(v: string) {
  const [h = 0, m = 0] = v.split(':').map(Number);
  return dayjs().hour(h).minute(m).second(0).millisecond(0);
}

/** The daily start, `HH:mm` on the station's wall clock; empty clears it. */
export function StartTimeInput({ value, onChange, id, t }: Pick<FormFieldCtx, 't'> & FieldValue<string | undefined>) {
  return (
    <TimePicker
      id={id}
      format={HHMM}
      needConfirm={false}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.timedCharge.startTime') })}
      style={{ width: '100%' }}
      value={value && /^\d{2}:\d{2}$/.test(value) ? toDay(value) : null}
      onChange={(d) => onChange?.(d ? d.format(HHMM) : undefined)}
      data-testid="timed-start"
    />
  );
}
