import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { REPORTS_PER_WINDOW } from './client-error.routes.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

type Row = {
  message: string;
  count: number;
  route: string;
  username: string | null;
  buildId: string;
  stack: string | null;
  source: string;
};
const report = (body: Record<string, unknown>, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  s.call<{ accepted: boolean }>('POST', '/web/errorLog/report', {
    ...opts,
    body: { source: 'error', route: '/dashboard', buildId: 'b1', ...body },
  });
const list = (token: string, q = '') => s.call<{ list: Row[]; total: number }>('GET', `/web/errorLog/list?page=1&limit=50${q}`, { token });

describe('console error log', () => {
  it('deduplicates by fingerprint with a count, keeping the latest route and user', async () => {
    const stack =
      'TypeError: x is undefined\n    at render (https://csms.test/assets/index-abc.js?v=1:10:5)\n    at commit (https://csms.test/assets/index-abc.js:20:7)';
    expect(await report({ message: 'x is undefined', stack, route: '/station' })).toMatchObject({ code: 200, data: { accepted: true } });
    // The same error from a signed-in user elsewhere, a cache-busting query aside: one row, counted twice.
    const again = await report({ message: 'x is undefined', stack: stack.replace('?v=1', '?v=2'), route: '/point' }, { token: admin });
    expect(again.data.accepted).toBe(true);
    // Another build is another error.
    await report({ message: 'x is undefined', stack, buildId: 'b2' });
    const rows = (await list(admin, '&message=x%20is%20undefined')).data.list;
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.buildId === 'b1')).toMatchObject({
      count: 2,
      route: '/point',
      username: 'admin',
      stack: expect.stringContaining('at render'),
    });
    expect(rows.find((r) => r.buildId === 'b2')).toMatchObject({ count: 1, username: null });
  });

  it('drops reports past the quota of a session or address, and the quota is per key', async () => {
    const op = await createOperator(s.database.db, {});
    const token = await s.login(op.user.username, op.user.password);
    const answers = [];
    for (let i = 0; i < REPORTS_PER_WINDOW + 3; i++) answers.push((await report({ message: `flood ${i}` }, { token })).data.accepted);
    expect(answers.filter(Boolean)).toHaveLength(REPORTS_PER_WINDOW);
    expect(answers.slice(-3)).toEqual([false, false, false]);
    // Another session still reports.
    expect((await report({ message: 'still heard' }, { token: admin })).data.accepted).toBe(true);
    const stored = (await list(admin, '&message=flood')).data.total;
    expect(stored).toBe(REPORTS_PER_WINDOW);
  });

  it('refuses malformed reports naming the field, in the caller’s language', async () => {
    expect(await s.call('POST', '/web/errorLog/report', { body: {}, lang: 'en' })).toMatchObject({ code: 400, data: { field: 'message' } });
    expect(await report({ message: 'm', source: 'console' })).toMatchObject({ code: 400, data: { field: 'source' } });
    expect(await report({ message: 'm'.repeat(1001) })).toMatchObject({ code: 400, data: { field: 'message' } });
  });

  it('lists for those with the permission, each provider its own users’ errors', async () => {
    const a = await createOperator(s.database.db, { permissions: ['system:errorLog:list'], rolePaths: ['/systemManagement/errorLog'] });
    const tokenA = await s.login(a.user.username, a.user.password);
    const b = await createOperator(s.database.db, {});
    const tokenB = await s.login(b.user.username, b.user.password);
    await report({ message: 'in provider A' }, { token: tokenA });
    await report({ message: 'in provider B' }, { token: tokenB });
    const seen = (await list(tokenA)).data.list.map((r) => r.message);
    expect(seen).toContain('in provider A');
    expect(seen).not.toContain('in provider B');
    expect(seen).not.toContain('still heard');
    expect((await list(tokenB)).code).toBe(403);
    expect((await s.call('GET', '/web/errorLog/list?page=1&limit=10')).code).toBe(401);
    expect((await list(admin)).data.list.map((r) => r.message)).toEqual(expect.arrayContaining(['in provider A', 'in provider B']));
  });
});
