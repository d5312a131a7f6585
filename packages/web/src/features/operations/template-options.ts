import { voucherTemplateApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { OPTIONS_LIMIT, type RemoteOptions } from '../../shared/resource/types';

/** Voucher templates by name (issuing vouchers, a voucher-grant activity). */
export const templateOptions: RemoteOptions = {
  key: 'voucherTemplates',
  load: async () =>
    (await call(voucherTemplateApi.options, { query: { limit: OPTIONS_LIMIT } })).map((v) => ({ value: v.id, label: v.name })),
  search: async (text) =>
    (await call(voucherTemplateApi.options, { query: { text, limit: OPTIONS_LIMIT } })).map((v) => ({ value: v.id, label: v.name })),
};
