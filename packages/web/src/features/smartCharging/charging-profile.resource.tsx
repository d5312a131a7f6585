import {
  chargingRateUnits,
  MAX_OPERATOR_STACK_LEVEL,
  profileKinds,
  profilePurposes,
  recurrencyKinds,
  type ChargingProfileDto,
  type ProfileSendResult,
  chargingProfileApi,
} from '@csms/contract';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { ConnectorsField, PointsField } from './inputs';
import { PeriodsInput } from './periods-input';
import { TargetsTable } from './targets';

const permi = (action: string) => `smart:chargingProfile:${action}`;
const enumOptions = (group: string, values: readonly string[]) => values.map((v) => ({ value: v, label: `enums.${group}.${v}` }));

function Periods({ form, ...injected }: FormFieldCtx & { value?: never; onChange?: never; id?: string }) {
  const unit = Form.useWatch('chargingRateUnit', form) as string | undefined;
  return <PeriodsInput {...injected} unit={unit} />;
}

/** What a periods column shows: `0 s 11000 W · 3600 s 7000 W`. */
export const periodsText = (r: Pick<ChargingProfileDto, 'periods' | 'chargingRateUnit'>) =>
  r.periods.map((p) => `${p.startPeriod} s ${p.limit} ${r.chargingRateUnit}${p.numberPhases ? ` ×${p.numberPhases}` : ''}`).join(' · ');

export interface ProfileActions {
  sent: (profile: ChargingProfileDto, results: ProfileSendResult[]) => void;
  clear: (profile: ChargingProfileDto) => void;
}

/**
 * The central system's charging profiles (spec §3, OCPP 1.6 SetChargingProfile): kept per station,
 * sent to the chosen points and connectors, each charger's answer shown under the row.
 */
export function chargingProfileResource(actions: ProfileActions) {
  return defineResource({
    name: 'chargingProfile',
    api: {
      list: chargingProfileApi.list,
      get: chargingProfileApi.get,
      add: chargingProfileApi.add,
      edit: chargingProfileApi.edit,
      remove: chargingProfileApi.remove,
      export: chargingProfileApi.export,
    },
    exportSource: 'chargingProfile',
    formWidth: 1000,
    columns: [
      { key: 'id', width: 110, sorter: true },
      { key: 'stationName', width: 150 },
      { key: 'purpose', width: 150, render: (v) => <EnumText group="profilePurpose" value={v} /> },
      { key: 'stackLevel', width: 90 },
      { key: 'chargingProfileKind', width: 100, render: (v) => <EnumText group="profileKind" value={v} /> },
      { key: 'recurrencyKind', width: 90, render: (v) => <EnumText group="recurrencyKind" value={v} />, defaultHidden: true },
      { key: 'chargingRateUnit', width: 80 },
      { key: 'periods', width: 220, render: (_v, r) => periodsText(r), ellipsis: true },
      { key: 'serialNumbers', width: 180, render: (v) => (v as string[]).join(', '), ellipsis: true },
      { key: 'connectors', width: 90, render: (v) => (v as number[]).join(', ') },
      { key: 'startSchedule', kind: 'datetime', width: 170, defaultHidden: true },
      { key: 'duration', width: 90, defaultHidden: true },
      { key: 'validFrom', kind: 'datetime', width: 170, defaultHidden: true },
      { key: 'validTo', kind: 'datetime', width: 170, defaultHidden: true },
      { key: 'acceptedCount', width: 110 },
      { key: 'providerName', width: 140, defaultHidden: true },
      { key: 'createdByName', width: 110, defaultHidden: true },
      { key: 'createTime', kind: 'datetime', width: 170 },
      { key: 'targets', hideInTable: true, wide: true, render: (v) => <TargetsTable targets={v as ChargingProfileDto['targets']} /> },
    ],
    search: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'purpose', kind: 'select', options: enumOptions('profilePurpose', profilePurposes) },
      { key: 'serialNumber', kind: 'text' },
    ],
    initialValues: () => ({
      purpose: 'TxDefaultProfile',
      stackLevel: 0,
      chargingProfileKind: 'Absolute',
      chargingRateUnit: 'W',
      connectors: [0],
      periods: [{ startPeriod: 0 }],
    }),
    form: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'serialNumbers', kind: 'custom', render: (ctx) => <PointsField {...ctx} /> },
      { key: 'connectors', kind: 'custom', render: (ctx) => <ConnectorsField {...ctx} /> },
      { key: 'purpose', kind: 'select', options: enumOptions('profilePurpose', profilePurposes) },
      { key: 'stackLevel', kind: 'number', props: { min: 0, max: MAX_OPERATOR_STACK_LEVEL, precision: 0 } },
      { key: 'chargingProfileKind', kind: 'select', options: enumOptions('profileKind', profileKinds) },
      { key: 'recurrencyKind', kind: 'select', options: enumOptions('recurrencyKind', recurrencyKinds) },
      { key: 'chargingRateUnit', kind: 'select', options: enumOptions('chargingRateUnit', chargingRateUnits) },
      { key: 'startSchedule', kind: 'datetime' },
      { key: 'duration', kind: 'number', props: { min: 1, precision: 0 } },
      { key: 'validFrom', kind: 'datetime' },
      { key: 'validTo', kind: 'datetime' },
      { key: 'minChargingRate', kind: 'number', props: { min: 0 } },
      {
        key: 'periods',
        kind: 'custom',
        span: 24,
        extra: () => 'chargingProfile.periodsHint',
        render: (ctx) => <Periods {...ctx} />,
      },
    ],
    expandable: { render: (row) => <TargetsTable targets={row.targets} /> },
    rowActions: [
      {
        key: 'send',
        label: 'chargingProfile.send',
        permi: [permi('send')],
        onClick: (row, ctx) =>
          ctx.confirm({
            content: 'chargingProfile.sendConfirm',
            params: { id: row.id, count: row.targets.length },
            onOk: async () => actions.sent(row, (await call(chargingProfileApi.send, { body: { id: row.id } })).results),
          }),
      },
      {
        key: 'clear',
        label: 'chargingProfile.clear',
        permi: [permi('clear')],
        danger: true,
        onClick: (row) => actions.clear(row),
      },
    ],
  });
}

/** An enum value in the user's language (`enums.<group>.<value>`). */
function EnumText({ group, value }: { group: string; value: unknown }) {
  const { t } = useTranslation();
  return <>{value ? t(`enums.${group}.${String(value)}`) : ''}</>;
}
