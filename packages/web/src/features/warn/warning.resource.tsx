import { StopOutlined } from '@ant-design/icons';
import {
  warningKinds,
  warningLevels,
  warningSources,
  warningStates,
  type WarningKind,
  type WarningLevel,
  type WarningSource,
  type WarningState,
  type WarningDto,
  warnApi,
} from '@csms/contract';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { stationOptions } from '../../shared/options/station-point-options';
import { confirmAction } from '../../shared/resource/row-actions';
import { defineResource } from '../../shared/resource/types';
import { enumOptions } from './station-weather.resource';
import { LevelTag, SourceText, StateTag } from './warn-cells';

function KindText({ kind }: { kind: WarningKind }) {
  const { t } = useTranslation();
  return <>{t(`enums.warningKind.${kind}`)}</>;
}

const permi = (ep: { access: unknown }) => {
  const a = ep.access as { permi?: string };
  return a.permi ? [a.permi] : [];
};

/**
 * The warnings themselves: the forecast's (read-only, ended by the forecast or by hand) and the ones
 * operators enter, edit and remove. `onSaved` refreshes the station list, whose tags show them.
 */
export function warningResource(onChanged: () => void) {
  return defineResource({
    name: 'warn',
    api: {
      list: warnApi.list,
      get: warnApi.get,
      add: warnApi.add,
      edit: warnApi.edit,
      remove: warnApi.remove,
      export: warnApi.export,
    },
    exportSource: 'warn',
    texts: { createTitle: 'warn.createTitle', saved: 'warn.saved' },
    columns: [
      { key: 'id', width: 90 },
      { key: 'stationName', width: 160, ellipsis: true },
      { key: 'kind', width: 110, render: (v) => <KindText kind={v as WarningKind} /> },
      { key: 'level', width: 90, render: (v) => <LevelTag level={v as WarningLevel} /> },
      { key: 'day', width: 120, sorter: true },
      { key: 'state', width: 100, render: (v) => <StateTag state={v as WarningState} /> },
      { key: 'source', width: 120, render: (v) => <SourceText source={v as WarningSource} /> },
      { key: 'value', width: 110 },
      { key: 'threshold', width: 100 },
      { key: 'note', width: 200, ellipsis: true },
      { key: 'createdByName', width: 110 },
      { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
      { key: 'endedAt', kind: 'datetime', width: 170 },
      { key: 'endedByName', width: 110 },
      { key: 'providerName', width: 140, defaultHidden: true },
    ],
    search: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'kind', kind: 'select', options: enumOptions(warningKinds, 'warningKind') },
      { key: 'level', kind: 'select', options: enumOptions(warningLevels, 'warningLevel') },
      { key: 'source', kind: 'select', options: enumOptions(warningSources, 'warningSource') },
      { key: 'state', kind: 'select', options: enumOptions(warningStates, 'warningState') },
      { key: 'days', kind: 'dateRange', keys: ['startDay', 'endDay'], label: 'warn.days' },
    ],
    form: [
      { key: 'stationId', kind: 'select', remote: stationOptions, on: 'create' },
      { key: 'kind', kind: 'select', options: enumOptions(warningKinds, 'warningKind'), props: { allowClear: false } },
      { key: 'level', kind: 'select', options: enumOptions(warningLevels, 'warningLevel'), props: { allowClear: false } },
      { key: 'day', kind: 'date', extra: () => 'warn.dayHint' },
      { key: 'note', kind: 'textarea', span: 24, props: { rows: 3, maxLength: 500, showCount: true } },
    ],
    // No day by default: the browser's today may not be the station's.
    initialValues: () => ({ level: 'medium' }),
    // The forecast's warnings are the forecast's; an ended one is history.
    rowReadOnly: (row) => row.source !== 'manual' || row.endedAt !== null,
    onSaved: () => onChanged(),
    rowActions: [
      {
        ...confirmAction<WarningDto>({
          key: 'end',
          label: 'warn.end',
          permi: permi(warnApi.end),
          hidden: (row) => row.endedAt !== null,
          content: 'warn.endConfirm',
          params: (row) => ({ id: row.id }),
          run: async (row) => {
            await call(warnApi.end, { body: { ids: [row.id] } });
            onChanged();
          },
          success: 'warn.ended',
        }),
        icon: <StopOutlined />,
      },
    ],
  });
}
