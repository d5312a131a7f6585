import { z } from 'zod';
import { endpoint, optEmail, optText, phoneNumber } from '../endpoint.js';

export const profileDto = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  roleName: z.string(),
  providerName: z.string(),
  lastLoginTime: z.string().nullable(),
  createTime: z.string(),
});

/** Absent fields stay as they are; an empty string clears name, email or avatar. */
export const profileEdit = z.object({ name: optText(50), phone: phoneNumber.optional(), email: optEmail, avatar: optText(255) });

/** Personal center: the signed-in user's own profile; the password goes through `editUserPwd`. */
export const profileApi = {
  get: endpoint({ method: 'GET', path: '/web/userManage/getProfile', access: 'session', resource: 'profile', data: profileDto }),
  edit: endpoint({
    method: 'POST',
    path: '/web/userManage/updateProfile',
    access: 'session',
    resource: 'profile',
    operation: 'edit',
    body: profileEdit,
    data: profileDto,
  }),
};
