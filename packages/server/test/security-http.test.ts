import http from 'node:http';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/app.js';
import { organization, systemLog } from '../src/db/schema.js';
import { eventually } from './ocpp/support.js';
import { png } from './support/files.js';
import { startServer, type Envelope, type TestServer } from './harness.js';

/**
 * Issue 12, items 3 (HTTP), 7 and 8: the system log cannot be skipped, sessions and headers,
 * errors and limits. One server for the file (behind a "proxy": X-Forwarded-Proto says TLS),
 * event streams pinged every 100 ms so that a ping is seen without waiting 25 s.
 */
let s: TestServer;
let admin: string;
let seq = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`;

beforeAll(async () => {
  s = await startServer({ trustProxy: 1, eventStreamPingMs: 100 });
  admin = await s.login();
});
afterAll(() => s.close());

/** A raw request: status, headers and the parsed body (or its text). */
async function raw(method: string, p: string, opts: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
  const res = await fetch(s.url + p, { method, headers: opts.headers, body: opts.body });
  const text = await res.text();
  let json: Envelope | undefined;
  try {
    json = JSON.parse(text) as Envelope;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const orgsNamed = async (name: string) => s.database.db.select().from(organization).where(eq(organization.orgName, name));
const lastLog = async (path: string) =>
  (await s.database.db.select().from(systemLog).where(eq(systemLog.path, path)).orderBy(desc(systemLog.id)).limit(1))[0];

describe('the system log cannot be skipped (item 3)', () => {
  it('refuses NUL in a body as bad input naming the field, in both languages, and changes nothing', async () => {
    const name = uniq('nul');
    for (const lang of ['en', 'zh'] as const) {
      const r = await s.call('POST', '/web/organizationManage/createOrg', {
        token: admin,
        lang,
        body: { orgName: name, description: 'a\u0000b' },
      });
      expect(r).toMatchObject({
        code: 400,
        msg:
          lang === 'en'
            ? 'Description contains a character that is not allowed (NUL or broken Unicode)'
            : '描述包含不允许的字符（空字符或无效的 Unicode）',
        data: { field: 'description' },
      });
    }
    expect(await orgsNamed(name)).toEqual([]);
    // The refused attempt is in the system log, its text made storable.
    const row = await lastLog('/web/organizationManage/createOrg');
    expect(row).toMatchObject({ result: 400, request: { orgName: name, description: 'a\ufffdb' } });
  });

  it('refuses NUL and broken UTF-16 in query filters, nested fields and keys, never a 500', async () => {
    const list = await s.call('GET', '/web/organizationManage/queryOrganizations?orgName=%00', { token: admin });
    expect(list).toMatchObject({ code: 400, data: { field: 'orgName' } });
    expect(list.msg).toContain('Organisation name');
    const surrogate = await raw('POST', '/prod-api/web/organizationManage/createOrg', {
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: '{"orgName":"x\\ud800y"}',
    });
    expect(surrogate.json).toMatchObject({ code: 400, data: { field: 'orgName' } });
    const key = await s.call('POST', '/web/organizationManage/createOrg', { token: admin, body: { orgName: uniq('k'), ['a\u0000']: 1 } });
    expect(key).toMatchObject({ code: 400, data: { field: 'a\ufffd' } });
  });

  it('logs the validated body with secrets redacted, not what was sent', async () => {
    const name = uniq('valid');
    const r = await s.call('POST', '/web/organizationManage/createOrg', { token: admin, body: { orgName: `  ${name}  `, notAField: 'x' } });
    expect(r.code).toBe(200);
    const row = await lastLog('/web/organizationManage/createOrg');
    expect(row).toMatchObject({ result: 200, request: { orgName: name } });
    expect(row!.request).not.toHaveProperty('notAField');
    await s.call('POST', '/web/login', { body: { username: 'admin', password: 'wrong-password' } });
    const login = await lastLog('/web/login');
    expect(login).toMatchObject({ result: 401, operator: 'admin', request: { username: 'admin', password: '***' } });
  });

  it('writes the change and its row in one transaction: when the row cannot be written, the change does not happen', async () => {
    // The database itself refuses this one row (a constraint a test can add), as it refused NUL before.
    await s.database.db.execute(
      sql`alter table system_log add constraint audit_must_fail check (coalesce(request->>'description', '') <> 'audit-must-fail')`,
    );
    try {
      const name = uniq('rollback');
      const r = await s.call('POST', '/web/organizationManage/createOrg', {
        token: admin,
        lang: 'zh',
        body: { orgName: name, description: 'audit-must-fail' },
      });
      expect(r).toMatchObject({ code: 500, msg: '系统内部错误，请联系管理员' });
      expect(await orgsNamed(name)).toEqual([]);
      // The same change with a row that can be written goes through, with exactly one row.
      const ok = await s.call('POST', '/web/organizationManage/createOrg', {
        token: admin,
        body: { orgName: name, description: 'fine' },
      });
      expect(ok.code).toBe(200);
      expect(await orgsNamed(name)).toHaveLength(1);
      const rows = await s.database.db
        .select()
        .from(systemLog)
        .where(and(eq(systemLog.path, '/web/organizationManage/createOrg'), sql`${systemLog.request}->>'orgName' = ${name}`));
      expect(rows).toMatchObject([{ result: 200 }]);
    } finally {
      await s.database.db.execute(sql`alter table system_log drop constraint audit_must_fail`);
    }
  });

  it('writes the row of an action outside the database before it runs, and completes it after (sign-in, upload)', async () => {
    await s.call('POST', '/web/login', { body: { username: 'admin', password: 'admin123' } });
    expect(await lastLog('/web/login')).toMatchObject({ result: 200, operator: 'admin', userId: 1 });
    const form = new FormData();
    form.append('file', new Blob([png()]), `a${'\u0000'}.png`);
    const res = await fetch(`${s.url}/prod-api/common/upload?kind=image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(await res.json()).toMatchObject({ code: 400, data: { field: 'file' } });
    expect(await lastLog('/common/upload')).toMatchObject({ result: 400 });
  });
});

describe('sessions and headers (item 7)', () => {
  it('refuses a request whose Authorization and X-Token name two different sessions', async () => {
    const other = await s.login();
    const info = (headers: Record<string, string>) => s.call('POST', '/web/info', { headers });
    expect((await info({ authorization: `Bearer ${admin}`, 'x-token': other })).code).toBe(401);
    expect((await info({ authorization: `Bearer ${admin}`, 'x-token': 'not-a-session' })).code).toBe(401);
    expect((await info({ authorization: `Bearer ${admin}`, 'x-token': admin })).code).toBe(200);
    expect((await info({ 'x-token': other })).code).toBe(200);
  });

  it('never reads the token from the URL', async () => {
    expect((await s.call('POST', `/web/info?token=${admin}`)).code).toBe(401);
    expect((await s.call('GET', `/web/organizationManage/queryOrganizations?token=${admin}`)).code).toBe(401);
  });

  it('redacts a token parameter from logged URLs however its name is spelt', () => {
    expect(redactUrl('/prod-api/web/info?token=abc&x=1')).toBe('/prod-api/web/info?token=***&x=1');
    expect(redactUrl('/prod-api/web/info?%74oken=abc')).toBe('/prod-api/web/info?%74oken=***');
    expect(redactUrl(`/files/diagnostics/${'c'.repeat(64)}`)).toBe('/files/diagnostics/***');
    expect(redactUrl('/prod-api/web/info?a=1&TOKEN=abc')).toBe('/prod-api/web/info?a=1&TOKEN=***');
    expect(redactUrl('/prod-api/web/info?%41ccess_token=abc')).toBe('/prod-api/web/info?%41ccess_token=***');
    expect(redactUrl('/prod-api/web/info?tokens=abc')).toBe('/prod-api/web/info?tokens=abc');
  });

  it('sets the session cookie on sign-in: HttpOnly, SameSite=Lax, Secure only over TLS; sign-out clears it', async () => {
    const signIn = (headers: Record<string, string> = {}) =>
      raw('POST', '/prod-api/web/login', {
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ username: 'admin', password: 'admin123' }),
      });
    const plain = await signIn();
    const cookie = plain.headers.get('set-cookie') ?? '';
    const token = (plain.json!.data as { token: string }).token;
    expect(cookie).toContain(`Admin-Token=${token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    const tls = await signIn({ 'x-forwarded-proto': 'https' });
    expect(tls.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    const out = await raw('POST', '/prod-api/web/logout', { headers: { authorization: `Bearer ${token}` } });
    expect(out.headers.get('set-cookie')).toMatch(/Admin-Token=;.*Expires=Thu, 01 Jan 1970/i);
  });

  it('lets the cookie authorise only what a browser opens itself, never a change', async () => {
    const name = uniq('csrf');
    const r = await raw('POST', '/prod-api/web/organizationManage/createOrg', {
      headers: { cookie: `Admin-Token=${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orgName: name }),
    });
    expect(r.json).toMatchObject({ code: 401 });
    expect(await orgsNamed(name)).toEqual([]);
    expect(
      (await raw('GET', '/prod-api/web/organizationManage/queryOrganizations', { headers: { cookie: `Admin-Token=${admin}` } })).json,
    ).toMatchObject({ code: 401 });
  });

  it('puts CSP (never framed), nosniff and Referrer-Policy on every answer, HSTS over TLS only', async () => {
    const answers = [
      await raw('GET', '/prod-api/health'),
      await raw('GET', '/prod-api/no/such/route'),
      await raw('POST', '/prod-api/web/login', { headers: { 'content-type': 'application/json' }, body: '{' }),
      await raw('GET', '/not-the-api'),
    ];
    for (const a of answers) {
      expect(a.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(a.headers.get('content-security-policy')).toContain("img-src 'self' data: blob:");
      expect(a.headers.get('x-content-type-options')).toBe('nosniff');
      expect(a.headers.get('referrer-policy')).toBe('same-origin');
      expect(a.headers.get('strict-transport-security')).toBeNull();
    }
    const tls = await raw('GET', '/prod-api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it("keeps a stored file's own stricter CSP", async () => {
    const form = new FormData();
    form.append('file', new Blob([png()]), 'pic.png');
    const up = (await (
      await fetch(`${s.url}/prod-api/common/upload?kind=image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
        body: form,
      })
    ).json()) as { code: number; fileName: string };
    expect(up.code).toBe(200);
    const file = await raw('GET', `/prod-api/common/download?fileName=${encodeURIComponent(up.fileName)}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });

  /** An event stream read as it arrives: the text so far and whether the server ended it. */
  function openStream(headers: Record<string, string>) {
    const { port } = new URL(s.url);
    const state = { text: '', ended: false, status: 0, csp: '' as string | undefined, req: undefined as http.ClientRequest | undefined };
    state.req = http.get({ host: '127.0.0.1', port, path: '/prod-api/web/events', headers }, (res) => {
      state.status = res.statusCode ?? 0;
      state.csp = res.headers['content-security-policy'] as string | undefined;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (state.text += chunk));
      res.on('end', () => (state.ended = true));
    });
    state.req.on('error', () => (state.ended = true));
    return state;
  }
  const pings = (text: string) => text.split(': ping').length - 1;

  it('keeps an event stream opened with a valid token (cookie or header) open past its pings, and ends it once revoked', async () => {
    const byHeader = await s.login();
    const byXToken = await s.login();
    const byCookie = await s.login();
    const streams = [
      openStream({ authorization: `Bearer ${byHeader}` }),
      openStream({ 'x-token': byXToken }),
      openStream({ cookie: `Admin-Token=${byCookie}` }),
    ];
    try {
      await eventually(async () => streams.every((st) => pings(st.text) >= 3));
      for (const st of streams) {
        expect(st.status).toBe(200);
        expect(st.csp).toContain("frame-ancestors 'none'");
        expect(st.text).not.toContain('session.revoked');
        expect(st.ended).toBe(false);
      }
      await s.call('POST', '/web/logout', { token: byXToken });
      await eventually(async () => streams[1]!.ended);
      expect(streams[1]!.text).toContain('event: session.revoked');
      expect(streams[0]!.ended || streams[2]!.ended).toBe(false);
    } finally {
      for (const st of streams) st.req?.destroy();
    }
  });
});

describe('errors and limits (item 8)', () => {
  const post = (body: string | Buffer | undefined, headers: Record<string, string>) =>
    raw('POST', '/prod-api/web/organizationManage/createOrg', { headers: { authorization: `Bearer ${admin}`, ...headers }, body });

  it('answers an empty, a malformed and a too large JSON body with the envelope, in the caller language', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: [string | Buffer | undefined, Record<string, string>, string, string][] = [
      [undefined, json, 'The request body is empty; send a JSON object', '请求体为空，请发送 JSON 对象'],
      ['', json, 'The request body is empty; send a JSON object', '请求体为空，请发送 JSON 对象'],
      ['{"orgName": ', json, 'The request body is not valid JSON', '请求体不是有效的 JSON'],
      [Buffer.alloc(2 * 1024 * 1024 + 10, 0x20), json, 'The request is too large (at most 2 MB)', '请求过大（最多 2 MB）'],
      [
        'orgName=x',
        { 'content-type': 'text/plain' },
        'Unsupported content type text/plain; send JSON',
        '不支持的内容类型 text/plain，请发送 JSON',
      ],
    ];
    for (const [body, headers, en, zh] of cases) {
      for (const [lang, msg] of [
        ['en', en],
        ['zh', zh],
      ] as const) {
        const r = await post(body, { ...headers, 'x-language': lang });
        expect(r.status, r.text).toBe(200);
        expect(r.json, r.text).toEqual({ code: 400, msg, data: null });
        expect(r.text).not.toContain('FST_');
      }
    }
  });

  it('answers a multipart body to a JSON endpoint, an unknown route, a wrong method and a broken URL with the envelope', async () => {
    const form = new FormData();
    form.append('orgName', 'x');
    const multipart = await fetch(`${s.url}/prod-api/web/organizationManage/createOrg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(await multipart.json()).toMatchObject({ code: 400 });
    for (const [method, p] of [
      ['GET', '/prod-api/no/such/route'],
      ['GET', '/prod-api/web/login'],
      ['DELETE', '/prod-api/web/organizationManage/createOrg'],
      ['PUT', '/prod-api/web/info'],
    ]) {
      const r = await raw(method!, p!, { headers: { 'x-language': 'zh' } });
      expect(r.status).toBe(200);
      expect(r.json, `${method} ${p}`).toEqual({ code: 404, msg: '资源不存在', data: null });
    }
    const badUrl = await raw('GET', '/prod-api/common/dict/data/type/%E0%A4%A', { headers: { 'x-language': 'en' } });
    expect(badUrl.text).not.toContain('FST_');
    expect(badUrl.json).toMatchObject({ code: expect.any(Number), msg: expect.any(String) });
  });

  it('takes only the spec page sizes, 1000 for messages only, refusing others naming the field', async () => {
    for (const limit of [10, 20, 50, 300]) {
      expect((await s.call('GET', `/web/organizationManage/queryOrganizations?limit=${limit}`, { token: admin })).code).toBe(200);
    }
    for (const limit of [30, 1000, 0, 100000]) {
      expect(await s.call('GET', `/web/organizationManage/queryOrganizations?limit=${limit}`, { token: admin })).toMatchObject({
        code: 400,
        msg: 'Page size must be 10, 20, 50 or 300',
        data: { field: 'limit' },
      });
    }
    expect(await s.call('GET', '/web/organizationManage/queryOrganizations?limit=30', { token: admin, lang: 'zh' })).toMatchObject({
      msg: '每页条数只能是 10、20、50、300',
    });
    expect((await s.call('GET', '/web/msg/getAllMsg?limit=1000', { token: admin })).code).toBe(200);
    expect(await s.call('GET', '/web/msg/getAllMsg?limit=30', { token: admin })).toMatchObject({
      code: 400,
      msg: 'Page size must be 10, 20, 50, 300 or 1000',
      data: { field: 'limit' },
    });
  });
});
