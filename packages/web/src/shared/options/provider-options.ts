import { providerApi } from '@csms/contract';
import { call } from '../api/client';
import { OPTIONS_LIMIT, type RemoteOptions } from '../resource/types';

/** Providers the caller can see (`getAllProviders`), for selects: the first 100 by name, the rest searched on the server. */
export const providerOptions: RemoteOptions = {
  key: 'providers',
  load: async () => (await call(providerApi.options, { query: {} })).map((p) => ({ value: p.id, label: p.providerName })),
  search: async (providerName, values) =>
    (await call(providerApi.options, { query: { providerName, limit: OPTIONS_LIMIT, ids: values.join(',') } })).map((p) => ({
      value: p.id,
      label: p.providerName,
    })),
};
