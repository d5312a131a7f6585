import { carApi } from '@csms/contract';
import { Form } from 'antd';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { ChargeUserSelect, type ChargeUserSelectProps } from './inputs';
import { providerOptions } from './options';

function AccountField({ form, record, t, ...injected }: FormFieldCtx & Pick<ChargeUserSelectProps, 'value' | 'onChange' | 'id'>) {
  // The driver belongs to the car's provider.
  const providerId = Form.useWatch('providerId', form) as number | undefined;
  const initial = record?.chargeUserId ? { value: record.chargeUserId as number, label: String(record.account) } : null;
  return (
    <ChargeUserSelect
      {...injected}
      providerId={providerId}
      initial={initial}
      disabled={providerId === undefined}
      placeholder={t('cards.searchPlaceholder')}
    />
  );
}

/** Cars of charge users (spec §3): plate, VIN, alias, brand, model, account, provider. */
export const carResource = defineResource({
  name: 'car',
  api: { list: carApi.list, get: carApi.get, add: carApi.add, edit: carApi.edit, remove: carApi.remove, export: carApi.export },
  exportSource: 'car',
  columns: [
    { key: 'id', width: 80, sorter: true, defaultHidden: true },
    { key: 'plate', width: 130, sorter: true },
    { key: 'vin', width: 200 },
    { key: 'alias', width: 120 },
    { key: 'brand', width: 110 },
    { key: 'model', width: 110 },
    { key: 'account', width: 130 },
    { key: 'providerName', width: 150 },
    { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
  ],
  search: [
    { key: 'plate', kind: 'text' },
    { key: 'vin', kind: 'text' },
    { key: 'account', kind: 'text' },
    { key: 'brand', kind: 'text' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
  ],
  form: [
    { key: 'plate', kind: 'text' },
    { key: 'vin', kind: 'text', props: { maxLength: 17, style: { textTransform: 'uppercase' } } },
    { key: 'providerId', kind: 'select', remote: providerOptions },
    { key: 'chargeUserId', kind: 'custom', render: (ctx) => <AccountField {...ctx} /> },
    { key: 'alias', kind: 'text' },
    { key: 'brand', kind: 'text' },
    { key: 'model', kind: 'text' },
  ],
});
