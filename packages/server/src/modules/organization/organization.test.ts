import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createProvider, createRole } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { organization, systemLog } from '../../db/schema.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ exportMaxRows: 50 });
  admin = await s.login();
});
afterAll(() => s.close());

type Org = { id: number; orgName: string; description: string | null; providerId: number; roleCount: number };
const add = (token: string, body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<Org>('POST', '/web/organizationManage/createOrg', { token, body, lang });
const list = (token: string, q = '') =>
  s.call<{ list: Org[]; total: number }>('GET', `/web/organizationManage/queryOrganizations?page=1&limit=10${q}`, { token });

describe('organisations', () => {
  it('creates, lists with search and pagination, gets and edits', async () => {
    const a = await add(admin, { orgName: ' East ', description: 'Shanghai and Hangzhou' });
    expect(a).toMatchObject({
      code: 200,
      data: { orgName: 'East', description: 'Shanghai and Hangzhou', roleCount: 0, providerName: 'CSMS' },
    });
    await add(admin, { orgName: 'West' });
    expect((await list(admin, '&orgName=eas')).data).toMatchObject({ total: 1, list: [{ orgName: 'East' }] });
    expect((await s.call('GET', '/web/organizationManage/queryOrganizations?page=1&limit=7', { token: admin })).code).toBe(400);

    const got = await s.call<Org>('GET', `/web/organizationManage/getOrganization?id=${a.data.id}`, { token: admin });
    expect(got.data.orgName).toBe('East');
    const edited = await s.call<Org>('POST', '/web/organizationManage/editOrganization', {
      token: admin,
      body: { id: a.data.id, orgName: 'East China', description: '' },
    });
    expect(edited.data).toMatchObject({ orgName: 'East China', description: null });
  });

  it('refuses a duplicate name with 409 naming the field, in both languages', async () => {
    await add(admin, { orgName: 'North' });
    expect(await add(admin, { orgName: 'North' })).toEqual({
      code: 409,
      msg: 'Organisation name "North" already exists',
      data: { field: 'orgName' },
    });
    expect((await add(admin, { orgName: 'North' }, 'zh')).msg).toBe('组织名称“North”已存在');
    const south = await add(admin, { orgName: 'South' });
    const r = await s.call('POST', '/web/organizationManage/editOrganization', {
      token: admin,
      body: { id: south.data.id, orgName: 'North' },
    });
    expect(r.code).toBe(409);
  });

  it('refuses a too-long name and changes nothing', async () => {
    const before = (await s.database.db.select({ n: count() }).from(organization))[0]!.n;
    const r = await add(admin, { orgName: 'x'.repeat(51) });
    expect(r).toMatchObject({ code: 400, data: { field: 'orgName' }, msg: 'Organisation name must be at most 50 characters' });
    expect((await s.database.db.select({ n: count() }).from(organization))[0]!.n).toBe(before);
  });

  it('will not remove an organisation that still has roles', async () => {
    const o = await add(admin, { orgName: 'Busy' });
    await createRole(s.database.db, { providerId: 1, orgId: o.data.id });
    const r = await s.call('POST', '/web/organizationManage/deleteOrganization', { token: admin, body: { ids: [o.data.id] } });
    expect(r).toMatchObject({ code: 409, msg: 'Organisation "Busy" still has roles and cannot be removed' });
    const free = await add(admin, { orgName: 'Free' });
    expect(
      await s.call('POST', '/web/organizationManage/deleteOrganization', { token: admin, body: { ids: [free.data.id] } }),
    ).toMatchObject({ code: 200, data: { removed: 1 } });
  });

  it('logs each mutation once with operator and operand', async () => {
    const before = (await s.database.db.select({ n: count() }).from(systemLog))[0]!.n;
    await add(admin, { orgName: 'Logged' });
    const rows = await s.database.db.select().from(systemLog).where(eq(systemLog.operand, 'organization:Logged'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: 'add', operator: 'admin', result: 200 });
    expect((await s.database.db.select({ n: count() }).from(systemLog))[0]!.n).toBe(before + 1);
  });
});

describe('provider scope', () => {
  it("a common provider's user sees and touches only its own subtree", async () => {
    const perms = ['list', 'query', 'add', 'edit', 'remove', 'export'].map((a) => `system:organization:${a}`);
    const a = await createOperator(s.database.db, { permissions: perms, rolePaths: ['/systemManagement/organizationManage'] });
    const child = await createProvider(s.database.db, { parentId: a.providerId });
    const childOp = await createOperator(s.database.db, { permissions: perms, providerId: child.id });
    const b = await createOperator(s.database.db, { permissions: perms });
    const ta = await s.login(a.user.username, a.user.password);
    const tc = await s.login(childOp.user.username, childOp.user.password);
    const tb = await s.login(b.user.username, b.user.password);

    const orgA = (await add(ta, { orgName: 'A-org' })).data;
    const orgC = (await add(tc, { orgName: 'Child-org' })).data;
    // Same name in another provider is fine: names are unique per provider.
    expect((await add(tb, { orgName: 'A-org' })).code).toBe(200);

    expect((await list(ta)).data.list.map((o) => o.orgName).sort()).toEqual(['A-org', 'Child-org']);
    expect((await list(tc)).data.list.map((o) => o.orgName)).toEqual(['Child-org']);
    expect((await list(tb)).data.list.map((o) => o.orgName)).toEqual(['A-org']);
    expect((await list(admin, '&orgName=A-org')).data.total).toBe(2);

    // Provider B with provider A's ids: 404 and nothing changes.
    expect((await s.call('GET', `/web/organizationManage/getOrganization?id=${orgA.id}`, { token: tb })).code).toBe(404);
    expect(
      (await s.call('POST', '/web/organizationManage/editOrganization', { token: tb, body: { id: orgA.id, orgName: 'stolen' } })).code,
    ).toBe(404);
    expect((await s.call('POST', '/web/organizationManage/deleteOrganization', { token: tb, body: { ids: [orgA.id] } })).code).toBe(404);
    expect(
      (await s.call('POST', '/web/organizationManage/deleteOrganization', { token: tc, body: { ids: [orgC.id, orgA.id] } })).code,
    ).toBe(404);
    const [still] = await s.database.db.select().from(organization).where(eq(organization.id, orgA.id));
    expect(still?.orgName).toBe('A-org');
    expect((await s.call('GET', `/web/organizationManage/getOrganization?id=${orgC.id}`, { token: tc })).code).toBe(200);
  });
});

describe('export', () => {
  async function exportOrgs(body: unknown) {
    return fetch(`${s.url}/prod-api/web/organizationManage/exportOrganizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify(body),
    });
  }

  it('streams CSV with translated headers and a download-filename', async () => {
    const res = await exportOrgs({ format: 'csv', orgName: 'East' });
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(decodeURIComponent(res.headers.get('download-filename')!)).toMatch(/^organization_\d{14}\.csv$/);
    const text = await res.text();
    const [head, ...rows] = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(head).toBe('ID,Organisation name,Description,Provider,Roles,Created at');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('East China');
  });

  it('streams xlsx that a spreadsheet reader opens', async () => {
    const res = await exportOrgs({ format: 'xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(2).value).toBe('Organisation name');
    const total = (await list(admin)).data.total;
    expect(ws.actualRowCount).toBe(total + 1);
  });

  it('asks for a narrower range above the row limit', async () => {
    for (let i = 0; i < 50; i++) await add(admin, { orgName: `bulk-${i}` });
    const res = await exportOrgs({ format: 'csv' });
    const body = (await res.json()) as { code: number; msg: string };
    expect(body.code).toBe(409);
    expect(body.msg).toMatch(/Too many rows to export \(\d+, limit 50\)/);
  });
});
