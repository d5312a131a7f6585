import { organizationApi } from '@csms/contract';
import { defineResource } from '../../shared/resource/types';

/** Organisations (spec §3: orgName, description; roles belong to them). */
export const organizationResource = defineResource({
  name: 'organization',
  api: {
    list: organizationApi.list,
    get: organizationApi.get,
    add: organizationApi.add,
    edit: organizationApi.edit,
    remove: organizationApi.remove,
    export: organizationApi.export,
  },
  columns: [
    { key: 'id', width: 80, sorter: true, defaultHidden: true },
    { key: 'orgName', width: 180, sorter: true },
    { key: 'description', ellipsis: true },
    { key: 'providerName', width: 160 },
    { key: 'roleCount', width: 100, sorter: true },
    { key: 'createTime', kind: 'datetime', width: 180, sorter: true },
  ],
  search: [{ key: 'orgName', kind: 'text' }],
  form: [
    { key: 'orgName', kind: 'text' },
    { key: 'description', kind: 'textarea' },
  ],
});
