import { voucherKinds, voucherTemplateCreate, voucherTemplateEdit, type VoucherTemplateDto, voucherTemplateApi } from '@csms/contract';
import { formatMoney, unitsToCents } from '../../shared/format/units';
import { providerOptions } from '../../shared/options/provider-options';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource } from '../../shared/resource/types';
import { VoucherValue } from './voucher-value';

const kindOptions = voucherKinds.map((v) => ({ value: v, label: `enums.voucherKind.${v}` }));
const isAmount = (values: Record<string, unknown> | undefined) => values?.kind !== 'percent';

/**
 * Voucher templates (issue 19 item 3): amount or percent off the service fee, a minimum bill, the
 * stations (none: all), validity in days from issue or between fixed dates. Amounts are typed in
 * currency units; the API holds cents.
 */
export const voucherTemplateResource = defineResource({
  name: 'voucherTemplate',
  api: {
    list: voucherTemplateApi.list,
    get: voucherTemplateApi.get,
    add: voucherTemplateApi.add,
    edit: voucherTemplateApi.edit,
    remove: voucherTemplateApi.remove,
    export: voucherTemplateApi.export,
  },
  exportSource: 'voucherTemplate',
  formSchema: { create: voucherTemplateCreate, edit: voucherTemplateEdit },
  columns: [
    { key: 'id', width: 80, defaultHidden: true },
    { key: 'name', width: 150, fixed: 'left' },
    { key: 'kind', width: 160, render: (_v, row) => <VoucherValue row={row} part="kind" /> },
    { key: 'value', width: 110, render: (_v, row) => <VoucherValue row={row} part="value" /> },
    { key: 'minBillCents', width: 130, render: (v) => formatMoney(v) },
    { key: 'validDays', width: 100 },
    { key: 'validFrom', kind: 'datetime', width: 170 },
    { key: 'validTo', kind: 'datetime', width: 170 },
    { key: 'issuedCount', width: 90 },
    { key: 'usedCount', width: 90 },
    { key: 'providerName', width: 150 },
    { key: 'updateTime', kind: 'datetime', width: 170, defaultHidden: true },
  ],
  search: [
    { key: 'name', kind: 'text' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  initialValues: () => ({ kind: 'amount', minBillCents: 0, validDays: 30, stationIds: [] }),
  toForm: (row: VoucherTemplateDto) => ({
    ...row,
    value: row.kind === 'amount' ? Number(formatMoney(row.value)) : row.value,
    minBillCents: Number(formatMoney(row.minBillCents)),
  }),
  toBody: (v) => ({
    ...v,
    value: v.kind === 'percent' ? Number(v.value ?? 0) : unitsToCents(Number(v.value ?? 0)),
    minBillCents: unitsToCents(Number(v.minBillCents ?? 0)),
    stationIds: v.stationIds ?? [],
    validDays: v.validDays ?? null,
    validFrom: v.validFrom ?? null,
    validTo: v.validTo ?? null,
  }),
  form: [
    { key: 'providerId', kind: 'select', remote: providerOptions, on: 'create' },
    { key: 'name', kind: 'text', props: { maxLength: 50 } },
    { key: 'kind', kind: 'select', options: kindOptions, props: { allowClear: false } },
    {
      key: 'value',
      kind: 'number',
      extra: (ctx) => (isAmount(ctx.form.getFieldsValue()) ? 'voucherTemplate.valueAmountHint' : 'voucherTemplate.valuePercentHint'),
      props: { min: 0, precision: 2 },
    },
    { key: 'minBillCents', kind: 'number', extra: () => 'voucherTemplate.minBillHint', props: { min: 0, precision: 2 } },
    { key: 'stationIds', kind: 'select', remote: stationOptions, extra: () => 'voucherTemplate.stationsHint', props: { mode: 'multiple' } },
    { key: 'validDays', kind: 'number', extra: () => 'voucherTemplate.validityHint', props: { min: 1, max: 3650, precision: 0 } },
    { key: 'validFrom', kind: 'datetime' },
    { key: 'validTo', kind: 'datetime' },
  ],
});
