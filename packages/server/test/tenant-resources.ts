import { api, type EndpointDef } from '@csms/contract';
import { desc, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../src/db/schema.js';
import type { TestServer } from './harness.js';

/**
 * Tenant-owned resources (DESIGN.md §8): how to create one row as provider A through the API,
 * and every endpoint that takes its id. The tenant conformance test calls each as a
 * full-permission user of provider B with A's ids and expects 404 with nothing changed.
 */
export interface Operator {
  token: string;
  providerId: number;
  userId: number;
  roleId: number;
  username: string;
}

export interface TenantEnv {
  s: TestServer;
  admin: string;
  a: Operator;
  b: Operator;
  /** A second user of provider B, a legitimate target for edits that reference A's rows. */
  bOther: { id: number };
}

export interface TenantEndpoint {
  ep: EndpointDef;
  input: (id: number, env: TenantEnv) => { query?: Record<string, string | number>; body?: unknown };
  /** `notFound` (default): 404. `emptyList`: a filter by A's id answers an empty page (or an export with only the header row). */
  expect?: 'notFound' | 'emptyList';
}

export interface TenantResource {
  name: string;
  /** The table holding the rows; every table with a provider column must be registered. */
  table: PgTable;
  create?: (env: TenantEnv) => Promise<number>;
  snapshot?: (env: TenantEnv, id: number) => Promise<unknown>;
  endpoints: TenantEndpoint[];
  /** Opting out of the check needs a written reason. */
  optOut?: string;
}

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;
const phone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function ok<T>(p: Promise<{ code: number; data: T; msg: string }>): Promise<T> {
  const r = await p;
  if (r.code !== 200) throw new Error(`setup call failed: ${r.code} ${r.msg}`);
  return r.data;
}
const row = (table: PgTable, idCol: unknown) => async (env: TenantEnv, id: number) =>
  env.s.database.db
    .select()
    .from(table)
    .where(eq(idCol as typeof schema.role.id, id));

const providerBody = (env: TenantEnv) => ({
  providerName: uniq('prov'),
  parentId: env.a.providerId,
  expiration: 1,
  mailAccount: 'a@x.test',
  mailAuthCode: 'code',
  smtpAddress: '127.0.0.1',
  smtpPort: 25,
});
const userBody = (env: TenantEnv, v: { roleId: number; providerId: number }) => ({
  username: uniq('u'),
  password: 'secret1',
  phone: phone(),
  ...v,
});
const roleBody = () => ({
  roleName: uniq('role'),
  roleKey: uniq('key'),
  rolePaths: ['/systemManagement/userManage'],
  permissions: ['system:user:list'],
});

export const tenantResources: TenantResource[] = [
  {
    name: 'organization',
    table: schema.organization,
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.organization.add.path, { token: env.a.token, body: { orgName: uniq('org') } }))).id,
    snapshot: row(schema.organization, schema.organization.id),
    endpoints: [
      { ep: api.organization.get, input: (id) => ({ query: { id } }) },
      { ep: api.organization.edit, input: (id) => ({ body: { id, orgName: 'stolen' } }) },
      { ep: api.organization.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.role.add, input: (id) => ({ body: { ...roleBody(), orgId: id } }) },
    ],
  },
  {
    name: 'provider',
    table: schema.provider,
    // Only the super provider creates providers: the admin creates one under A.
    create: async (env) =>
      (await ok(env.s.call<{ id: number }>('POST', api.provider.add.path, { token: env.admin, body: providerBody(env) }))).id,
    snapshot: row(schema.provider, schema.provider.id),
    endpoints: [
      { ep: api.provider.get, input: (id) => ({ query: { id } }) },
      {
        ep: api.provider.edit,
        input: (id, env) => ({ body: { ...providerBody(env), id, parentId: undefined, expiration: undefined, providerName: 'stolen' } }),
      },
      { ep: api.provider.testMail, input: (id) => ({ body: { id, to: 'x@x.test' } }) },
      { ep: api.systemUser.add, input: (id, env) => ({ body: userBody(env, { roleId: env.b.roleId, providerId: id }) }) },
    ],
  },
  {
    name: 'role',
    table: schema.role,
    create: async (env) => (await ok(env.s.call<{ id: number }>('POST', api.role.add.path, { token: env.a.token, body: roleBody() }))).id,
    snapshot: row(schema.role, schema.role.id),
    endpoints: [
      { ep: api.role.permissions, input: (id) => ({ query: { roleId: id } }) },
      { ep: api.role.stringPermission, input: (id) => ({ query: { roleId: id } }) },
      { ep: api.role.edit, input: (id) => ({ body: { ...roleBody(), id } }) },
      { ep: api.role.status, input: (id) => ({ body: { id, enabled: false } }) },
      { ep: api.role.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.message.usersByRole, input: (id) => ({ body: { roleId: id } }) },
      { ep: api.systemUser.add, input: (id, env) => ({ body: userBody(env, { roleId: id, providerId: env.b.providerId }) }) },
      {
        ep: api.systemUser.edit,
        input: (id, env) => ({ body: { id: env.bOther.id, roleId: id, providerId: env.b.providerId, phone: phone() } }),
      },
      { ep: api.systemUser.list, input: (id) => ({ query: { page: 1, limit: 10, roleId: id } }), expect: 'emptyList' },
      { ep: api.systemUser.search, input: (id) => ({ body: { page: 1, limit: 10, roleId: id } }), expect: 'emptyList' },
      { ep: api.systemUser.export, input: (id) => ({ body: { format: 'csv', roleId: id } }), expect: 'emptyList' },
    ],
  },
  {
    name: 'systemUser',
    table: schema.systemUser,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ id: number }>('POST', api.systemUser.add.path, {
            token: env.a.token,
            body: userBody(env, { roleId: env.a.roleId, providerId: env.a.providerId }),
          }),
        )
      ).id,
    snapshot: row(schema.systemUser, schema.systemUser.id),
    endpoints: [
      {
        ep: api.systemUser.edit,
        input: (id, env) => ({ body: { id, roleId: env.b.roleId, providerId: env.b.providerId, phone: phone() } }),
      },
      { ep: api.systemUser.status, input: (id) => ({ body: { id, status: 0 } }) },
      { ep: api.systemUser.resetPwd, input: (id) => ({ body: { id, password: 'hijacked' } }) },
      { ep: api.systemUser.remove, input: (id) => ({ body: { ids: [id] } }) },
      { ep: api.systemUser.chargeUserRel, input: (id) => ({ body: { id, isChargeUser: true } }) },
    ],
  },
  {
    name: 'systemLog',
    table: schema.systemLog,
    create: async (env) => {
      await ok(env.s.call('POST', api.organization.add.path, { token: env.a.token, body: { orgName: uniq('logged') } }));
      const [r] = await env.s.database.db
        .select({ id: schema.systemLog.id })
        .from(schema.systemLog)
        .where(eq(schema.systemLog.userId, env.a.userId))
        .orderBy(desc(schema.systemLog.id))
        .limit(1);
      return r!.id;
    },
    snapshot: row(schema.systemLog, schema.systemLog.id),
    endpoints: [{ ep: api.systemLog.get, input: (id) => ({ query: { id } }) }],
  },
  {
    name: 'message',
    table: schema.message,
    create: async (env) =>
      (
        await ok(
          env.s.call<{ msgId: number }>('POST', api.message.add.path, {
            token: env.a.token,
            body: { title: uniq('t'), content: 'hello', username: env.a.username },
          }),
        )
      ).msgId,
    snapshot: async (env, id) => env.s.database.db.select().from(schema.messageRecipient).where(eq(schema.messageRecipient.messageId, id)),
    endpoints: [
      { ep: api.message.read, input: (id, env) => ({ body: { msgId: id, userId: env.b.userId } }) },
      { ep: api.message.read, input: (id, env) => ({ body: { msgId: id, userId: env.a.userId } }) },
      { ep: api.message.remove, input: (id, env) => ({ body: { msgId: id, userId: env.b.userId } }) },
      { ep: api.message.remove, input: (id, env) => ({ body: { msgId: id, userId: env.a.userId } }) },
    ],
  },
  {
    name: 'exportConfig',
    table: schema.exportConfig,
    endpoints: [],
    optOut: "Addressed by the caller's own provider and an export source, never by id: no endpoint can name another provider's row.",
  },
  {
    name: 'storedFile',
    table: schema.storedFile,
    endpoints: [],
    optOut:
      'Files are addressed by a random file name, not an id; download checks the provider and common.test.ts covers another provider getting 404.',
  },
  {
    name: 'userGroup',
    table: schema.userGroup,
    endpoints: [],
    optOut: 'no endpoints yet: the cards capability adds them',
  },
  {
    name: 'chargeUser',
    table: schema.chargeUser,
    endpoints: [],
    optOut: 'no endpoints yet: the cards capability adds them',
  },
  {
    name: 'card',
    table: schema.card,
    endpoints: [],
    optOut: 'no endpoints yet: the cards capability adds them',
  },
  {
    name: 'ledger',
    table: schema.ledger,
    endpoints: [],
    optOut: 'no endpoints yet: the cards capability adds them',
  },
];

/** Rows that live inside a registered resource (recipients of a message) or are not tenant-owned. */
export const notTenantTables: { table: PgTable; reason: string }[] = [
  { table: schema.messageRecipient, reason: 'part of a message: covered through the message resource' },
];
