import { commonComponents, componentActions, type ComponentAction, type ComponentUseDto, componentApi } from '@csms/contract';
import { Tag, Typography } from 'antd';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource, type ColumnDef, type RemoteOptions } from '../../shared/resource/types';
import { Connector } from './work-order-inputs';

const common = new Set<string>(commonComponents);

/** A record's component: a common one by its name in the console's language, one typed by hand as typed. */
export function ComponentName({ value }: { value: string }) {
  const { t } = useTranslation();
  if (common.has(value)) return <>{t(`enums.component.${value}`)}</>;
  return (
    <Typography.Text title={t('componentUse.typed')} data-typed="true">
      {value}
    </Typography.Text>
  );
}

const actionColor: Record<ComponentAction, string> = { replaced: 'blue', repaired: 'green' };

export function ActionTag({ action }: { action: ComponentAction }) {
  const { t } = useTranslation();
  return (
    <Tag color={actionColor[action]} data-action={action}>
      {t(`enums.componentAction.${action}`)}
    </Tag>
  );
}

/** `getComName`'s names as options: the common ones named in the console's language, the typed ones as typed. */
const nameOption = (n: { value: string; common: boolean }) => ({
  value: n.value,
  label: n.common ? i18n.t(`enums.component.${n.value}`) : n.value,
});

export const componentOptions: RemoteOptions = {
  key: 'componentNames',
  load: async () => (await call(componentApi.names, { query: {} })).map(nameOption),
  search: async (name, values) => {
    const found = (await call(componentApi.names, { query: { name } })).map(nameOption);
    // The chosen name keeps its label though the text typed no longer finds it.
    const missing = values
      .map(String)
      .filter((v) => !found.some((o) => o.value === v))
      .map((v) => nameOption({ value: v, common: common.has(v) }));
    return [...found, ...missing];
  },
};

/** The records' columns; the point's history (its drawer) leaves out the point's own. */
export const componentUseColumns: ColumnDef<ComponentUseDto>[] = [
  { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
  { key: 'stationName', width: 150, ellipsis: true },
  { key: 'serialNumber', width: 160 },
  { key: 'pointName', width: 130, ellipsis: true },
  { key: 'connectorNo', width: 100, render: (v) => <Connector n={v as number} /> },
  { key: 'component', width: 170, render: (v) => <ComponentName value={String(v)} /> },
  { key: 'action', width: 100, render: (v) => <ActionTag action={v as ComponentAction} /> },
  { key: 'quantity', width: 90, sorter: true },
  { key: 'note', width: 200, ellipsis: true },
  { key: 'taskId', width: 130 },
  { key: 'faultCode', width: 150, render: (v) => (typeof v === 'string' && v ? <Typography.Text code>{v}</Typography.Text> : null) },
  { key: 'actorName', width: 120 },
  { key: 'providerName', width: 140, defaultHidden: true },
];

/**
 * Maintenance records (spec §2 `/workOrder/maintainManage`, §7 "Components"; issue 17): what a
 * resolved repair replaced or repaired on which point, by whom and when, from which work order.
 * Read-only: the records come from the service men's reports. `?serialNumber=` opens one point's.
 */
export const maintenanceRecordsResource = defineResource({
  name: 'componentUse',
  api: { list: componentApi.list, export: componentApi.export },
  exportSource: 'componentUse',
  columns: componentUseColumns,
  search: [
    { key: 'serialNumber', kind: 'text' },
    { key: 'component', kind: 'select', remote: componentOptions },
    { key: 'action', kind: 'select', options: componentActions.map((a) => ({ value: a, label: `enums.componentAction.${a}` })) },
    { key: 'taskId', kind: 'text' },
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
  ],
});
