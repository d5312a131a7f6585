import { z } from 'zod';
import { endpoint, exportOptions, idQuery, idsBody, listOf, optText, pageQuery } from '../endpoint.js';
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

const base = '/web/userGroup';
const permi = (action: string) => ({ permi: `user:group:${action}` });
const resource = 'userGroup';

/** User groups: `/web/userGroup/{action}`; members are charge users of the group's provider. */
export const userGroupApi = {
  list: endpoint({
    method: 'GET',
    path: `${base}/list`,
    access: permi('list'),
    resource,
    query: pageQuery.extend(userGroupFilter.shape),
    data: listOf(userGroupDto),
  }),
  get: endpoint({ method: 'GET', path: `${base}/get`, access: permi('query'), resource, query: idQuery, data: userGroupDto }),
  add: endpoint({
    method: 'POST',
    path: `${base}/add`,
    access: permi('add'),
    resource,
    operation: 'add',
    body: userGroupCreate,
    data: userGroupDto,
  }),
  edit: endpoint({
    method: 'POST',
    path: `${base}/edit`,
    access: permi('edit'),
    resource,
    operation: 'edit',
    body: userGroupEdit,
    data: userGroupDto,
  }),
  remove: endpoint({
    method: 'POST',
    path: `${base}/remove`,
    access: permi('remove'),
    resource,
    operation: 'remove',
    body: idsBody,
    data: z.object({ removed: z.number() }),
    summary: 'Remove groups; a group with members is refused (409 with the reason)',
  }),
  members: endpoint({
    method: 'GET',
    path: `${base}/members`,
    access: permi('query'),
    resource,
    query: pageQuery.extend({ id: z.coerce.number().int().positive() }),
    data: listOf(chargeUserDto),
  }),
  addMembers: endpoint({
    method: 'POST',
    path: `${base}/addMembers`,
    access: permi('members'),
    resource,
    operation: 'members',
    body: groupMembersBody,
    data: userGroupDto,
    summary: 'Put charge users of the group’s provider into the group (moving them from any other group)',
  }),
  removeMembers: endpoint({
    method: 'POST',
    path: `${base}/removeMembers`,
    access: permi('members'),
    resource,
    operation: 'members',
    body: groupMembersBody,
    data: userGroupDto,
  }),
  export: endpoint({
    method: 'POST',
    path: `${base}/export`,
    access: permi('export'),
    resource,
    operation: 'export',
    mutation: false,
    body: userGroupFilter.extend(exportOptions.shape),
    raw: 'download',
  }),
  options: endpoint({
    method: 'GET',
    path: `${base}/options`,
    access: 'session',
    resource,
    query: z.object({ providerId: z.coerce.number().int().positive().optional() }),
    data: z.array(userGroupOption),
    summary: 'Groups the caller can see, for selects',
  }),
};
