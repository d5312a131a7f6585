import { memberLevelApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { OPTIONS_LIMIT, type RemoteOptions } from '../../shared/resource/types';

/** The membership levels the caller sees, for selects (the server checks the user's provider). */
export const levelOptions: RemoteOptions = {
  key: 'memberLevels',
  load: async () => (await call(memberLevelApi.options, { query: { limit: OPTIONS_LIMIT } })).map((l) => ({ value: l.id, label: l.name })),
  search: async (text) =>
    (await call(memberLevelApi.options, { query: { text, limit: OPTIONS_LIMIT } })).map((l) => ({ value: l.id, label: l.name })),
};
