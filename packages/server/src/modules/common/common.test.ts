import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';
import { createPoint, eventually, TestCharger } from '../../../test/ocpp/support.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

describe('health and documents', () => {
  it('health is 200 once ready', async () => {
    expect(await s.call('GET', '/health')).toMatchObject({ code: 200, data: { status: 'ok' } });
  });
  it('health reports memory, CPU, event-loop delay per read window and OCPP connections', async () => {
    interface Health {
      memory: {
        rssBytes: number;
        heapUsedBytes: number;
        heapTotalBytes: number;
        externalBytes: number;
        compactions: { count: number; lastPauseMs: number | null };
      };
      cpu: { userMs: number; systemMs: number; mainThreadMs: number | null };
      eventLoop: { windowS: number; p50Ms: number; p90Ms: number; p99Ms: number; p999Ms: number; maxMs: number };
      gc: { count: number; totalMs: number; maxMs: number; majorCount: number };
      ocppConnections: number;
      ocppLogBacklog: number;
      vacuum: { statements: number; totalMs: number; waitedTicks: number } | null;
    }
    const health = async () => (await s.call<Health>('GET', '/health')).data;
    const first = await health();
    expect(first.memory.rssBytes).toBeGreaterThan(first.memory.heapUsedBytes);
    expect(first.memory.heapUsedBytes).toBeGreaterThan(0);
    expect(first.memory.heapTotalBytes).toBeGreaterThanOrEqual(first.memory.heapUsedBytes);
    expect(first.memory.externalBytes).toBeGreaterThan(0);
    expect(first.cpu.userMs).toBeGreaterThan(0);
    // The main thread is one of the process's threads (the test runner's and PGlite's are others).
    expect(first.cpu.mainThreadMs).toBeGreaterThan(0);
    expect(first.cpu.mainThreadMs).toBeLessThanOrEqual(first.cpu.userMs + first.cpu.systemMs + 10);
    expect(first.ocppConnections).toBe(0);
    expect(first.memory.compactions).toMatchObject({ count: 0, lastPauseMs: null }); // no connect storm yet
    // PGlite's vacuum (off in the tests' servers; src/db/pglite-maintenance.test.ts runs it); PostgreSQL vacuums itself.
    expect(first.vacuum).toEqual(process.env.DATABASE_URL ? null : { statements: 0, totalMs: 0, waitedTicks: 0 });

    // The server runs in this process: blocking it shows up in the window the next read closes (a lower bound only:
    // an upper bound would depend on how busy the machine is).
    // (The first read starts the monitor, whose first tick only sets its reference point: let it tick.)
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = performance.now() + 300;
    while (performance.now() < until) {
      /* busy */
    }
    const blocked = await health();
    expect(blocked.eventLoop.maxMs).toBeGreaterThanOrEqual(250);
    expect(blocked.eventLoop.windowS).toBeGreaterThanOrEqual(0.3);
    expect(blocked.eventLoop.p50Ms).toBeLessThanOrEqual(blocked.eventLoop.p99Ms);
    expect(blocked.eventLoop.p99Ms).toBeLessThanOrEqual(blocked.eventLoop.maxMs);
    expect(blocked.eventLoop.p90Ms).toBeLessThanOrEqual(blocked.eventLoop.p999Ms);

    // Garbage makes the collector run: its pauses are counted in the window of the read after them.
    let pauses = 0;
    await eventually(async () => {
      let keep: unknown[] = [];
      for (let i = 0; i < 2_000_000; i++) keep = i % 1000 === 0 ? [] : [...keep.slice(-10), { i }];
      const { gc } = await health();
      expect(gc.maxMs).toBeLessThanOrEqual(gc.totalMs);
      pauses += gc.count;
      return pauses > 0 && keep.length >= 0;
    });

    const { serialNumber, key } = await createPoint(s.database.db);
    const charger = await TestCharger.connect(s.url, serialNumber, { key });
    expect((await health()).ocppConnections).toBe(1);
    await charger.close();
    await eventually(async () => (await health()).ocppConnections === 0);
    // Its frames were logged; once written, nothing is left behind.
    await eventually(async () => (await health()).ocppLogBacklog === 0);
  });
  it('unknown API paths answer with a 404 envelope in the caller language', async () => {
    const res = await fetch(`${s.url}/prod-api/no/such/thing`, { headers: { 'x-language': 'en' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 404, msg: 'The resource does not exist', data: null });
    const zh = await fetch(`${s.url}/prod-api/no/such/thing`, { method: 'POST', headers: { 'x-language': 'zh' } });
    expect(await zh.json()).toMatchObject({ code: 404, msg: '资源不存在' });
  });
});

describe('dictionaries and settings', () => {
  it('serves a dictionary in the caller language', async () => {
    const en = await s.call<{ dictLabel: string; dictValue: string; listClass: string }[]>('GET', '/system/dict/data/type/userStatus', {
      token: admin,
    });
    expect(en.data).toEqual([
      { dictLabel: 'Enabled', dictValue: '1', listClass: 'success', cssClass: '' },
      { dictLabel: 'Disabled', dictValue: '0', listClass: 'danger', cssClass: '' },
    ]);
    const zh = await s.call<{ dictLabel: string }[]>('GET', '/system/dict/data/type/userStatus', { token: admin, lang: 'zh' });
    expect(zh.data.map((d) => d.dictLabel)).toEqual(['启用', '停用']);
  });
  it('refuses an unknown dictionary with 400 naming the type', async () => {
    expect(await s.call('GET', '/system/dict/data/type/nope', { token: admin })).toMatchObject({ code: 400, data: { field: 'type' } });
  });
  it('serves the public settings', async () => {
    expect((await s.call('GET', '/system/config/configKey/export.maxRows', { token: admin })).data).toBe(String(s.config.exportMaxRows));
    expect((await s.call('GET', '/system/config/configKey/csms.reader.port', { token: admin })).data).toBe(String(s.config.readerPort));
  });
});

describe('event stream', () => {
  it("delivers a user its own events and no one else's", async () => {
    const token = await s.login();
    const controller = new AbortController();
    const res = await fetch(`${s.url}/prod-api/web/events`, { headers: { cookie: `Admin-Token=${token}` }, signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const read = async () => new TextDecoder().decode((await reader.read()).value);
    expect(await read()).toContain('retry:');
    s.app.events.publish({ type: 'export.progress', userId: 1, payload: { exportId: 'e1', done: 5, total: 10 } });
    s.app.events.publish({ type: 'export.progress', userId: 999, payload: { exportId: 'other' } });
    const chunk = await read();
    expect(chunk).toContain('event: export.progress');
    expect(chunk).toContain('"exportId":"e1"');
    expect(chunk).not.toContain('other');
    controller.abort();
  });

  it('a disabled role: no new stream and no session reads but its sign-in; an open stream keeps only its user’s own events', async () => {
    const token = await s.login();
    const { role } = await import('../../db/schema.js');
    const { eq } = await import('drizzle-orm');
    const { SCOPE_CHANGED } = await import('../../lib/events.js');
    const controller = new AbortController();
    const res = await fetch(`${s.url}/prod-api/web/events`, { headers: { cookie: `Admin-Token=${token}` }, signal: controller.signal });
    const reader = res.body!.getReader();
    const read = async () => new TextDecoder().decode((await reader.read()).value);
    expect(await read()).toContain('retry:');
    await s.database.db.update(role).set({ enabled: false }).where(eq(role.id, 1));
    try {
      // Told at once that its scope changed, the open stream reads it again; until then charger events still pass.
      s.app.events.publish({ type: SCOPE_CHANGED, userId: 1, payload: {} });
      await eventually(async () => {
        const probe = `probe-${Math.random()}`;
        s.app.events.publish({ type: 'point.status', providerId: 1, stationId: 1, payload: { chargePointId: 7, status: 'Charging' } });
        s.app.events.publish({ type: 'export.progress', userId: 1, payload: { exportId: probe } });
        let text = '';
        while (!text.includes(probe)) text += await read();
        return !text.includes('point.status');
      });
      // A new stream, and the dashboard's figures, are refused; /web/info still answers (the console then signs out).
      expect(await (await fetch(`${s.url}/prod-api/web/events`, { headers: { cookie: `Admin-Token=${token}` } })).json()).toMatchObject({
        code: 403,
      });
      expect((await s.call('GET', '/web/statistics/today', { token })).code).toBe(403);
      expect(await s.call('POST', '/web/info', { token })).toMatchObject({ code: 200, data: { rolePaths: ['forbidden'] } });
    } finally {
      controller.abort();
      await s.database.db.update(role).set({ enabled: true }).where(eq(role.id, 1));
    }
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${s.url}/prod-api/web/events`);
    expect(await res.json()).toMatchObject({ code: 401 });
  });
});

describe('console hosting', () => {
  it('serves the built console with a history-mode fallback, never for API paths', async () => {
    const dist = fs.mkdtempSync(path.join(s.config.dataDir, 'dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const c = await startServer({ webDist: dist });
    try {
      for (const route of ['/', '/dashboard', '/systemManagement/organizationManage?page=2']) {
        const res = await fetch(c.url + route);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('<div id="root">');
      }
      expect(await (await fetch(`${c.url}/assets/app.js`)).text()).toBe('console.log(1)');
      expect(await (await fetch(`${c.url}/prod-api/nothing-here`)).json()).toMatchObject({ code: 404 });
    } finally {
      await c.close();
    }
  });
});
