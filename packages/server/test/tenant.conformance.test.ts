import { allEndpoints, type EndpointDef } from '@csms/contract';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.js';
import { createUser } from './fixtures.js';
import { startServer } from './harness.js';
import { fullOperator, notTenantTables, publicById, tableCounts, tenantResources, type TenantEnv } from './tenant-resources.js';

/**
 * Tenant isolation over the registry of tenant-owned resources (DESIGN.md §8): a full-permission
 * user of provider B calls every endpoint that takes an id with provider A's ids and gets 404
 * (or an empty page for filters), and nothing changes.
 */
const env = {} as TenantEnv;

beforeAll(async () => {
  env.s = await startServer();
  env.admin = await env.s.login();
  env.a = await fullOperator(env.s);
  env.b = await fullOperator(env.s);
  const other = await createUser(env.s.database.db, { providerId: env.b.providerId, roleId: env.b.roleId, phone: '13800000001' });
  env.bOther = { id: other.id };
});
afterAll(() => env.s.close());

const fieldsOf = (s: unknown): string[] => {
  const shape = (s as { shape?: Record<string, unknown> })?.shape;
  if (shape) return Object.keys(shape);
  const inner = (s as { def?: { in?: unknown; schema?: unknown; innerType?: unknown } })?.def;
  return inner ? fieldsOf(inner.in ?? inner.schema ?? inner.innerType) : [];
};
/** Inputs that name a tenant-owned row: its own id, or the id of a provider, station, point, user, group, card or charging profile it hangs on or carries. */
const ID_FIELDS = [
  'id',
  'ids',
  'roleId',
  'msgId',
  'userId',
  'providerId',
  'parentId',
  'orgId',
  'stationId',
  'stationIds',
  'pointId',
  'transactionId',
  'chargeUserId',
  'chargeUserIds',
  'groupId',
  'cardId',
  'chargingProfileId',
  'taskId',
  'serviceManId',
  'chargeRecordIds',
  'rechargeIds',
  'levelId',
  'overrideLevelId',
  'templateId',
];

describe('the registry', () => {
  it('opts a resource out only with a written reason', () => {
    for (const r of tenantResources) {
      if (r.optOut !== undefined) {
        expect(r.optOut.trim().length, `${r.name} opt-out reason`).toBeGreaterThan(20);
        expect(r.endpoints, `${r.name} opts out yet lists endpoints`).toHaveLength(0);
      } else {
        expect(r.create && r.snapshot && r.endpoints.length > 0, `${r.name} needs create, snapshot and endpoints`).toBeTruthy();
      }
    }
  });

  it('registers every table that carries a provider', () => {
    const registered = new Set<PgTable>([...tenantResources.map((r) => r.table), ...notTenantTables.map((t) => t.table)]);
    for (const [name, table] of Object.entries(schema)) {
      if ('providerId' in (table as object))
        expect(registered.has(table as PgTable), `table ${name} is not in tenant-resources.ts`).toBe(true);
    }
  });

  it('covers every endpoint whose input names an id', () => {
    const covered = new Set<EndpointDef>([...tenantResources.flatMap((r) => r.endpoints.map((e) => e.ep)), ...publicById.map((p) => p.ep)]);
    const missing = allEndpoints()
      .filter((e) => [e.query, e.body].some((s) => fieldsOf(s).some((f) => ID_FIELDS.includes(f))))
      .filter((e) => !covered.has(e))
      .map((e) => `${e.method} ${e.path}`);
    expect(missing, 'endpoints taking ids that no tenant resource lists').toEqual([]);
  });

  it('lets an endpoint answer anyone by id only when it is public, with a written reason', () => {
    for (const { ep, reason } of publicById) {
      expect(ep.access, `${ep.path} is listed as public`).toBe('public');
      expect(reason.trim().length, `${ep.path} reason`).toBeGreaterThan(20);
    }
  });
});

const checked = tenantResources.filter((r) => r.optOut === undefined);
describe.each(checked.map((r) => [r.name, r] as const))("provider B with provider A's %s", (_, resource) => {
  let id: number;
  beforeAll(async () => {
    id = await resource.create!(env);
  });

  it.each(resource.endpoints.map((e, i) => [`${e.ep.method} ${e.ep.path} #${i}`, e] as const))('%s', async (_, e) => {
    const before = await tableCounts(env);
    const snapshot = await resource.snapshot!(env, id);
    const { query, body } = e.input(id, env);
    const qs = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
    if (e.ep.raw === 'download') {
      const res = await fetch(`${env.s.url}/prod-api${e.ep.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.b.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect((await res.text()).trim().split('\r\n')).toHaveLength(1);
      return;
    }
    const r = await env.s.call<{ list?: unknown[]; total?: number }>(e.ep.method, e.ep.path + qs, {
      token: env.b.token,
      ...(e.ep.method === 'POST' ? { body: body ?? {} } : {}),
    });
    if (e.expect === 'emptyList') expect(r).toMatchObject({ code: 200, data: { list: [], total: 0 } });
    else if (e.expect === 'emptyArray') expect(r).toMatchObject({ code: 200, data: [] });
    else if (e.expect === 'zeroTotal') expect(r).toMatchObject({ code: 200, data: { total: 0 } });
    else if (e.expect === 'forbidden') expect(r.code, r.msg).toBe(403);
    else expect(r.code, r.msg).toBe(404);
    expect(await resource.snapshot!(env, id)).toEqual(snapshot);
    expect(await tableCounts(env)).toEqual(before);
  });

  it('is still there for provider A', async () => {
    expect(await resource.snapshot!(env, id)).not.toEqual([]);
  });
});
