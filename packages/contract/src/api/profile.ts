import { z } from 'zod';
import { endpoint, optEmail, optText, phoneNumber } from '../endpoint.js';
import { systemUserDto } from './system-user.js';

/** The signed-in user's own view of their system-user record. */
export const profileDto = systemUserDto.pick({
  id: true,
  username: true,
  name: true,
  phone: true,
  email: true,
  avatar: true,
  roleName: true,
  providerName: true,
  lastLoginTime: true,
  createTime: true,
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
