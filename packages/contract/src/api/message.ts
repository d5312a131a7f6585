import { z } from 'zod';
import { crud, endpoint, listOf, longPageQuery, optText, timeFilter } from '../endpoint.js';

/** One row of the message screen: an inbox row, or in the admin view one (message, recipient) pair. */
export const messageRow = z.object({
  msgId: z.number(),
  userId: z.number(),
  title: z.string(),
  content: z.string(),
  isSend: z.boolean(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
  recUserName: z.string().nullable(),
  read: z.union([z.literal(0), z.literal(1)]),
  readTime: z.string().nullable(),
  delete: z.union([z.literal(0), z.literal(1)]),
});
export type MessageRow = z.infer<typeof messageRow>;

/** Recipients as comma lists (spec §3); at least one of roleName and username. */
export const messageCreate = z
  .object({
    title: z.string().trim().min(1).max(100),
    content: z.string().trim().min(1).max(5000),
    isSend: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
    roleName: optText(2000),
    username: optText(4000),
  })
  .refine((b) => Boolean(b.roleName?.trim() || b.username?.trim()), { message: 'validation.recipientsRequired', path: ['username'] });

export const messageFilter = z.object({ keyWord: optText(100), startTime: timeFilter, endTime: timeFilter });
const msgRef = z.object({ msgId: z.number().int().positive(), userId: z.number().int().positive() });

const unreadCount = z.object({ unread: z.number() });

const c = crud('message', 'system:message', '/web/msg');

/**
 * System messages (spec §6, §7). Every signed-in user has an inbox, so reading is `session`;
 * sending needs a permission. The user named admin sees everything sent (the admin view).
 */
export const messageApi = {
  add: c.add(messageCreate, z.object({ msgId: z.number(), recipients: z.number(), smsSent: z.boolean() }), {
    path: 'addMsg',
    operation: 'send',
  }),
  list: endpoint({
    method: 'GET',
    path: c.path('getAllMsg'),
    access: 'session',
    resource: 'message',
    query: longPageQuery.extend(messageFilter.shape),
    data: listOf(messageRow).extend({ view: z.enum(['admin', 'inbox']) }),
  }),
  search: endpoint({
    method: 'POST',
    path: c.path('searchMsg'),
    access: 'session',
    resource: 'message',
    mutation: false,
    body: longPageQuery.extend(messageFilter.shape),
    data: listOf(messageRow).extend({ view: z.enum(['admin', 'inbox']) }),
  }),
  read: c.action('read', msgRef, unreadCount, { path: 'readMsg', access: 'session' }),
  remove: c.action('remove', msgRef, unreadCount, { path: 'deleteMsg', access: 'session' }),
  usersByRole: endpoint({
    method: 'POST',
    path: c.path('getUserByRoleId'),
    access: c.permi('add'),
    resource: 'message',
    mutation: false,
    body: z.object({ roleId: z.number().int().positive() }),
    data: z.array(z.object({ id: z.number(), username: z.string(), name: z.string().nullable() })),
  }),
  unread: endpoint({
    method: 'GET',
    path: c.path('getUnreadCount'),
    access: 'session',
    resource: 'message',
    data: unreadCount,
  }),
  export: c.export(messageFilter, { path: 'exportMsg', access: 'session' }),
};
