import { api } from '@csms/contract';
import { call } from '../../shared/api/client';
import { OPTIONS_LIMIT, type RemoteOptions } from '../../shared/resource/types';

/** Providers the caller can see (`getAllProviders`), for selects: the first 100 by name, the rest searched on the server. */
export const providerOptions: RemoteOptions = {
  key: 'providers',
  load: async () => (await call(api.provider.options, { query: {} })).map((p) => ({ value: p.id, label: p.providerName })),
  search: async (providerName, values) =>
    (await call(api.provider.options, { query: { providerName, limit: OPTIONS_LIMIT, ids: values.join(',') } })).map((p) => ({
      value: p.id,
      label: p.providerName,
    })),
};

/** User groups the caller can see, for the search bar. */
export const groupOptions: RemoteOptions = {
  key: 'userGroups',
  load: async () => (await call(api.userGroup.options, { query: {} })).map((g) => ({ value: g.id, label: g.name })),
};
