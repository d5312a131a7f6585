import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let admin: string;
let op: Awaited<ReturnType<typeof createOperator>>;
let opToken: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  op = await createOperator(s.database.db, { providerId: 1, permissions: [] });
  opToken = await s.login(op.user.username, op.user.password);
});
afterAll(() => s.close());

type Row = {
  msgId: number;
  userId: number;
  title: string;
  read: 0 | 1;
  readTime: string | null;
  createUserName: string;
  recUserName: string;
  delete: 0 | 1;
};
type Page = { list: Row[]; total: number; view: 'admin' | 'inbox' };
const send = (server: TestServer, token: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') =>
  server.call<{ msgId: number; recipients: number; smsSent: boolean }>('POST', '/web/msg/addMsg', {
    token,
    body: { title: 'Maintenance', content: 'Station 3 closes at 22:00', ...body },
    lang,
  });

describe('system messages', () => {
  it('requires recipients and refuses unknown ones', async () => {
    expect(await send(s, admin, {})).toMatchObject({
      code: 400,
      msg: 'Choose recipient roles or enter recipient users',
      data: { field: 'username' },
    });
    expect((await send(s, admin, { username: 'ghost' }, 'zh')).msg).toBe('找不到接收人：ghost');
  });

  it('delivers to the inbox, updates the badge live, and reads and deletes only your own', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${s.url}/prod-api/web/events`, {
      headers: { cookie: `Admin-Token=${opToken}` },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    await reader.read(); // retry line

    const r = await send(s, admin, { username: op.user.username });
    expect(r).toMatchObject({ code: 200, msg: 'Message sent', data: { recipients: 1, smsSent: false } });
    let text = '';
    while (!text.includes('message.new')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`"msgId":${r.data.msgId}`);
    expect(text).toContain('"unread":1');
    controller.abort();

    expect((await s.call('GET', '/web/msg/getUnreadCount', { token: opToken })).data).toEqual({ unread: 1 });
    const inbox = await s.call<Page>('GET', '/web/msg/getAllMsg?page=1&limit=1000', { token: opToken });
    expect(inbox.data).toMatchObject({
      view: 'inbox',
      total: 1,
      list: [{ msgId: r.data.msgId, createUserName: 'admin', read: 0, readTime: null }],
    });

    // Someone else's row "does not exist".
    expect((await s.call('POST', '/web/msg/readMsg', { token: admin, body: { msgId: r.data.msgId, userId: op.user.id } })).code).toBe(404);
    expect((await s.call('POST', '/web/msg/readMsg', { token: opToken, body: { msgId: r.data.msgId, userId: op.user.id } })).data).toEqual({
      unread: 0,
    });

    const adminView = await s.call<Page>('GET', '/web/msg/getAllMsg?page=1&limit=1000&keyWord=station%203', { token: admin });
    expect(adminView.data.view).toBe('admin');
    expect(adminView.data.list).toEqual([
      expect.objectContaining({ msgId: r.data.msgId, recUserName: op.user.username, read: 1, readTime: expect.any(String), delete: 0 }),
    ]);

    expect((await s.call('POST', '/web/msg/deleteMsg', { token: opToken, body: { msgId: r.data.msgId, userId: op.user.id } })).code).toBe(
      200,
    );
    expect((await s.call<Page>('POST', '/web/msg/searchMsg', { token: opToken, body: { page: 1, limit: 10 } })).data.total).toBe(0);
    const after = await s.call<Page>('POST', '/web/msg/searchMsg', { token: admin, body: { page: 1, limit: 10, keyWord: 'Station 3' } });
    expect(after.data.list[0]).toMatchObject({ delete: 1 });
  });

  it('resolves recipients by role name and lists a role’s users', async () => {
    const u2 = await createUser(s.database.db, { providerId: 1, roleId: op.role.id });
    const r = await send(s, admin, { roleName: op.role.roleName, title: 'To the role' });
    expect(r.data.recipients).toBe(2);
    const users = await s.call<{ username: string }[]>('POST', '/web/msg/getUserByRoleId', { token: admin, body: { roleId: op.role.id } });
    expect(users.data.map((u) => u.username).sort()).toEqual([op.user.username, u2.username].sort());
  });

  it('warns with 601 when SMS is asked for and not configured', async () => {
    const r = await send(s, admin, { username: op.user.username, isSend: 1 });
    expect(r).toMatchObject({
      code: 601,
      msg: 'Message sent, but no SMS service is configured, so no SMS reminder was sent',
      data: { smsSent: false },
    });
    expect((await send(s, admin, { username: op.user.username, isSend: true }, 'zh')).msg).toBe(
      '消息发送成功，但未配置短信服务，短信提醒未发送',
    );
  });

  it('posts SMS reminders to the configured webhook', async () => {
    const hits: unknown[] = [];
    const hook = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        hits.push(JSON.parse(b));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const port = (hook.address() as { port: number }).port;
    const s2 = await startServer({ smsWebhook: `http://127.0.0.1:${port}/sms` });
    try {
      const t = await s2.login();
      const u = await createUser(s2.database.db, { providerId: 1, roleId: 1, phone: '13500000000' });
      const r = await send(s2, t, { username: u.username, isSend: true });
      expect(r).toMatchObject({ code: 200, data: { smsSent: true } });
      expect(hits).toEqual([
        {
          msgId: r.data.msgId,
          title: 'Maintenance',
          content: 'Station 3 closes at 22:00',
          recipients: [{ userId: u.id, username: u.username, phone: '13500000000' }],
        },
      ]);
    } finally {
      await s2.close();
      hook.close();
    }
  });

  it('exports msgId, title, content and createTime', async () => {
    const res = await fetch(`${s.url}/prod-api/web/msg/exportMsg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', keyWord: 'To the role' }),
    });
    const [head, ...rows] = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(head).toBe('Message ID,Title,Content,Created at');
    expect(rows).toHaveLength(1);
  });

  it('stores rich content through the allow-list, refuses content with nothing visible, and exports and texts it as plain text', async () => {
    const rich =
      '<h2>Notice</h2><p onclick="x()">Station &amp; 3 <strong>closes</strong><script>alert(1)</script></p><img src="https://evil.test/p.png">';
    const r = await send(s, admin, { username: op.user.username, title: 'Rich notice', content: rich });
    expect(r.code).toBe(200);
    const inbox = await s.call<{ list: Array<{ msgId: number; content: string }> }>('GET', '/web/msg/getAllMsg?page=1&limit=1000', {
      token: opToken,
    });
    expect(inbox.data.list.find((m) => m.msgId === r.data.msgId)?.content).toBe(
      '<h2>Notice</h2><p>Station &amp; 3 <strong>closes</strong></p>',
    );
    for (const empty of ['<p></p>', '<p><br></p><script>alert(1)</script>']) {
      expect(await send(s, admin, { username: op.user.username, content: empty })).toMatchObject({
        code: 400,
        msg: 'Content is required',
        data: { field: 'content' },
      });
    }
    const res = await fetch(`${s.url}/prod-api/web/msg/exportMsg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', keyWord: 'Rich notice' }),
    });
    expect(await res.text()).toContain('"Notice\nStation & 3 closes"');
  });
});
