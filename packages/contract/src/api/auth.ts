import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { passwordPolicy, passwordSchema, type PasswordPolicy } from '../password.js';

export const loginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
  code: z.string().trim().max(16).optional(),
  uuid: z.string().max(64).optional(),
});

export const userInfo = z.object({
  user: z.object({
    id: z.number(),
    username: z.string(),
    name: z.string().nullable(),
    avatar: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    lastLoginTime: z.string().nullable(),
  }),
  roles: z.array(z.string()),
  roleName: z.string().nullable(),
  /** Menu paths the role may open; `['forbidden']` for a disabled role; missing when the role has none. */
  rolePaths: z.array(z.string()).optional(),
  permissions: z.array(z.string()),
  providerId: z.number(),
  providerName: z.string(),
  providerType: z.enum(['super', 'common']),
  logoPath: z.string().nullable(),
  isShowProvider: z.boolean(),
  /** The server's password rule, which the console's password forms follow. */
  passwordPolicy,
  /** The password is a one-time one (an approved application's): nothing but changing it is allowed until it is. */
  mustChangePassword: z.boolean().optional(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** The change-password form under a password policy (the console builds it from the user info's). */
export const editPasswordSchema = (policy?: PasswordPolicy) =>
  z
    .object({
      oldPwd: z.string().min(1).max(128),
      newPwd: passwordSchema(policy),
      confirmNewPwd: z.string().min(1).max(128),
      userName: z.string().optional(),
    })
    .refine((b) => b.newPwd === b.confirmNewPwd, { message: 'validation.passwordMismatch', path: ['confirmNewPwd'] });

/** The endpoint's body: the spec's minimum; the server applies its configured rule after it. */
export const editPasswordBody = editPasswordSchema();

export const authApi = {
  captchaImage: endpoint({
    method: 'GET',
    path: '/captchaImage',
    access: 'public',
    resource: 'auth',
    raw: 'flat',
    data: z.object({ captchaEnabled: z.boolean(), uuid: z.string().optional(), img: z.string().optional() }),
  }),
  login: endpoint({
    method: 'POST',
    path: '/web/login',
    access: 'public',
    resource: 'auth',
    operation: 'login',
    body: loginBody,
    data: z.object({ token: z.string().optional(), systemUserStatus: z.union([z.literal(0), z.literal(1)]) }).nullable(),
  }),
  info: endpoint({
    method: 'POST',
    path: '/web/info',
    access: 'session',
    resource: 'auth',
    mutation: false,
    // The token comes in the header only, never in the URL (the spec's `?token=` is not read).
    data: userInfo,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/web/logout',
    access: 'session',
    resource: 'auth',
    operation: 'logout',
  }),
  editUserPwd: endpoint({
    method: 'POST',
    path: '/web/userManage/editUserPwd',
    access: 'session',
    resource: 'auth',
    operation: 'changePassword',
    body: editPasswordBody,
    data: z.boolean(),
  }),
};
