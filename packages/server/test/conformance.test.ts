import { allEndpoints, hasKey, type EndpointDef } from '@csms/contract';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.js';
import { createOperator } from './fixtures.js';
import { startServer, type TestServer } from './harness.js';

/**
 * Cross-cutting rules, checked over the contract's registry so that a new endpoint is covered
 * the moment it exists (DESIGN.md §8).
 */
let s: TestServer;
let admin: string;
let nobody: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  // Signed in, role enabled, but no permission and no paths.
  const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'], permissions: [] });
  nobody = await s.login(op.user.username, op.user.password);
});
afterAll(() => s.close());

const endpoints = allEndpoints();
const guarded = endpoints.filter((e) => e.access !== 'public');
const path = (e: EndpointDef) => e.path.replace(/:(\w+)/g, 'x');
const call = (e: EndpointDef, token?: string, lang: 'zh' | 'en' = 'en') =>
  s.call(e.method, path(e), { token, lang, ...(e.method === 'POST' ? { body: {} } : {}) });

/** Input that `{}` cannot satisfy: the endpoint must answer 400 naming a field. */
const needsInput = (e: EndpointDef) =>
  [e.params, e.query, e.body].some(
    (schema) => schema !== undefined && !schema.safeParse(schema === e.params ? { type: 'x', key: 'x' } : {}).success,
  );

async function tableCounts() {
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(schema)) {
    if (name === 'systemLog' || name === 'captcha' || name === 'loginAttempt') continue;
    out[name] = (await s.database.db.select({ n: count() }).from(table as typeof schema.provider))[0]!.n;
  }
  return out;
}

describe('every route is guarded', () => {
  it.each(guarded.map((e) => [`${e.method} ${e.path}`, e] as const))('%s: no token → 401', async (_, e) => {
    expect((await call(e)).code).toBe(401);
  });

  const permissioned = guarded.filter((e) => typeof e.access === 'object');
  it.each(permissioned.map((e) => [`${e.method} ${e.path}`, e] as const))('%s: no permission → 403', async (_, e) => {
    expect((await call(e, nobody)).code).toBe(403);
  });

  it('every permission an endpoint names is in the catalogue', async () => {
    const { allPermissions } = await import('@csms/contract');
    for (const e of permissioned) {
      if ('permi' in (e.access as object)) expect(allPermissions).toContain((e.access as { permi: string }).permi);
      for (const x of (e.access as { anyPermi?: string[] }).anyPermi ?? []) expect(allPermissions).toContain(x);
    }
  });
});

describe('every route with input refuses {} with 400 naming a field, and changes nothing', () => {
  const withInput = endpoints.filter(needsInput);
  it('covers the routes that take input', () => {
    expect(withInput.length).toBeGreaterThan(5);
  });
  it.each(withInput.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', async (_, e) => {
    const before = await tableCounts();
    for (const lang of ['zh', 'en'] as const) {
      const r = await call(e, e.access === 'public' ? undefined : admin, lang);
      expect(r.code).toBe(400);
      const field = (r.data as { field?: string } | null)?.field;
      expect(field, `${e.path} names no field`).toBeTruthy();
      expect(r.msg).not.toMatch(/fields\.|validation\./);
      if (lang === 'zh') expect(r.msg).toMatch(/[\u4e00-\u9fff]/);
      else expect(r.msg).not.toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await tableCounts()).toEqual(before);
  });
});

describe('every field of every body and query has a label in both languages', () => {
  const fieldsOf = (schema: unknown): string[] => {
    const shape = (schema as { shape?: Record<string, unknown>; def?: { in?: unknown; schema?: unknown } })?.shape;
    if (shape) return Object.keys(shape);
    const inner = (schema as { def?: { in?: unknown; schema?: unknown; innerType?: unknown } })?.def;
    return inner ? fieldsOf(inner.in ?? inner.schema ?? inner.innerType) : [];
  };
  it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', (_, e) => {
    for (const schema of [e.params, e.query, e.body]) {
      for (const key of fieldsOf(schema)) {
        for (const lang of ['zh', 'en'] as const) {
          expect(
            hasKey(lang, `fields.${e.resource}.${key}`) || hasKey(lang, `fields.common.${key}`),
            `${lang} label of ${e.resource}.${key}`,
          ).toBe(true);
        }
      }
    }
  });
});

describe('every mutation writes exactly one system-log row', () => {
  const mutations = endpoints.filter((e) => e.mutation);
  it.each(mutations.map((e) => [`${e.method} ${e.path}`, e] as const))('%s (refused input)', async (_, e) => {
    const before = (await s.database.db.select({ n: count() }).from(schema.systemLog))[0]!.n;
    await call(e, e.access === 'public' ? undefined : admin);
    const rows = await s.database.db
      .select()
      .from(schema.systemLog)
      .orderBy(sql`id desc`)
      .limit(2);
    const after = (await s.database.db.select({ n: count() }).from(schema.systemLog))[0]!.n;
    expect(after - before).toBe(1);
    expect(rows[0]).toMatchObject({ path: e.path, operation: e.operation ?? 'other' });
  });

  it('reads write none', async () => {
    const before = (await s.database.db.select({ n: count() }).from(schema.systemLog))[0]!.n;
    // Files and streams are not JSON envelopes; the export engine's own tests cover them.
    for (const e of endpoints.filter((x) => !x.mutation && x.raw !== 'stream' && x.raw !== 'download')) await call(e, admin);
    expect((await s.database.db.select({ n: count() }).from(schema.systemLog))[0]!.n).toBe(before);
  });
});

describe('OpenAPI', () => {
  it('documents every endpoint', async () => {
    const res = await fetch(`${s.url}/prod-api/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    for (const e of endpoints) {
      const p = '/prod-api' + e.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[p]?.[e.method.toLowerCase()], p).toBeDefined();
    }
  });
});
