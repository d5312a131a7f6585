import type { DeviceModelItem } from '@csms/contract';
import { Flex, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const ATTRIBUTE_TYPES = ['Actual', 'Target', 'MinSet', 'MaxSet'];
const MUTABILITIES = ['ReadOnly', 'ReadWrite', 'WriteOnly'];

/** Whether a row matches the filter: its component or variable name (or instance) contains the text. */
export function matchesDeviceModel(item: DeviceModelItem, filter: string) {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return [item.component, item.componentInstance, item.variable, item.variableInstance].some((s) => s?.toLowerCase().includes(f));
}

/**
 * An OCPP 2.0.1 charger's device model (GetBaseReport FullInventory), one row per attribute: the
 * component with its EVSE and connector, the variable, the attribute's kind and value, unit and access.
 */
export function DeviceModelTable({ items, loading }: { items: DeviceModelItem[]; loading: boolean }) {
  const { t } = useTranslation();
  const withInstance = (name: string, instance: string | null) => (instance ? `${name} (${instance})` : name);
  return (
    <Table<DeviceModelItem>
      data-testid="device-model"
      size="small"
      rowKey={(r) => [r.component, r.componentInstance, r.evseId, r.connectorId, r.variable, r.variableInstance, r.type].join('\u0000')}
      loading={loading}
      dataSource={items}
      pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
      scroll={{ y: 520 }}
      columns={[
        {
          key: 'component',
          title: t('ocppLog.deviceModel.component'),
          width: 280,
          render: (_: unknown, r: DeviceModelItem) => (
            <Flex gap={4} wrap align="center">
              <span>{withInstance(r.component, r.componentInstance)}</span>
              {r.evseId !== null && <Tag>{t('ocppLog.deviceModel.evse', { id: r.evseId })}</Tag>}
              {r.connectorId !== null && <Tag>{t('ocppLog.deviceModel.connector', { id: r.connectorId })}</Tag>}
            </Flex>
          ),
        },
        {
          key: 'variable',
          title: t('ocppLog.deviceModel.variable'),
          width: 260,
          render: (_: unknown, r: DeviceModelItem) => withInstance(r.variable, r.variableInstance),
        },
        {
          key: 'type',
          dataIndex: 'type',
          title: t('ocppLog.deviceModel.type'),
          width: 150,
          render: (v: string) => (ATTRIBUTE_TYPES.includes(v) ? t(`ocppLog.deviceModel.types.${v}`) : v),
        },
        {
          key: 'value',
          title: t('fields.pointAction.value'),
          render: (_: unknown, r: DeviceModelItem) =>
            r.value !== null ? (
              r.value
            ) : (
              <Typography.Text type="secondary">
                {r.mutability === 'WriteOnly' ? t('ocppLog.deviceModel.hidden') : t('ocppLog.config.noValue')}
              </Typography.Text>
            ),
        },
        { key: 'unit', dataIndex: 'unit', title: t('ocppLog.config.unit'), width: 80 },
        {
          key: 'mutability',
          dataIndex: 'mutability',
          title: t('ocppLog.deviceModel.mutability'),
          width: 110,
          render: (v: string) => (
            <Tag color={v === 'ReadOnly' ? 'default' : 'processing'}>
              {MUTABILITIES.includes(v) ? t(`ocppLog.deviceModel.mutabilities.${v}`) : v}
            </Tag>
          ),
        },
        { key: 'dataType', dataIndex: 'dataType', title: t('ocppLog.deviceModel.dataType'), width: 120 },
      ]}
    />
  );
}
