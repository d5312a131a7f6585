import { z } from 'zod';
import { passwordSchema } from '../password.js';
import { crud, endpoint, optEmail, optText, phoneNumber } from '../endpoint.js';

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
  /** Whether the caller may change this user: its role grants no more than the caller holds (DESIGN.md §5). */
  manageable: z.boolean(),
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
  // The spec's minimum; the server applies its configured rule after it.
  password: passwordSchema(),
  ...userFields,
  status: status.optional(),
});

export const systemUserEdit = z.object({ id: z.number().int().positive(), ...userFields });

export const systemUserResetPwd = z.object({ id: z.number().int().positive(), password: passwordSchema() });

export const systemUserFilter = z.object({
  username: optText(64),
  name: optText(50),
  phone: optText(30),
  status: z.coerce.number().pipe(status).optional(),
  providerId: z.coerce.number().int().positive().optional(),
  /** Filter only: another provider's role matches nothing. */
  roleId: z.coerce.number().int().positive().optional(),
});

const c = crud('systemUser', 'system:user', '/web/userManage');

/** System users; paths as spec §7 names them, the missing verbs keep the `/web/userManage` prefix. */
export const systemUserApi = {
  list: c.list(systemUserFilter, systemUserDto, { path: 'getAllUsers' }),
  search: c.search(systemUserFilter, systemUserDto, { path: 'searchSystemUser' }),
  add: c.add(systemUserCreate, systemUserDto, { path: 'addUser' }),
  edit: c.edit(systemUserEdit, systemUserDto, { path: 'editUserInfo' }),
  status: c.action('status', z.object({ id: z.number().int().positive(), status }), systemUserDto, { path: 'updateSystemUserStatus' }),
  resetPwd: endpoint({
    method: 'POST',
    path: c.path('resetUserPwd'),
    access: c.permi('resetPwd'),
    resource: 'systemUser',
    operation: 'resetPassword',
    body: systemUserResetPwd,
  }),
  remove: c.remove({ path: 'deleteUser' }),
  usernameExists: endpoint({
    method: 'GET',
    path: c.path('isUserNameExisted'),
    access: c.permi('query'),
    resource: 'systemUser',
    query: z.object({ userName: z.string().trim().min(1).max(64) }),
    data: z.boolean(),
    summary: "Whether a username is taken among the caller's providers (case-insensitive); saving refuses one taken anywhere",
  }),
  phoneExists: endpoint({
    method: 'GET',
    path: c.path('isSysUserByPhoNumExisted'),
    access: c.permi('query'),
    resource: 'systemUser',
    query: z.object({ phoneNumber: z.string().trim().min(1).max(30) }),
    data: z.boolean(),
    summary: "Whether a system user of the caller's providers already has this phone number; saving refuses one taken anywhere",
  }),
  stationIds: endpoint({
    method: 'GET',
    path: c.path('getUserPcaIds'),
    access: c.permi('query'),
    resource: 'systemUser',
    query: z.object({ stationName: optText(100) }),
    data: z.object({ stationIds: z.array(z.number()), unrestricted: z.boolean() }),
    summary: "The caller's bound stations, i.e. the stations it may bind a user to; unrestricted when it is bound to none",
  }),
  chargeUserRel: c.action(
    'chargeUser',
    z.object({ id: z.number().int().positive(), isChargeUser: z.boolean().default(true) }),
    systemUserDto,
    { path: 'systemUserChargeUserRel' },
  ),
  export: c.export(systemUserFilter, { path: 'exportUsers' }),
};
