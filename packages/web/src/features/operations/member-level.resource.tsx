import { memberBases, memberLevelCreate, memberLevelEdit, type MemberLevelDto, memberLevelApi } from '@csms/contract';
import { providerOptions } from '../../shared/options/provider-options';
import { formatKwh, formatMoney, kwhToWh, unitsToCents } from '../../shared/format/units';
import { defineResource } from '../../shared/resource/types';
import { Threshold } from './threshold';

const basisOptions = memberBases.map((v) => ({ value: v, label: `enums.memberBasis.${v}` }));

/**
 * Membership levels (issue 19 item 1): name, order, threshold (spend in currency or energy in kWh over
 * the rolling 12 months), service-fee discount and validity. The form takes the threshold in currency
 * units or kWh; the API holds cents or Wh.
 */
export const memberLevelResource = defineResource({
  name: 'memberLevel',
  api: {
    list: memberLevelApi.list,
    get: memberLevelApi.get,
    add: memberLevelApi.add,
    edit: memberLevelApi.edit,
    remove: memberLevelApi.remove,
    export: memberLevelApi.export,
  },
  exportSource: 'memberLevel',
  formSchema: { create: memberLevelCreate, edit: memberLevelEdit },
  columns: [
    { key: 'id', width: 80, defaultHidden: true },
    { key: 'name', width: 140, fixed: 'left' },
    { key: 'sortOrder', width: 100, sorter: true },
    { key: 'basis', width: 120, render: (_v, row) => <Threshold row={row} part="basis" /> },
    { key: 'threshold', width: 150, render: (_v, row) => <Threshold row={row} part="value" /> },
    { key: 'discountPercent', width: 150 },
    { key: 'validityDays', width: 120 },
    { key: 'memberCount', width: 100 },
    { key: 'providerName', width: 150 },
    { key: 'updateTime', kind: 'datetime', width: 170 },
  ],
  search: [
    { key: 'name', kind: 'text' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  initialValues: () => ({ basis: 'spend', discountPercent: 0, validityDays: 365 }),
  toForm: (row: MemberLevelDto) => ({
    ...row,
    threshold: Number(row.basis === 'spend' ? formatMoney(row.threshold) : formatKwh(row.threshold)),
  }),
  toBody: (v) => ({
    ...v,
    threshold: v.basis === 'energy' ? kwhToWh(Number(v.threshold ?? 0)) : unitsToCents(Number(v.threshold ?? 0)),
  }),
  form: [
    { key: 'providerId', kind: 'select', remote: providerOptions, on: 'create' },
    { key: 'name', kind: 'text', props: { maxLength: 50 } },
    { key: 'sortOrder', kind: 'number', extra: () => 'memberLevel.sortOrderHint', props: { min: 1, max: 99, precision: 0 } },
    { key: 'basis', kind: 'select', options: basisOptions, props: { allowClear: false } },
    { key: 'threshold', kind: 'number', extra: () => 'memberLevel.thresholdHint', props: { min: 0, precision: 3 } },
    { key: 'discountPercent', kind: 'number', props: { min: 0, max: 100, precision: 0 } },
    { key: 'validityDays', kind: 'number', extra: () => 'memberLevel.validityHint', props: { min: 1, max: 3650, precision: 0 } },
  ],
});
