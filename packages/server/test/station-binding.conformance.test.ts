import { api } from '@csms/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.js';
import { insertMeterValue, insertPoint, insertTransaction } from '../src/modules/monitor/monitor.fixtures.js';
import { createUser } from './fixtures.js';
import { startServer } from './harness.js';
import { fullOperator, tableCounts, tenantResources, type TenantEndpoint, type TenantEnv } from './tenant-resources.js';

/**
 * Station binding over the registry of tenant-owned resources (DESIGN.md §9: a system user bound to
 * stations sees only those). For every resource whose rows belong to a station, provider A creates two
 * rows, on stations S1 and S2; a full-permission user of A bound to S1 alone calls each endpoint with the
 * S2 row and gets 404 (lists, exports and pickers: no S2 row), nothing changed; with the S1 row, the
 * same call succeeds (lists: the S1 row is there), so a 404 for everything cannot pass.
 */
const env = {} as TenantEnv;
/** The same env as the bound user sees it: `b` is the user of A bound to S1, `bOther` another user of A. */
let bound = {} as TenantEnv;

beforeAll(async () => {
  env.s = await startServer();
  env.admin = await env.s.login();
  env.a = await fullOperator(env.s);
  env.b = await fullOperator(env.s);
  const db = env.s.database.db;
  const user = await createUser(db, { providerId: env.a.providerId, roleId: env.a.roleId, phone: '13800000002' });
  const other = await createUser(db, { providerId: env.a.providerId, roleId: env.a.roleId, phone: '13800000003' });
  bound = {
    ...env,
    b: {
      token: await env.s.login(user.username, user.password),
      providerId: env.a.providerId,
      userId: user.id,
      roleId: env.a.roleId,
      username: user.username,
    },
    bOther: { id: other.id },
  };
});
afterAll(() => env.s.close());

/** Binds the bound user to these stations; sessions read the binding on every request. */
async function bindTo(stationIds: number[]) {
  await env.s.database.db.update(schema.systemUser).set({ stationIds }).where(eq(schema.systemUser.id, bound.b.userId));
}

async function stationName(id: number) {
  const [r] = await env.s.database.db.select({ name: schema.station.name }).from(schema.station).where(eq(schema.station.id, id));
  return r!.name;
}

/** One call as the bound user: the code, the number of rows a list-like answer holds, and the answer as text. */
async function send(e: TenantEndpoint, input: ReturnType<TenantEndpoint['input']>) {
  const { query, body } = input;
  const qs = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
  // An export (a POST download); a GET download answers the envelope when it refuses, which is all these calls expect of it.
  if (e.ep.raw === 'download' && e.ep.method === 'POST') {
    const res = await fetch(`${env.s.url}/prod-api${e.ep.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bound.b.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { code: res.status, msg: '', rows: text.trim().split('\r\n').length - 1, text };
  }
  const r = await env.s.call<{ list?: unknown[]; total?: number } & unknown[]>(e.ep.method, e.ep.path + qs, {
    token: bound.b.token,
    ...(e.ep.method === 'POST' ? { body: body ?? {} } : {}),
  });
  const rows = e.expect === 'emptyArray' ? (Array.isArray(r.data) ? r.data.length : -1) : (r.data?.total ?? -1);
  return { code: r.code, msg: r.msg, rows, text: JSON.stringify(r.data) };
}

const checked = tenantResources.filter((r) => r.optOut === undefined);
const scoped = checked.filter((r) => r.stationOf);
/** Lists and exports (a POST download); a GET download is one row's file. */
const isList = (e: TenantEndpoint) =>
  (e.ep.raw === 'download' && e.ep.method === 'POST') || ['emptyList', 'emptyArray', 'zeroTotal'].includes(e.expect ?? '');

describe('the registry, for station binding', () => {
  it('says for every resource which station its rows belong to, or why they belong to none', () => {
    for (const r of checked) {
      expect(!!r.stationOf !== (r.notStationScoped !== undefined), `${r.name}: stationOf or notStationScoped, not both`).toBe(true);
      if (r.notStationScoped !== undefined) expect(r.notStationScoped.trim().length, `${r.name} reason`).toBeGreaterThan(20);
    }
    expect(scoped.length).toBeGreaterThan(5);
  });

  it('gives a reason wherever a bound user is answered otherwise than 404 / 200', () => {
    for (const e of tenantResources.flatMap((r) => r.endpoints)) if (e.bound) expect(e.bound.reason.trim().length).toBeGreaterThan(20);
  });
});

describe.each(scoped.map((r) => [r.name, r] as const))('a user of the same provider bound to S1, with %s', (_, resource) => {
  it.each(resource.endpoints.map((e, i) => [`${e.ep.method} ${e.ep.path} #${i}`, e] as const))('%s', async (_, e) => {
    // Fresh rows per endpoint: the S1 call may change or delete its row.
    const own = await resource.create!(env);
    const other = await resource.create!(env);
    const [s1, s2] = [await resource.stationOf!(env, own), await resource.stationOf!(env, other)];
    expect(s1).not.toBe(s2);
    await bindTo([s1]);
    const ownIn = e.input(own, bound);
    const otherIn = e.input(other, bound);

    if (isList(e)) {
      if (JSON.stringify(ownIn) !== JSON.stringify(otherIn)) {
        // The filter names the row: nothing for S2's, something for S1's.
        const r2 = await send(e, otherIn);
        expect(r2.code, r2.msg).toBe(200);
        expect(r2.rows, `S2 row listed: ${r2.text}`).toBe(0);
        const r1 = await send(e, ownIn);
        expect(r1.code, r1.msg).toBe(200);
        expect(r1.rows, `S1 row missing: ${r1.text}`).toBeGreaterThan(0);
      } else {
        // The filter names the provider: S1's rows are there, S2's are not.
        const r = await send(e, ownIn);
        expect(r.code, r.msg).toBe(200);
        expect(r.text).toContain(await stationName(s1));
        expect(r.text).not.toContain(await stationName(s2));
      }
      return;
    }

    const before = await tableCounts(env);
    const snapshots = [await resource.snapshot!(env, own), await resource.snapshot!(env, other)];
    const r2 = await send(e, otherIn);
    expect(r2.code, r2.msg).toBe(e.bound?.other ?? 404);
    expect([await resource.snapshot!(env, own), await resource.snapshot!(env, other)]).toEqual(snapshots);
    expect(await tableCounts(env)).toEqual(before);
    const r1 = await send(e, ownIn);
    expect(r1.code, r1.msg).toBe(e.bound?.own ?? 200);
  });
});

describe('the dashboard for a user bound to S1', () => {
  it('counts only the sessions, connectors and power of S1', async () => {
    const db = env.s.database.db;
    const p1 = await insertPoint(db, env.a.providerId, { connectorStatuses: ['Charging'] });
    const p2 = await insertPoint(db, env.a.providerId, { connectorStatuses: ['Charging', 'Available'] });
    for (const [point, powerW] of [
      [p1, 1000],
      [p2, 20_000],
    ] as const) {
      // Started a second ago, so it counts today unless the run straddles local midnight. Its sample is an hour
      // old: alone in a whole hour of the power trend, it stands for that hour (a sample taken now stands for
      // the time since, next to nothing).
      const t = await insertTransaction(db, point, { startedAt: new Date(Date.now() - 1000) });
      await insertMeterValue(db, {
        chargePointId: point.id,
        connectorNo: 1,
        transactionId: t.id,
        sampledAt: new Date(Date.now() - 3_600_000),
        powerW,
      });
    }
    const stats = async () => {
      const today = await env.s.call<{ chargeCount: number; connectorCount: number }>('GET', api.statistics.today.path, {
        token: bound.b.token,
      });
      const trend = await env.s.call<{ points: { chargeCount: number }[] }>('GET', `${api.statistics.revenueTrend.path}?period=day`, {
        token: bound.b.token,
      });
      const power = await env.s.call<{ points: { powerW: number }[] }>('GET', `${api.monitor.powerTrend.path}?bucketMinutes=60`, {
        token: bound.b.token,
      });
      return {
        chargeCount: today.data.chargeCount,
        connectorCount: today.data.connectorCount,
        trend: trend.data.points.reduce((n, pt) => n + pt.chargeCount, 0),
        powerW: power.data.points.reduce((n, pt) => n + pt.powerW, 0),
      };
    };
    await bindTo([p1.stationId]);
    expect(await stats()).toEqual({ chargeCount: 1, connectorCount: 1, trend: 1, powerW: 1000 });
    await bindTo([p2.stationId]);
    expect(await stats()).toEqual({ chargeCount: 1, connectorCount: 2, trend: 1, powerW: 20_000 });
    await bindTo([p1.stationId, p2.stationId]);
    expect(await stats()).toEqual({ chargeCount: 2, connectorCount: 3, trend: 2, powerW: 21_000 });
  });
});
