import { z } from 'zod';
import { crud, endpoint, optionsWindow, optText } from '../endpoint.js';

export const roleDto = z.object({
  id: z.number(),
  roleName: z.string(),
  roleKey: z.string(),
  description: z.string().nullable(),
  parentId: z.number().nullable(),
  parentName: z.string().nullable(),
  orgId: z.number().nullable(),
  orgName: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  memberCount: z.number(),
  enabled: z.boolean(),
  rolePaths: z.array(z.string()),
  permissions: z.array(z.string()),
  createTime: z.string(),
  /** Whether the caller may change this role: it grants no more than the caller holds (DESIGN.md §5). */
  manageable: z.boolean(),
});
export type RoleDto = z.infer<typeof roleDto>;

const roleFields = {
  roleName: z.string().trim().min(1).max(50),
  roleKey: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .regex(/^[A-Za-z][\w:.-]*$/),
  description: optText(500),
  parentId: z.number().int().positive().nullable().optional(),
  orgId: z.number().int().positive().nullable().optional(),
  enabled: z.boolean().optional(),
  /** Menu paths of the contract's menu tree; the server refuses any other. */
  rolePaths: z.array(z.string().max(100)).min(1).max(200),
  /** Operation permissions of the contract's catalogue. */
  permissions: z.array(z.string().max(100)).max(500).default([]),
};

export const roleCreate = z.object(roleFields);
export const roleEdit = z.object({ id: z.number().int().positive(), ...roleFields });
export const roleOption = z.object({
  id: z.number(),
  roleName: z.string(),
  roleKey: z.string(),
  enabled: z.boolean(),
  providerId: z.number(),
  /** Whether the caller may give this role to a user: it grants no more than the caller holds (DESIGN.md §5). */
  assignable: z.boolean(),
});
const roleIdQuery = z.object({ roleId: z.coerce.number().int().positive() });

const c = crud('role', 'system:role', '/web/permissionManage');

/** Roles and permissions: paths as spec §7 names them; delete and status keep the area's prefix. */
export const roleApi = {
  list: c.list(z.object({ orgName: optText(50), roleName: optText(50) }), roleDto, { path: 'queryRolesByOrg' }),
  options: endpoint({
    method: 'GET',
    path: c.path('queryRoles'),
    access: c.permi('query'),
    resource: 'role',
    query: z.object({ roleName: optText(50), providerId: z.coerce.number().int().positive().optional(), ...optionsWindow }),
    data: z.array(roleOption),
    summary: 'Roles the caller can see, for selects',
  }),
  add: c.add(roleCreate, roleDto, { path: 'createRole' }),
  permissions: endpoint({
    method: 'GET',
    path: c.path('getRolePermissions'),
    access: c.permi('query'),
    resource: 'role',
    query: roleIdQuery,
    data: z.object({ roleId: z.number(), rolePaths: z.array(z.string()), permissions: z.array(z.string()) }),
  }),
  stringPermission: endpoint({
    method: 'GET',
    path: '/web/userManage/getStringPermission',
    access: c.permi('query'),
    resource: 'role',
    query: roleIdQuery,
    data: z.array(z.string()),
    summary: "The role's operation permissions as strings",
  }),
  edit: c.edit(roleEdit, roleDto, { path: 'editRoleInfo' }),
  status: c.action('status', z.object({ id: z.number().int().positive(), enabled: z.boolean() }), roleDto, { path: 'updateRoleStatus' }),
  remove: c.remove({ path: 'deleteRole' }),
};
