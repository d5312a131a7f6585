import { api } from '@csms/contract';
import { call } from '../../shared/api/client';
import type { RemoteOptions } from '../../shared/resource/types';

/** Providers the caller can see (`getAllProviders`), for selects. */
export const providerOptions: RemoteOptions = {
  key: 'providers',
  load: async () => (await call(api.provider.options, { query: {} })).map((p) => ({ value: p.id, label: p.providerName })),
};

/** User groups the caller can see, for the search bar. */
export const groupOptions: RemoteOptions = {
  key: 'userGroups',
  load: async () => (await call(api.userGroup.options, { query: {} })).map((g) => ({ value: g.id, label: g.name })),
};
