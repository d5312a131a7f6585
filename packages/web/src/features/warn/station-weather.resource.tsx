import { warningKinds, warningLevels, type ForecastDayDto, type WarningDto, warnApi } from '@csms/contract';
import { stationOptions } from '../../shared/options/station-point-options';
import { providerOptions } from '../../shared/options/provider-options';
import { defineResource, type Option } from '../../shared/resource/types';
import { ForecastDays, WarningTags } from './warn-cells';

export const enumOptions = <T extends string>(values: readonly T[], vocabulary: string): Option[] =>
  values.map((v) => ({ value: v, label: `enums.${vocabulary}.${v}` }));

/**
 * The stations with their forecast and active warnings (spec §7 `searchStationWeather`, the search form's
 * version of `getAllStationWeather`): one row per station in the caller's scope, its days from today on
 * (or within the days searched) and its warnings as tags coloured by level.
 */
export const stationWeatherResource = defineResource({
  name: 'stationWeather',
  api: { list: warnApi.searchStationWeather, export: warnApi.exportStationWeather },
  exportSource: 'stationWeather',
  rowKey: 'stationId',
  hideActions: ['detail', 'edit', 'remove'],
  columns: [
    { key: 'stationName', width: 170, fixed: 'left', ellipsis: true },
    { key: 'days', label: 'warn.forecast', width: 430, render: (v) => <ForecastDays days={v as ForecastDayDto[]} /> },
    { key: 'warnings', width: 260, render: (v) => <WarningTags warnings={v as WarningDto[]} /> },
    { key: 'fetchedAt', kind: 'datetime', width: 170 },
    { key: 'providerName', width: 140 },
    { key: 'timeZone', width: 140, defaultHidden: true },
  ],
  search: [
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'providerId', kind: 'select', remote: providerOptions },
    { key: 'kind', kind: 'select', options: enumOptions(warningKinds, 'warningKind') },
    { key: 'level', kind: 'select', options: enumOptions(warningLevels, 'warningLevel') },
    { key: 'atRisk', kind: 'select', options: [{ value: 'true', label: 'warn.atRiskOnly' }] },
    { key: 'days', kind: 'dateRange', keys: ['startDay', 'endDay'], label: 'warn.days' },
  ],
});
