import { ADMIN_ROLE, organizationApi, roleApi } from '@csms/contract';
import { call } from '../../shared/api/client';
import { defineResource } from '../../shared/resource/types';
import type { Grants } from './permission-tree';
import { PermissionTreeInput } from './permission-tree-input';
import { RoleEnabledSwitch } from './role-enabled-switch';

const permi = (action: string) => `system:role:${action}`;

const orgOptions = {
  key: 'role.organizations',
  load: async () =>
    (await call(organizationApi.list, { query: { page: 1, limit: 300 } })).list.map((o) => ({ value: o.id, label: o.orgName })),
};
const roleOptions = {
  key: 'role.roles',
  load: async () => (await call(roleApi.options, { query: {} })).map((r) => ({ value: r.id, label: r.roleName })),
};

/** Roles and their permissions (spec §3, §6): the tree of menus and operations is one form field, `Grants`. */
export const roleResource = defineResource({
  name: 'role',
  api: { list: roleApi.list, add: roleApi.add, edit: roleApi.edit, remove: roleApi.remove },
  // No get endpoint: detail needs its own permission rather than list's.
  permissions: { query: permi('query') },
  columns: [
    { key: 'id', width: 80, sorter: true, defaultHidden: true },
    { key: 'roleName', width: 160, sorter: true },
    { key: 'roleKey', width: 140 },
    { key: 'description', ellipsis: true },
    { key: 'orgName', width: 150 },
    { key: 'parentName', width: 140, defaultHidden: true },
    { key: 'providerName', width: 150, defaultHidden: true },
    { key: 'memberCount', width: 90, sorter: true },
    { key: 'enabled', width: 100, render: (_, row) => <RoleEnabledSwitch row={row} /> },
    { key: 'createTime', kind: 'datetime', width: 180, sorter: true },
  ],
  search: [
    { key: 'orgName', kind: 'text' },
    { key: 'roleName', kind: 'text' },
  ],
  formWidth: 1000,
  form: [
    { key: 'roleName', kind: 'text' },
    { key: 'roleKey', kind: 'text' },
    { key: 'orgId', kind: 'select', remote: orgOptions },
    { key: 'parentId', kind: 'select', remote: roleOptions },
    { key: 'description', kind: 'textarea', span: 24 },
    { key: 'rolePaths', kind: 'custom', span: 24, label: 'role.grants', render: () => <PermissionTreeInput /> },
  ],
  // The admin role holds everything by definition: shown, never edited or deleted. Nor is a role
  // that grants more than the caller holds (DESIGN.md §5; the server refuses it).
  rowReadOnly: (row) => row.roleKey === ADMIN_ROLE || !row.manageable,
  load: async (row) => ({ ...row, ...(await call(roleApi.permissions, { query: { roleId: row.id } })) }),
  toForm: (row) => ({ ...row, rolePaths: { rolePaths: row.rolePaths ?? [], permissions: row.permissions ?? [] } satisfies Grants }),
  toBody: (values) => {
    const grants = values.rolePaths as Grants | string[] | undefined;
    if (!grants || Array.isArray(grants)) return values;
    return { ...values, rolePaths: grants.rolePaths, permissions: grants.permissions };
  },
});
