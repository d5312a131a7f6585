import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { startSmtpServer } from '../../../test/support/smtp-server.js';

let s: TestServer;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  smtp = await startSmtpServer({ user: 'ops@east.test', pass: 'auth-code-123' });
});
afterAll(async () => {
  await smtp.close();
  await s.close();
});

type Provider = {
  id: number;
  providerName: string;
  providerType: string;
  parentId: number;
  expirationTime: string;
  hasMailAuthCode: boolean;
  mailAuthCodeMasked: string;
  smtpPort: number;
  contact: string | null;
};
const body = (v: Record<string, unknown> = {}) => ({
  providerName: 'East Charging',
  parentId: 1,
  expiration: 2,
  email: 'info@east.test',
  contact: 'Li Lei',
  phone: '021-5555 0000',
  mailAccount: 'ops@east.test',
  mailAuthCode: 'auth-code-123',
  smtpAddress: '127.0.0.1',
  smtpPort: smtp.port,
  ...v,
});
const add = (token: string, v: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
  s.call<Provider>('POST', '/web/userManage/addProvider', { token, body: body(v), lang });

describe('providers', () => {
  it('creates a common provider with an expiry and never returns the authorization code', async () => {
    const r = await add(admin);
    expect(r).toMatchObject({
      code: 200,
      data: { providerName: 'East Charging', providerType: 'common', parentId: 1, hasMailAuthCode: true, mailAuthCodeMasked: 'a******3' },
    });
    expect(JSON.stringify(r)).not.toContain('auth-code-123');
    const years = (Date.parse(r.data.expirationTime) - Date.now()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(1.99);
    expect(years).toBeLessThan(2.01);
    expect((await add(admin, { expiration: 5 })).code).toBe(400);
    expect((await add(admin, { mailAuthCode: undefined }, 'zh')).msg).toBe('请输入邮箱授权码');

    const got = await s.call<Provider>('GET', `/web/getProvider?id=${r.data.id}`, { token: admin });
    expect(got.data.providerName).toBe('East Charging');
    // An empty code on edit keeps the stored one.
    const edited = await s.call<Provider>('POST', '/web/userManage/updateProviderInfo', {
      token: admin,
      body: { ...body(), id: r.data.id, mailAuthCode: '', contact: 'Han Meimei', expiration: undefined },
    });
    expect(edited.data).toMatchObject({ contact: 'Han Meimei', hasMailAuthCode: true, expirationTime: r.data.expirationTime });
  });

  it('sends a test mail through the provider SMTP settings', async () => {
    const p = (await add(admin, { providerName: 'Mail Co' })).data;
    const r = await s.call<{ accepted: boolean; reply: string }>('POST', '/web/userManage/testProviderMail', {
      token: admin,
      body: { id: p.id, to: 'driver@example.test' },
    });
    expect(r).toMatchObject({ code: 200, data: { accepted: true, reply: expect.stringContaining('250') } });
    const mail = smtp.received.at(-1)!;
    expect(mail).toMatchObject({ user: 'ops@east.test', pass: 'auth-code-123', from: 'ops@east.test', to: 'driver@example.test' });
    expect(mail.data).toContain('Subject: Test mail - Mail Co');
    const text = Buffer.from(mail.data.split('\r\n\r\n')[1]!.replace(/\r\n/g, ''), 'base64').toString('utf8');
    expect(text).toContain('"Mail Co" can send mail');
  });

  it('names the cause when the mail cannot be sent, in both languages', async () => {
    const wrong = (await add(admin, { providerName: 'Wrong code', mailAuthCode: 'nope' })).data;
    const r = await s.call('POST', '/web/userManage/testProviderMail', { token: admin, body: { id: wrong.id, to: 'x@example.test' } });
    expect(r).toMatchObject({
      code: 409,
      msg: expect.stringMatching(/^The mail server refused the mail account or authorization code: 535/),
    });
    const zh = await s.call('POST', '/web/userManage/testProviderMail', {
      token: admin,
      body: { id: wrong.id, to: 'x@example.test' },
      lang: 'zh',
    });
    expect(zh.msg).toMatch(/^邮件服务器拒绝了邮箱账号或授权码/);

    const p = (await add(admin, { providerName: 'Bounce' })).data;
    const bounced = await s.call('POST', '/web/userManage/testProviderMail', { token: admin, body: { id: p.id, to: 'who@nowhere.test' } });
    expect(bounced).toMatchObject({ code: 409, msg: expect.stringContaining('550 5.1.1 No such user') });

    const closed = (await add(admin, { providerName: 'Closed port', smtpPort: 1 })).data;
    const down = await s.call('POST', '/web/userManage/testProviderMail', { token: admin, body: { id: closed.id, to: 'x@example.test' } });
    expect(down).toMatchObject({ code: 409, msg: 'Cannot connect to the mail server 127.0.0.1:1: ECONNREFUSED' });
  });

  it("scopes a common provider's users to their subtree and keeps licensing with the super provider", async () => {
    const perms = ['list', 'query', 'add', 'edit'].map((a) => `system:provider:${a}`);
    const parent = (await add(admin, { providerName: 'Parent' })).data;
    const child = (await add(admin, { providerName: 'Child', parentId: parent.id })).data;
    const other = (await add(admin, { providerName: 'Other' })).data;
    const op = await createOperator(s.database.db, { providerId: parent.id, permissions: perms });
    const t = await s.login(op.user.username, op.user.password);

    const found = await s.call<{ list: Provider[]; total: number }>('POST', '/web/userManage/getConditionProviders', {
      token: t,
      body: { page: 1, limit: 10 },
    });
    expect(found.data.list.map((p) => p.providerName).sort()).toEqual(['Child', 'Parent']);
    const options = await s.call<{ providerName: string }[]>('GET', '/web/userManage/getAllProviders', { token: t });
    expect(options.data.map((p) => p.providerName).sort()).toEqual(['Child', 'Parent']);
    expect((await s.call('GET', `/web/getProvider?id=${other.id}`, { token: t })).code).toBe(404);

    expect(await add(t, { parentId: parent.id })).toMatchObject({
      code: 403,
      msg: expect.stringContaining('Only users of the super provider'),
    });
    const renew = await s.call('POST', '/web/userManage/updateProviderInfo', {
      token: t,
      body: { ...body(), id: child.id, parentId: parent.id, providerName: 'Child', expiration: 3 },
    });
    expect(renew.code).toBe(403);
    const contact = await s.call<Provider>('POST', '/web/userManage/updateProviderInfo', {
      token: t,
      body: { ...body(), id: child.id, parentId: parent.id, expiration: undefined, providerName: 'Child', contact: 'New contact' },
    });
    expect(contact.data.contact).toBe('New contact');
    // A provider cannot move below its own descendant.
    const loop = await s.call('POST', '/web/userManage/updateProviderInfo', {
      token: admin,
      body: { ...body(), id: parent.id, providerName: 'Parent', parentId: child.id },
    });
    expect(loop).toMatchObject({ code: 409, data: { field: 'parentId' } });
  });
});

describe('public agreements', () => {
  it('serves a provider disclaimer and privacy agreement without a session, 404 for an unknown provider', async () => {
    const { provider } = await import('../../db/schema.js');
    const { eq } = await import('drizzle-orm');
    await s.database.db
      .update(provider)
      .set({ disclaimer: 'Charge at your own risk.', privacyAgreement: 'We keep your data safe.' })
      .where(eq(provider.id, 1));
    expect(await s.call('GET', '/web/getProviderAgreement?providerId=1&kind=disclaimer')).toMatchObject({
      code: 200,
      data: { providerName: 'CSMS', content: 'Charge at your own risk.' },
    });
    expect((await s.call('GET', '/web/getProviderAgreement?providerId=1&kind=privacyAgreement')).data).toMatchObject({
      content: 'We keep your data safe.',
    });
    expect((await s.call('GET', '/web/getProviderAgreement?providerId=999999&kind=disclaimer')).code).toBe(404);
    expect(await s.call('GET', '/web/getProviderAgreement?providerId=1&kind=secrets')).toMatchObject({
      code: 400,
      data: { field: 'kind' },
    });
  });
});
