import { api } from '@csms/contract';
import { Form, Input, Radio } from 'antd';
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
    (await call(api.firmwareVersion.list, { query: { page: 1, limit: 50, version: text || undefined } }, { silent: true })).list.map(
      (v) => ({
        value: v.id,
        label: `${v.version} · ${v.fileName}`,
      }),
    ),
};

/** Points of the chosen station, several at once. */
export function UpgradePointsField({ form, t, value, onChange, id }: FormFieldCtx & Injected<string[]>) {
  return (
    <StationPointsSelect
      form={form}
      {...(value !== undefined ? { value } : {})}
      {...(onChange ? { onChange } : {})}
      {...(id !== undefined ? { id } : {})}
      noStation={t('firmware.chooseStationFirst')}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.firmwareUpgrade.serialNumbers') })}
      testId="upgrade-points"
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
