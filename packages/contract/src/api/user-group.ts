import { z } from 'zod';
import { crud, endpoint, listOf, optText, pageQuery } from '../endpoint.js';
import { chargeUserDto } from './charge-user.js';

export const userGroupDto = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  memberCount: z.number(),
  /** Energy each member may draw per calendar month (station time zone); null: no limit. */
  monthlyLimitWh: z.number().nullable(),
  createTime: z.string(),
});
export type UserGroupDto = z.infer<typeof userGroupDto>;

/** Up to 1,000,000 kWh per member per month; whole Wh. */
const monthlyLimitWh = z.number().int().min(1).max(1_000_000_000).nullable().optional();

const groupFields = {
  name: z.string().trim().min(1).max(50),
  description: optText(500),
  monthlyLimitWh,
};

export const userGroupCreate = z.object({ ...groupFields, providerId: z.number().int().positive() });
/** The provider is fixed: members and group prices belong to it. */
export const userGroupEdit = z.object({ id: z.number().int().positive(), ...groupFields });

export const userGroupFilter = z.object({
  name: optText(50),
  providerId: z.coerce.number().int().positive().optional(),
});

const memberIds = z.array(z.number().int().positive()).min(1).max(500);
export const groupMembersBody = z.object({ id: z.number().int().positive(), chargeUserIds: memberIds });

export const userGroupOption = z.object({ id: z.number(), name: z.string(), providerId: z.number() });

const resource = 'userGroup';
const c = crud(resource, 'user:group');

/** User groups: `/web/userGroup/{action}`; members are charge users of the group's provider. */
export const userGroupApi = {
  list: c.list(userGroupFilter, userGroupDto),
  get: c.get(userGroupDto),
  add: c.add(userGroupCreate, userGroupDto),
  edit: c.edit(userGroupEdit, userGroupDto),
  remove: c.remove({ summary: 'Remove groups; a group with members is refused (409 with the reason)' }),
  members: endpoint({
    method: 'GET',
    path: c.path('members'),
    access: c.permi('query'),
    resource,
    query: pageQuery.extend({ id: z.coerce.number().int().positive() }),
    data: listOf(chargeUserDto),
  }),
  addMembers: c.action('addMembers', groupMembersBody, userGroupDto, {
    access: c.permi('members'),
    operation: 'members',
    summary: 'Put charge users of the group’s provider into the group (moving them from any other group)',
  }),
  removeMembers: c.action('removeMembers', groupMembersBody, userGroupDto, { access: c.permi('members'), operation: 'members' }),
  export: c.export(userGroupFilter),
  options: endpoint({
    method: 'GET',
    path: c.path('options'),
    access: 'session',
    resource,
    query: z.object({ providerId: z.coerce.number().int().positive().optional() }),
    data: z.array(userGroupOption),
    summary: 'Groups the caller can see, for selects',
  }),
};
