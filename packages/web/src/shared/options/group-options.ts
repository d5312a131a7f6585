import { userGroupApi } from '@csms/contract';
import { call } from '../api/client';
import type { RemoteOptions } from '../resource/types';

/** User groups the caller can see, for selects (charge users, local controllers' priority groups). */
export const groupOptions: RemoteOptions = {
  key: 'userGroups',
  load: async () => (await call(userGroupApi.options, { query: {} })).map((g) => ({ value: g.id, label: g.name })),
};
