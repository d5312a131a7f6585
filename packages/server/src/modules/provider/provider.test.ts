import net from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provider } from '../../db/schema.js';
import { createOperator, createProvider } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { pdf, png, uploadAs } from '../../../test/support/files.js';
import { startSmtpServer } from '../../../test/support/smtp-server.js';

let s: TestServer;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
/** A service on loopback that is not a mail server: what "test mail" must not be able to scan. */
let internal: net.Server;
let internalPort: number;
let internalHits = 0;
beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'ops@east.test', pass: 'auth-code-123' });
  internal = net.createServer((sock) => {
    internalHits += 1;
    sock.end('SSH-2.0-OpenSSH_9.2p1 internal-db-host\r\n');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  internalPort = (internal.address() as net.AddressInfo).port;
  // The administrator's allow-list (CSMS_OUTBOUND_ALLOW) lets providers reach the test mail server and the
  // closed port 1 on 127.0.0.1, and the internal service only under the name "localhost".
  s = await startServer({
    outboundAllow: [
      { host: '127.0.0.1', port: smtp.port },
      { host: '127.0.0.1', port: 1 },
      { host: 'localhost', port: internalPort },
    ],
  });
  admin = await s.login();
});
afterAll(async () => {
  await smtp.close();
  await new Promise((r) => internal.close(r));
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
    // Pointed at another server or account, it is typed again: a test mail would hand the stored one to that server.
    // (Servers the allow-list lets this test server reach: another port, another name.)
    for (const moved of [{ smtpPort: 1 }, { smtpAddress: 'localhost', smtpPort: internalPort }, { mailAccount: 'x@elsewhere.test' }]) {
      const r2 = await s.call('POST', '/web/userManage/updateProviderInfo', {
        token: admin,
        body: { ...body(), id: r.data.id, mailAuthCode: '', expiration: undefined, ...moved },
        lang: 'en',
      });
      expect(r2).toMatchObject({
        code: 400,
        msg: 'Enter the authorization code again when the mail account, SMTP address or port changes',
        data: { field: 'mailAuthCode' },
      });
    }
    const kept = await s.call<Provider & { smtpAddress: string }>('GET', `/web/getProvider?id=${r.data.id}`, { token: admin });
    expect(kept.data.smtpAddress).toBe('127.0.0.1');
  });

  it('sends a test mail through the provider SMTP settings with nodemailer, UTF-8 subject included', async () => {
    const p = (await add(admin, { providerName: 'Mail Co' })).data;
    const mail = (lang: 'zh' | 'en') =>
      s.call<{ accepted: boolean; messageId: string }>('POST', '/web/userManage/testProviderMail', {
        token: admin,
        body: { id: p.id, to: 'driver@example.test' },
        lang,
      });
    const r = await mail('en');
    expect(r).toMatchObject({ code: 200, data: { accepted: true, messageId: expect.stringMatching(/^<.+@.+>$/) } });
    const got = smtp.received.at(-1)!;
    expect(got).toMatchObject({
      user: 'ops@east.test',
      pass: 'auth-code-123',
      from: 'ops@east.test',
      to: 'driver@example.test',
      subject: 'Test mail - Mail Co',
      messageId: r.data.messageId,
    });
    expect(got.text).toContain('"Mail Co" can send mail');
    // What the mail server answered is not passed on: the answer holds exactly these two fields.
    expect(Object.keys(r.data).sort()).toEqual(['accepted', 'messageId']);

    await mail('zh');
    expect(smtp.received.at(-1)).toMatchObject({ subject: '测试邮件 - Mail Co', text: expect.stringContaining('运营商“Mail Co”') });
  });

  it('tells the operator only what kind of failure it was, in both languages, never what the network or the peer said', async () => {
    const test = async (providerId: number, to = 'x@example.test', lang: 'zh' | 'en' = 'en') =>
      s.call('POST', '/web/userManage/testProviderMail', { token: admin, body: { id: providerId, to }, lang });
    const wrong = (await add(admin, { providerName: 'Wrong code', mailAuthCode: 'nope' })).data;
    expect(await test(wrong.id)).toMatchObject({ code: 409, msg: 'The mail server refused the mail account or authorization code' });
    expect((await test(wrong.id, 'x@example.test', 'zh')).msg).toBe('邮件服务器拒绝了邮箱账号或授权码');

    const p = (await add(admin, { providerName: 'Bounce' })).data;
    expect(await test(p.id, 'who@nowhere.test')).toMatchObject({
      code: 409,
      msg: 'The mail server refused the mail; check the recipient address',
    });

    // A closed port and a peer that is no mail server look the same: no ECONNREFUSED, no banner.
    const unreachable = 'The mail server could not be reached; check the SMTP address and port';
    const closed = (await add(admin, { providerName: 'Closed port', smtpPort: 1 })).data;
    expect(await test(closed.id)).toMatchObject({ code: 409, msg: unreachable });
    expect((await test(closed.id, 'x@example.test', 'zh')).msg).toBe('无法连接邮件服务器，请检查 SMTP 地址和端口');
    const before = internalHits;
    const ssh = (await add(admin, { providerName: 'Not SMTP', smtpAddress: 'localhost', smtpPort: internalPort })).data;
    expect(await test(ssh.id)).toMatchObject({ code: 409, msg: unreachable });
    expect(internalHits).toBe(before + 1);
  });

  it("refuses SMTP addresses in the server's own networks and never connects to them unless allowed", async () => {
    const providers = async () => (await s.database.db.select({ n: count() }).from(provider))[0]!.n;
    const stored = await providers();
    const internalAddresses = [
      '127.0.0.1',
      '127.1',
      '2130706433',
      'localhost',
      'mail.localhost',
      '0.0.0.0',
      '10.0.0.8',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '::1',
      '[::1]',
      '::',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
    ];
    for (const smtpAddress of internalAddresses) {
      expect(await add(admin, { providerName: `Scan ${smtpAddress}`, smtpAddress, smtpPort: 25 }), smtpAddress).toMatchObject({
        code: 400,
        msg: 'The SMTP address may not be a loopback, private or link-local address (unless the administrator has allowed it)',
        data: { field: 'smtpAddress' },
      });
    }
    expect((await add(admin, { smtpAddress: '169.254.169.254', smtpPort: 80 }, 'zh')).msg).toBe(
      'SMTP 地址不能是本机、内网或链路本地地址（除非系统管理员已允许）',
    );
    expect(await providers()).toBe(stored);

    // Public addresses and names are fine to store (a name is checked when mail is sent).
    const p = (await add(admin, { providerName: 'Public', smtpAddress: 'smtp.example.invalid', smtpPort: 587 })).data;
    const edit = (v: Record<string, unknown>) =>
      s.call('POST', '/web/userManage/updateProviderInfo', { token: admin, body: { ...body(), id: p.id, providerName: 'Public', ...v } });
    expect(await edit({ smtpAddress: '203.0.113.10' })).toMatchObject({ code: 400, data: { field: 'smtpAddress' } });
    expect((await edit({ smtpAddress: '8.8.8.8', smtpPort: 25 })).code).toBe(200);

    // A row stored before this rule (or by SQL) is refused when mail is sent: nothing connects to the service.
    await s.database.db.update(provider).set({ smtpAddress: '127.0.0.1', smtpPort: internalPort }).where(eq(provider.id, p.id));
    const before = internalHits;
    const r = await s.call('POST', '/web/userManage/testProviderMail', { token: admin, body: { id: p.id, to: 'x@example.test' } });
    expect(r).toMatchObject({ code: 409, msg: 'The mail server could not be reached; check the SMTP address and port' });
    expect(internalHits).toBe(before);
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

describe('my provider', () => {
  it("lets a user who sees only its own provider edit that provider's settings, and no other, within its permission", async () => {
    const own = (await add(admin, { providerName: 'Leaf' })).data;
    const sibling = (await add(admin, { providerName: 'Sibling' })).data;
    const op = await createOperator(s.database.db, { providerId: own.id, permissions: ['system:provider:query', 'system:provider:edit'] });
    const t = await s.login(op.user.username, op.user.password);
    const info = await s.call<{ isShowProvider: boolean; providerId: number }>('POST', '/web/info', { token: t });
    expect(info.data).toMatchObject({ isShowProvider: false, providerId: own.id });

    const edit = (token: string, id: number, v: Record<string, unknown>) =>
      s.call<Provider & { disclaimer: string | null }>('POST', '/web/userManage/updateProviderInfo', {
        token,
        body: { ...body(), expiration: undefined, mailAuthCode: undefined, parentId: undefined, id, ...v },
      });
    const mine = await edit(t, own.id, { providerName: 'Leaf', contact: 'Own admin', disclaimer: '<p><strong>Read me</strong></p>' });
    expect(mine).toMatchObject({ code: 200, data: { id: own.id, contact: 'Own admin', disclaimer: '<p><strong>Read me</strong></p>' } });
    expect((await s.call<Provider>('GET', `/web/getProvider?id=${own.id}`, { token: t })).data.contact).toBe('Own admin');

    // Another provider's id finds nothing, and changes nothing.
    expect((await edit(t, sibling.id, { providerName: 'Taken over', contact: 'Intruder' })).code).toBe(404);
    expect((await edit(t, 1, { providerName: 'Taken over', contact: 'Intruder' })).code).toBe(404);
    const [after] = await s.database.db.select().from(provider).where(eq(provider.id, sibling.id));
    expect(after).toMatchObject({ name: 'Sibling', contact: 'Li Lei' });
    // Licences stay with the super provider.
    expect((await edit(t, own.id, { providerName: 'Leaf', authCount: 99 })).code).toBe(403);

    // Without the edit permission, no edit of its own provider either.
    const reader = await createOperator(s.database.db, { providerId: own.id, permissions: ['system:provider:query'] });
    const r = await s.login(reader.user.username, reader.user.password);
    expect((await edit(r, own.id, { providerName: 'Leaf', contact: 'Reader' })).code).toBe(403);
  });
});

describe('public agreements', () => {
  const agreementOf = (query: string) =>
    s.call<{ providerName: string; logoPath: string | null; content: string | null }>('GET', `/web/getProviderAgreement?${query}`);

  it("are found by the provider's unguessable key, never by its id, and say nothing about a key that matches none", async () => {
    const db = s.database.db;
    const a = await createProvider(db, {
      name: 'Keyed A',
      disclaimer: '<p>Charge at your own risk.</p>',
      privacyAgreement: '<p>We keep your data safe.</p>',
    });
    const b = await createProvider(db, { name: 'Keyed B' });
    expect(a.agreementKey).toMatch(/^[0-9a-f]{32}$/);
    expect(b.agreementKey).not.toBe(a.agreementKey);
    expect(await agreementOf(`key=${a.agreementKey}&kind=disclaimer`)).toMatchObject({
      code: 200,
      data: { providerName: 'Keyed A', content: '<p>Charge at your own risk.</p>' },
    });
    expect((await agreementOf(`key=${a.agreementKey}&kind=privacyAgreement`)).data.content).toBe('<p>We keep your data safe.</p>');
    // The old id link no longer answers with a name: walking ids lists nothing.
    for (const id of [1, a.id, b.id]) {
      const r = await agreementOf(`providerId=${id}&kind=disclaimer`);
      expect(r).toMatchObject({ code: 400, data: { field: 'key' } });
      expect(JSON.stringify(r)).not.toMatch(/Keyed|CSMS/);
    }
    const none = await agreementOf(`key=${'0'.repeat(32)}&kind=disclaimer`);
    expect(none).toMatchObject({ code: 404, data: null });
    expect(await agreementOf(`key=${a.agreementKey}&kind=secrets`)).toMatchObject({ code: 400, data: { field: 'kind' } });
    // Operators who see the provider get its key for the links.
    const seen = await s.call<{ agreementKey: string }>('GET', `/web/getProvider?id=${a.id}`, { token: admin });
    expect(seen.data.agreementKey).toBe(a.agreementKey);
  });

  it('stores the agreements through the allow-list, and shows a text written around it sanitised too', async () => {
    const db = s.database.db;
    const p = await createProvider(db, { mailAccount: 'm@p.test', mailAuthCode: 'c', smtpAddress: 'smtp.p.test', smtpPort: 25 });
    const saved = await s.call<{ disclaimer: string | null; privacyAgreement: string | null }>(
      'POST',
      '/web/userManage/updateProviderInfo',
      {
        token: admin,
        body: {
          id: p.id,
          providerName: p.name,
          mailAccount: 'm@p.test',
          smtpAddress: 'smtp.p.test',
          smtpPort: 25,
          disclaimer:
            '<p onmouseover="steal()">Read <a href="javascript:alert(1)">this</a></p><script>alert(1)</script><img src="data:image/png;base64,AAAA">',
          privacyAgreement: '<p></p>',
        },
      },
    );
    expect(saved.code).toBe(200);
    expect(saved.data.disclaimer).toBe('<p>Read <a target="_blank" rel="noopener noreferrer nofollow">this</a></p>');
    expect(saved.data.privacyAgreement).toBeNull();
    const [row] = await db.select().from(provider).where(eq(provider.id, p.id));
    expect(row!.disclaimer).toBe(saved.data.disclaimer);
    // Written straight to the database (an old row, an import): the public page still shows it through the allow-list.
    await db
      .update(provider)
      .set({ privacyAgreement: '<p>ok</p><img src=x onerror=alert(1)><iframe src="https://evil.test"></iframe>' })
      .where(eq(provider.id, p.id));
    expect((await agreementOf(`key=${row!.agreementKey}&kind=privacyAgreement`)).data.content).toBe('<p>ok</p>');
  });

  it('serves the images an agreement shows without a session, and no other stored file', async () => {
    const db = s.database.db;
    const op = await createOperator(db, {
      permissions: ['system:provider:edit', 'system:provider:query'],
      rolePaths: ['/systemManagement'],
    });
    await db
      .update(provider)
      .set({ mailAccount: 'm@q.test', mailAuthCode: 'c', smtpAddress: 'smtp.q.test', smtpPort: 25 })
      .where(eq(provider.id, op.providerId));
    const token = await s.login(op.user.username, op.user.password);
    const shown = await uploadAs(s.url, token, 'map.png', png());
    const logo = await uploadAs(s.url, token, 'logo.png', png());
    const hidden = await uploadAs(s.url, token, 'private.png', png());
    const pdfFile = await uploadAs(s.url, token, 'terms.pdf', pdf, 'file');
    const other = await createOperator(db, {});
    const theirs = await uploadAs(s.url, await s.login(other.user.username, other.user.password), 'theirs.png', png());
    const edit = (disclaimer: string) =>
      s.call<{ disclaimer: string }>('POST', '/web/userManage/updateProviderInfo', {
        token,
        lang: 'en',
        body: {
          id: op.providerId,
          providerName: 'Imaged',
          mailAccount: 'm@q.test',
          smtpAddress: 'smtp.q.test',
          smtpPort: 25,
          logoPath: logo.url,
          disclaimer,
        },
      });
    // Images of another provider, or files that are not images, are refused naming the field; nothing changes.
    for (const bad of [theirs.url, pdfFile.url]) {
      const r = await edit(`<p>x</p><img src="${bad}">`);
      expect(r).toMatchObject({ code: 400, data: { field: 'disclaimer' } });
      expect(r.msg).toContain('Disclaimer');
      const [now] = await db.select().from(provider).where(eq(provider.id, op.providerId));
      expect(now!.disclaimer).toBeNull();
    }
    expect((await edit(`<p>See the map</p><img src="${shown.url}" alt="map">`)).code).toBe(200);
    const [row] = await db.select().from(provider).where(eq(provider.id, op.providerId));
    const page = await agreementOf(`key=${row!.agreementKey}&kind=disclaimer`);
    const publicUrl = (f: string) => `/prod-api/web/getProviderAgreement/image?key=${row!.agreementKey}&resource=${encodeURIComponent(f)}`;
    expect(page.data.content).toBe(`<p>See the map</p><img src="${publicUrl(shown.fileName).replace(/&/g, '&amp;')}" alt="map" />`);
    expect(page.data.logoPath).toBe(publicUrl(logo.fileName));
    for (const f of [shown.fileName, logo.fileName]) {
      const res = await fetch(s.url + publicUrl(f));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
    // A file of the same provider that no agreement names, another's file, or the right file under another key: 404.
    for (const url of [
      publicUrl(hidden.fileName),
      publicUrl(theirs.fileName),
      publicUrl(shown.fileName).replace(row!.agreementKey, '0'.repeat(32)),
    ]) {
      const res = await fetch(s.url + url);
      expect(((await res.json()) as { code: number }).code).toBe(404);
    }
  });
});
