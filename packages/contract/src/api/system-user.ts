import { z } from 'zod';
import { passwordMinLength } from './auth.js';
import { endpoint, exportOptions, idsBody, listOf, optEmail, optText, pageQuery, phoneNumber } from '../endpoint.js';

export const userStatuses = [0, 1] as const;

export const systemUserDto = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  /** 1 enabled, 0 disabled. */
  status: z.number(),
  roleId: z.number(),
  roleName: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  /** Bound stations; empty means all of the provider's stations. */
  stationIds: z.array(z.number()),
  /** Linked to a charge user (set-as-charging-user); the cards area attaches the charge user. */
  isChargeUser: z.boolean(),
  lastLoginTime: z.string().nullable(),
  createTime: z.string(),
});
export type SystemUserDto = z.infer<typeof systemUserDto>;

const status = z.union([z.literal(0), z.literal(1)]);
const stationIds = z.array(z.number().int().positive()).max(1000);

const userFields = {
  roleId: z.number().int().positive(),
  providerId: z.number().int().positive(),
  name: optText(50),
  phone: phoneNumber,
  email: optEmail,
  avatar: optText(255),
  stationIds: stationIds.optional(),
};

export const systemUserCreate = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\p{L}\p{N}_.@-]+$/u),
  password: z.string().min(passwordMinLength).max(128),
  ...userFields,
  status: status.optional(),
});

export const systemUserEdit = z.object({ id: z.number().int().positive(), ...userFields });

export const systemUserFilter = z.object({
  username: optText(64),
  name: optText(50),
  phone: optText(30),
  status: z.coerce.number().pipe(status).optional(),
  providerId: z.coerce.number().int().positive().optional(),
  /** Filter only: another provider's role matches nothing. */
  roleId: z.coerce.number().int().positive().optional(),
});

const base = '/web/userManage';
const permi = (action: string) => ({ permi: `system:user:${action}` });
const userList = listOf(systemUserDto);

/** System users; paths as spec §7 names them, the missing verbs keep the `/web/userManage` prefix. */
export const systemUserApi = {
  list: endpoint({
    method: 'GET',
    path: `${base}/getAllUsers`,
    access: permi('list'),
    resource: 'systemUser',
    query: pageQuery.extend(systemUserFilter.shape),
    data: userList,
  }),
  search: endpoint({
    method: 'POST',
    path: `${base}/searchSystemUser`,
    access: permi('list'),
    resource: 'systemUser',
    mutation: false,
    body: pageQuery.extend(systemUserFilter.shape),
    data: userList,
  }),
  add: endpoint({
    method: 'POST',
    path: `${base}/addUser`,
    access: permi('add'),
    resource: 'systemUser',
    operation: 'add',
    body: systemUserCreate,
    data: systemUserDto,
  }),
  edit: endpoint({
    method: 'POST',
    path: `${base}/editUserInfo`,
    access: permi('edit'),
    resource: 'systemUser',
    operation: 'edit',
    body: systemUserEdit,
    data: systemUserDto,
  }),
  status: endpoint({
    method: 'POST',
    path: `${base}/updateSystemUserStatus`,
    access: permi('status'),
    resource: 'systemUser',
    operation: 'status',
    body: z.object({ id: z.number().int().positive(), status }),
    data: systemUserDto,
  }),
  resetPwd: endpoint({
    method: 'POST',
    path: `${base}/resetUserPwd`,
    access: permi('resetPwd'),
    resource: 'systemUser',
    operation: 'resetPassword',
    body: z.object({ id: z.number().int().positive(), password: z.string().min(passwordMinLength).max(128) }),
  }),
  remove: endpoint({
    method: 'POST',
    path: `${base}/deleteUser`,
    access: permi('remove'),
    resource: 'systemUser',
    operation: 'remove',
    body: idsBody,
    data: z.object({ removed: z.number() }),
  }),
  usernameExists: endpoint({
    method: 'GET',
    path: `${base}/isUserNameExisted`,
    access: permi('query'),
    resource: 'systemUser',
    query: z.object({ userName: z.string().trim().min(1).max(64) }),
    data: z.boolean(),
    summary: 'Whether a username is taken anywhere in the system (case-insensitive)',
  }),
  phoneExists: endpoint({
    method: 'GET',
    path: `${base}/isSysUserByPhoNumExisted`,
    access: permi('query'),
    resource: 'systemUser',
    query: z.object({ phoneNumber: z.string().trim().min(1).max(30) }),
    data: z.boolean(),
    summary: 'Whether a system user already has this phone number',
  }),
  stationIds: endpoint({
    method: 'GET',
    path: `${base}/getUserPcaIds`,
    access: permi('query'),
    resource: 'systemUser',
    query: z.object({ stationName: optText(100) }),
    data: z.object({ stationIds: z.array(z.number()), unrestricted: z.boolean() }),
    summary: "The caller's bound stations, i.e. the stations it may bind a user to; unrestricted when it is bound to none",
  }),
  chargeUserRel: endpoint({
    method: 'POST',
    path: `${base}/systemUserChargeUserRel`,
    access: permi('chargeUser'),
    resource: 'systemUser',
    operation: 'chargeUser',
    body: z.object({ id: z.number().int().positive(), isChargeUser: z.boolean().default(true) }),
    data: systemUserDto,
  }),
  export: endpoint({
    method: 'POST',
    path: `${base}/exportUsers`,
    access: permi('export'),
    resource: 'systemUser',
    operation: 'export',
    mutation: false,
    body: systemUserFilter.extend(exportOptions.shape),
    raw: 'download',
  }),
};
