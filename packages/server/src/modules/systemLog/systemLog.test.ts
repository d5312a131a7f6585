import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { png } from '../../../test/support/files.js';

/** System log screen, export configuration (read by the exports) and the personal center. */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

type Log = { id: number; operation: string; operator: string; operand: string; result: number };
const csv = async (path: string, token: string, body: unknown, lang = 'en') => {
  const res = await fetch(`${s.url}/prod-api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-language': lang },
    body: JSON.stringify(body),
  });
  return (await res.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
};

describe('system log', () => {
  it('searches by operation, operator, operand and time, with a detail holding the redacted request', async () => {
    await s.call('POST', '/web/organizationManage/createOrg', { token: admin, body: { orgName: 'Logged org' } });
    await s.call('POST', '/web/userManage/addProvider', {
      token: admin,
      body: {
        providerName: 'P',
        parentId: 1,
        expiration: 1,
        mailAccount: 'a@b.test',
        mailAuthCode: 'top-secret',
        smtpAddress: 'h',
        smtpPort: 25,
      },
    });
    const since = new Date(Date.now() - 60_000).toISOString();
    const found = await s.call<{ list: Log[]; total: number }>('POST', '/web/logs/findOperateLogs', {
      token: admin,
      body: { page: 1, limit: 10, operation: 'add', operator: 'adm', operand: 'Logged', startTime: since },
    });
    expect(found.data).toMatchObject({
      total: 1,
      list: [{ operation: 'add', operator: 'admin', operand: 'organization:Logged org', result: 200 }],
    });
    const future = await s.call<{ total: number }>(
      'GET',
      `/web/logs/getOperateLogs?page=1&limit=10&startTime=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      { token: admin },
    );
    expect(future.data.total).toBe(0);

    const prov = await s.call<{ list: Log[] }>('GET', '/web/logs/getOperateLogs?page=1&limit=10&operand=provider', { token: admin });
    const detail = await s.call<{ request: Record<string, unknown> }>('GET', `/web/logs/getOperateLog?id=${prov.data.list[0]!.id}`, {
      token: admin,
    });
    expect(detail.data.request).toMatchObject({ providerName: 'P', mailAuthCode: '***' });
  });

  it('offers the operation types with labels in the caller language', async () => {
    const zh = await s.call<{ dictValue: string; dictLabel: string }[]>('POST', '/web/logs/getOperateDescription', {
      token: admin,
      lang: 'zh',
    });
    expect(zh.data).toContainEqual(expect.objectContaining({ dictValue: 'resetPassword', dictLabel: '重置密码' }));
  });

  it("shows a common provider's users only their own providers' rows", async () => {
    const op = await createOperator(s.database.db, { permissions: ['system:log:list', 'system:organization:add'] });
    const t = await s.login(op.user.username, op.user.password);
    await s.call('POST', '/web/organizationManage/createOrg', { token: t, body: { orgName: 'Mine' } });
    const rows = await s.call<{ list: Log[] }>('GET', '/web/logs/getOperateLogs?page=1&limit=50', { token: t });
    expect(rows.data.list.map((r) => r.operator)).toEqual([op.user.username, op.user.username]);
  });
});

describe('export configuration', () => {
  it('stores the columns per provider and the exports follow them', async () => {
    const before = await s.call('GET', '/web/config/getExportConfig?exportSource=organization', { token: admin });
    expect(before.data).toMatchObject({
      configured: false,
      exportItemList: ['id', 'orgName', 'description', 'providerName', 'roleCount', 'createTime'],
    });
    const bad = await s.call('POST', '/web/config/exportConfig', {
      token: admin,
      body: { exportSource: 'organization', exportItemList: ['orgName', 'secret'] },
    });
    expect(bad).toMatchObject({ code: 400, msg: 'Export column "secret" does not exist', data: { field: 'exportItemList' } });
    const saved = await s.call('POST', '/web/config/exportConfig', {
      token: admin,
      body: { exportSource: 'organization', exportItemList: ['orgName', 'id'] },
    });
    expect(saved.data).toMatchObject({ configured: true, exportItemList: ['orgName', 'id'] });

    const [head] = await csv('/web/organizationManage/exportOrganizations', admin, { format: 'csv' });
    expect(head).toBe('Organisation name,ID');
    await s.call('POST', '/web/config/exportConfig', {
      token: admin,
      body: { exportSource: 'systemLog', exportItemList: ['operation', 'operator'] },
    });
    const [logHead, first] = await csv('/web/logs/exportOperateLogs', admin, { format: 'csv' }, 'zh');
    expect(logHead).toBe('操作类型,操作人员');
    expect(first).toBe('登录,admin');

    // Another provider still gets the defaults.
    const op = await createOperator(s.database.db, { permissions: ['system:user:export'] });
    const t = await s.login(op.user.username, op.user.password);
    expect((await s.call('GET', '/web/config/getExportConfig?exportSource=organization', { token: t })).data).toMatchObject({
      configured: false,
    });
    const [userHead] = await csv('/web/userManage/exportUsers', t, { format: 'csv' });
    expect(userHead).toBe('ID,Username,Name,Mobile phone,Email,Role,Provider,Status,Last sign-in,Created at');
  });
});

describe('personal center', () => {
  it('reads and edits the signed-in user only', async () => {
    const op = await createOperator(s.database.db, {});
    const t = await s.login(op.user.username, op.user.password);
    const me = await s.call('GET', '/web/userManage/getProfile', { token: t });
    expect(me.data).toMatchObject({ username: op.user.username, name: null });
    // The avatar is an image this user uploaded (stored-images.test.ts covers what is refused).
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png())]), 'me.png');
    const up = (await (
      await fetch(`${s.url}/prod-api/common/upload?kind=image`, { method: 'POST', headers: { authorization: `Bearer ${t}` }, body: form })
    ).json()) as { url: string };
    const r = await s.call('POST', '/web/userManage/updateProfile', {
      token: t,
      body: { name: 'Zhang San', phone: '13711112222', email: 'zs@example.test', avatar: up.url },
    });
    expect(r.data).toMatchObject({ name: 'Zhang San', phone: '13711112222', email: 'zs@example.test', avatar: up.url });
    expect((await s.call('POST', '/web/userManage/updateProfile', { token: t, body: { email: 'not-mail' }, lang: 'zh' })).msg).toBe(
      '邮箱不是有效的邮箱地址',
    );
    await s.call('POST', '/web/userManage/updateProfile', { token: admin, body: { phone: '13799990000' } });
    expect((await s.call('POST', '/web/userManage/updateProfile', { token: t, body: { phone: '13799990000' } })).code).toBe(409);
  });
});
