import { providerApi, stationApi, roleApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { OPTIONS_LIMIT, type RemoteOptions } from '../../shared/resource/types';

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

/** Stations the caller can see (`getStations`), named with their provider: a user is bound only to its own provider's. */
export const boundStationOptions: RemoteOptions = {
  key: 'boundStations',
  load: async () =>
    (await call(stationApi.options, { body: {} })).map((s) => ({ value: s.id, label: `${s.stationName} · ${s.providerName}` })),
};

/**
 * Roles the caller may give a user (`queryRoles`, those granting no more than it holds; the server
 * refuses the others); a caller without `system:role:query` gets none rather than an error toast.
 */
export const roleOptions: RemoteOptions = {
  key: 'roles',
  load: async () => {
    const roles = await call(roleApi.options, { query: {} }, { silent: true }).catch(() => []);
    return roles.filter((r) => r.assignable).map((r) => ({ value: r.id, label: r.roleName }));
  },
  // The first 100 by name, the rest searched on the server; the selected role keeps its label.
  search: async (roleName, values) => {
    const query = { roleName, limit: OPTIONS_LIMIT, ids: values.join(',') };
    const roles = await call(roleApi.options, { query }, { silent: true }).catch(() => []);
    return roles.filter((r) => r.assignable || values.includes(r.id)).map((r) => ({ value: r.id, label: r.roleName }));
  },
};
