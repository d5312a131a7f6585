import { materialCreate, materialEdit, type MaterialDto, materialApi } from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { providerOptions } from '../../shared/options/provider-options';
import { defineResource } from '../../shared/resource/types';

function Stock({ row }: { row: MaterialDto }) {
  const { t } = useTranslation();
  return row.stock === 0 ? (
    <Tag color="error" data-stock={0}>
      {t('material.lowStock')}
    </Tag>
  ) : (
    <span data-stock={row.stock}>{row.stock}</span>
  );
}

/** The parts catalogue (spec §3 "Spare part"): parts number, name, model, unit, stock, per provider. */
export const materialResource = defineResource({
  name: 'material',
  api: {
    list: materialApi.list,
    get: materialApi.get,
    add: materialApi.add,
    edit: materialApi.edit,
    remove: materialApi.remove,
    export: materialApi.export,
  },
  exportSource: 'material',
  formSchema: { create: materialCreate, edit: materialEdit },
  columns: [
    { key: 'id', width: 80, sorter: true, defaultHidden: true },
    { key: 'partsNumber', width: 160, fixed: 'left', sorter: true },
    { key: 'name', width: 180, ellipsis: true },
    { key: 'model', width: 140 },
    { key: 'unit', width: 80 },
    { key: 'stock', width: 110, sorter: true, render: (_v, row) => <Stock row={row} /> },
    { key: 'note', width: 200, ellipsis: true },
    { key: 'providerName', width: 150 },
    { key: 'createTime', kind: 'datetime', width: 170, sorter: true, defaultHidden: true },
    { key: 'updateTime', kind: 'datetime', width: 170, sorter: true },
  ],
  search: [
    { key: 'partsNumber', kind: 'text' },
    { key: 'name', kind: 'text' },
    { key: 'model', kind: 'text' },
    { key: 'maxStock', kind: 'number' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  initialValues: () => ({ stock: 0 }),
  form: [
    { key: 'providerId', kind: 'select', remote: providerOptions, on: 'create' },
    { key: 'partsNumber', kind: 'text', props: { maxLength: 50 } },
    { key: 'name', kind: 'text', props: { maxLength: 100 } },
    { key: 'model', kind: 'text', props: { maxLength: 100 } },
    { key: 'unit', kind: 'text', props: { maxLength: 20 } },
    { key: 'stock', kind: 'number', props: { min: 0, precision: 0 } },
    { key: 'note', kind: 'textarea', span: 24, props: { rows: 3, maxLength: 500 } },
  ],
});
