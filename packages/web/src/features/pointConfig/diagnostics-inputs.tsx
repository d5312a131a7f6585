import { DatePicker, Form, Input, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { StationPointsSelect } from '../../shared/options/station-points-select';
import type { FormFieldCtx } from '../../shared/resource/types';

interface Injected<V> {
  value?: V;
  onChange?: (v: V) => void;
  id?: string;
}

/** Where the charger uploads: the platform over HTTP or FTP (`transport`), or an address typed here (`location`). */
export type DiagnosticsTarget = 'http' | 'ftp' | 'location';

/** The log window as the range picker holds it; either end may be open. */
export type DiagnosticsWindow = [Dayjs | null, Dayjs | null] | null;

/** Points of the chosen station, several at once. */
export function DiagnosticsPointsField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string[]>) {
  return (
    <StationPointsSelect
      form={form}
      {...(value !== undefined ? { value } : {})}
      {...(onChange ? { onChange } : {})}
      {...(id !== undefined ? { id } : {})}
      noStation={t('ocppLog.diagnostics.chooseStationFirst')}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.diagnostics.serialNumbers') })}
      testId="diagnostics-points"
    />
  );
}

/** The platform over HTTP, over FTP, or another location; leaving "another location" clears the address. */
export function TargetField({ form, t, value, onChange, id }: FormFieldCtx & Injected<DiagnosticsTarget>) {
  return (
    <Radio.Group
      id={id}
      value={value}
      onChange={(e) => {
        const next = e.target.value as DiagnosticsTarget;
        onChange?.(next);
        if (next !== 'location') form.setFields([{ name: 'location', value: undefined, errors: [] }]);
      }}
      options={[
        { value: 'http', label: t('ocppLog.diagnostics.targetHttp') },
        { value: 'ftp', label: t('ocppLog.diagnostics.targetFtp') },
        { value: 'location', label: t('ocppLog.diagnostics.targetLocation') },
      ]}
      data-testid="diagnostics-target"
    />
  );
}

/** The typed address, while the target is another location. */
export function LocationField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string>) {
  const off = (Form.useWatch('transport', form) as DiagnosticsTarget | undefined) !== 'location';
  return (
    <Input
      id={id}
      value={off ? undefined : value}
      onChange={(e) => onChange?.(e.target.value)}
      disabled={off}
      placeholder={
        off ? t('ocppLog.diagnostics.useLocationTarget') : t('kit.inputPlaceholder', { field: t('fields.diagnostics.location') })
      }
      data-testid="diagnostics-location"
    />
  );
}

/** The period whose log entries the charger sends, to the minute; either end may stay open. */
export function WindowField({ t, value, onChange, id }: Pick<FormFieldCtx, 't'> & Injected<DiagnosticsWindow>) {
  return (
    <DatePicker.RangePicker
      id={id}
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      allowEmpty={[true, true]}
      value={value ?? null}
      onChange={(v) => onChange?.(v && (v[0] || v[1]) ? [v[0] ?? null, v[1] ?? null] : null)}
      placeholder={[t('fields.diagnostics.startTime'), t('fields.diagnostics.stopTime')]}
      style={{ width: '100%' }}
      data-testid="diagnostics-window"
    />
  );
}
