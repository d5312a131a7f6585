import { firmwareVersionApi, pointApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Radio, Select } from 'antd';
import { call } from '../../shared/api/client';
import { StationPointsSelect } from '../../shared/options/station-points-select';
import { RemoteSelect } from '../../shared/resource/inputs';
import type { FormFieldCtx, RemoteOptions } from '../../shared/resource/types';

interface Injected<V> {
  value?: V;
  onChange?: (v: V) => void;
  id?: string;
}

export type Source = 'version' | 'location';

/** Packages of version management, "version · file name", searched by version on the server. */
export const versionOptions: RemoteOptions = {
  key: 'firmwareVersions',
  load: () => versionOptions.search!('', []),
  search: async (text) =>
    (await call(firmwareVersionApi.list, { query: { page: 1, limit: 50, version: text || undefined } }, { silent: true })).list.map(
      (v) => ({
        value: v.id,
        label: `${v.version} · ${v.fileName}`,
      }),
    ),
};

/** The form's fields that only narrow the point picker: the model and the firmware version the chargers reported. */
export type PointFilterKey = 'pointModel' | 'pointFirmware';

/** Points of the chosen station, or of the chosen model or current version, several at once; all of those shown in one click. */
export function UpgradePointsField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string[]>) {
  const model = Form.useWatch('pointModel', form) as string | undefined;
  const firmwareVersion = Form.useWatch('pointFirmware', form) as string | undefined;
  return (
    <StationPointsSelect
      form={form}
      {...(value !== undefined ? { value } : {})}
      {...(onChange ? { onChange } : {})}
      {...(id !== undefined ? { id } : {})}
      narrow={{ model, firmwareVersion }}
      noStation={t('firmware.chooseStationFirst')}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.firmwareUpgrade.serialNumbers') })}
      testId="upgrade-points"
      footer={(offered) =>
        offered.length > 0 && (
          <Button
            type="link"
            size="small"
            style={{ paddingInline: 0 }}
            onClick={() => onChange?.([...new Set([...(value ?? []), ...offered.map((p) => p.serialNumber)])])}
            data-testid="upgrade-points-all"
          >
            {t('firmware.chooseAllShown', { n: offered.length })}
          </Button>
        )
      }
    />
  );
}

/**
 * The models, or the firmware versions, the points of the chosen station (of every station while
 * none is chosen) reported: choosing one narrows the point picker to those points.
 */
export function PointFilterField({ form, t, value, onChange, id, of }: FormFieldCtx & Injected<string> & { of: PointFilterKey }) {
  const stationId = Form.useWatch('stationId', form) as number | undefined;
  const { data, isFetching } = useQuery({
    queryKey: [pointApi.options.path, 'station', stationId, undefined, undefined],
    queryFn: ({ signal }) => call(pointApi.options, { body: { stationId } }, { signal }),
  });
  const facts = (data ?? []).map((p) => (of === 'pointModel' ? p.model : p.firmwareVersion));
  const values = [...new Set(facts.filter((v): v is string => !!v))].sort();
  return (
    <Select
      id={id}
      allowClear
      showSearch
      value={value}
      onChange={(v: string | undefined) => onChange?.(v as string)}
      loading={isFetching}
      placeholder={t('firmware.anyValue')}
      options={values.map((v) => ({ value: v, label: v }))}
      data-testid={of === 'pointModel' ? 'upgrade-model' : 'upgrade-firmware'}
    />
  );
}

/** A wave's time limit: only for an upgrade in waves. */
export function WaveTimeoutField({ form, t, value, onChange, id }: FormFieldCtx & Injected<number | null>) {
  const waveSize = Form.useWatch('waveSize', form) as number | null | undefined;
  const off = waveSize === undefined || waveSize === null;
  return (
    <InputNumber
      id={id}
      min={1}
      max={10_080}
      precision={0}
      value={off ? null : value}
      onChange={(v) => onChange?.(v)}
      disabled={off}
      placeholder={off ? t('firmware.wavesOff') : t('firmware.waveTimeoutDefault')}
      style={{ width: '100%' }}
      data-testid="upgrade-wave-timeout"
    />
  );
}

/** A package or a typed URL: choosing one empties the other (the contract takes exactly one). */
export function SourceField({ form, t, value, onChange, id }: FormFieldCtx & Injected<Source>) {
  return (
    <Radio.Group
      id={id}
      value={value}
      onChange={(e) => {
        const next = e.target.value as Source;
        onChange?.(next);
        const other = next === 'version' ? 'location' : 'versionId';
        form.setFields([{ name: other, value: undefined, errors: [] }]);
      }}
      options={[
        { value: 'version', label: t('firmware.sourceVersion') },
        { value: 'location', label: t('firmware.sourceLocation') },
      ]}
      data-testid="upgrade-source"
    />
  );
}

/** The package, while the source is a package. */
export function VersionField({ form, t, value, onChange, id }: FormFieldCtx & Injected<number>) {
  const source = (Form.useWatch('source', form) as Source | undefined) ?? 'version';
  const off = source !== 'version';
  return (
    <RemoteSelect
      id={id}
      remote={versionOptions}
      value={off ? undefined : value}
      onChange={onChange}
      disabled={off}
      placeholder={off ? t('firmware.useVersionSource') : t('kit.selectPlaceholder', { field: t('fields.firmwareUpgrade.versionId') })}
      data-testid="upgrade-version"
    />
  );
}

/** The typed URL, while the source is a URL. */
export function LocationField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string>) {
  const source = Form.useWatch('source', form) as Source | undefined;
  const off = source !== 'location';
  return (
    <Input
      id={id}
      value={off ? undefined : value}
      onChange={(e) => onChange?.(e.target.value)}
      disabled={off}
      placeholder={off ? t('firmware.useLocationSource') : t('kit.inputPlaceholder', { field: t('fields.firmwareUpgrade.location') })}
      data-testid="upgrade-location"
    />
  );
}
