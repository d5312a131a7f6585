import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createProvider, createRole, createUser } from '../../test/fixtures.js';
import { startServer, type TestServer } from '../../test/harness.js';
import { pdf, png } from '../../test/support/files.js';
import { storedFileNameOf } from './stored-images.js';

let s: TestServer;
let token: string;
let own: { fileName: string; url: string };
let ownPdf: { fileName: string; url: string };
let foreign: { fileName: string; url: string };
/** Ids the operator of provider A acts on: its provider, a user of it, and an empty role it may assign. */
let ids: { providerId: number; userId: number; roleId: number };

async function upload(as: string, name: string, bytes: Buffer, kind: 'image' | 'file') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${s.url}/prod-api/common/upload?kind=${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${as}` },
    body: form,
  });
  const r = (await res.json()) as { code: number; fileName: string; url: string };
  expect(r.code).toBe(200);
  return r;
}

beforeAll(async () => {
  s = await startServer();
  const db = s.database.db;
  const a = await createProvider(db, { mailAccount: 'a@a.test', mailAuthCode: 'code', smtpAddress: 'smtp.a.test', smtpPort: 587 });
  const op = await createOperator(db, {
    providerId: a.id,
    permissions: ['system:user:add', 'system:user:edit', 'system:user:query', 'system:provider:edit', 'system:provider:query'],
    rolePaths: ['/systemManagement'],
  });
  token = await s.login(op.user.username, op.user.password);
  // A role the operator may assign and manage: it grants nothing the operator lacks (DESIGN.md §5).
  const plain = await createRole(db, { providerId: a.id, permissions: [], rolePaths: ['/systemManagement'] });
  const colleague = await createUser(db, { providerId: a.id, roleId: plain.id, phone: '13700000001' });
  ids = { providerId: a.id, userId: colleague.id, roleId: plain.id };
  own = await upload(token, 'me.png', png(), 'image');
  ownPdf = await upload(token, 'cv.pdf', pdf, 'file');
  const b = await createOperator(db, {});
  foreign = await upload(await s.login(b.user.username, b.user.password), 'theirs.png', png(), 'image');
});
afterAll(() => s.close());

const provider = (logoPath: string) => ({
  path: '/web/userManage/updateProviderInfo',
  body: {
    id: ids.providerId,
    providerName: 'Provider A',
    mailAccount: 'a@a.test',
    smtpAddress: 'smtp.a.test',
    smtpPort: 587,
    logoPath,
  },
});
const fields = [
  {
    name: 'own profile avatar',
    field: 'avatar',
    msg: 'The avatar must be a jpg, png or gif image uploaded to this system',
    call: (avatar: string) => ({ path: '/web/userManage/updateProfile', body: { avatar } }),
  },
  {
    name: 'new system user avatar',
    field: 'avatar',
    msg: 'The avatar must be a jpg, png or gif image uploaded to this system',
    call: (avatar: string) => ({
      path: '/web/userManage/addUser',
      body: {
        username: `u${Math.random().toString(36).slice(2, 8)}`,
        password: 'secret1',
        roleId: ids.roleId,
        providerId: ids.providerId,
        phone: `139${String(Math.random()).slice(2, 10)}`,
        avatar,
      },
    }),
  },
  {
    name: 'edited system user avatar',
    field: 'avatar',
    msg: 'The avatar must be a jpg, png or gif image uploaded to this system',
    call: (avatar: string) => ({
      path: '/web/userManage/editUserInfo',
      body: { id: ids.userId, roleId: ids.roleId, providerId: ids.providerId, phone: '13700000001', avatar },
    }),
  },
  { name: 'provider logo', field: 'logoPath', msg: 'The logo must be a jpg, png or gif image uploaded to this system', call: provider },
];

describe('image fields hold images this server stored, never a URL', () => {
  it.each(fields.map((f) => [f.name, f] as const))('%s', async (_, f) => {
    const refused = [
      'https://tracker.example/pixel.png',
      '//tracker.example/pixel.png',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'javascript:alert(1)',
      `https://evil.example/prod-api/common/download/resource?resource=${encodeURIComponent(own.fileName)}`,
      ownPdf.url,
      ownPdf.fileName,
      foreign.url,
      '2020/01/01/00000000-0000-4000-8000-000000000000.png',
    ];
    for (const value of refused) {
      const { path, body } = f.call(value);
      expect(await s.call('POST', path, { token, body }), value).toMatchObject({ code: 400, msg: f.msg, data: { field: f.field } });
    }
    const { path, body } = f.call(refused[0]!);
    expect((await s.call('POST', path, { token, body, lang: 'zh' })).msg).toMatch(
      /^(头像|运营商 Logo )须为在本系统上传的 jpg、png 或 gif 图片$/,
    );
    for (const value of [own.url, own.fileName, '']) {
      const ok = f.call(value);
      expect((await s.call('POST', ok.path, { token, body: ok.body }))?.code, value).toBe(200);
    }
  });

  it('reads a stored name only from the bare name or the server’s own resource URL', () => {
    const name = '2025/01/31/0badc0de-0000-4000-8000-000000000000.png';
    expect(storedFileNameOf(name)).toBe(name);
    expect(storedFileNameOf(`/prod-api/common/download/resource?resource=${encodeURIComponent(name)}`)).toBe(name);
    for (const v of [`../${name}`, `${name}?x=1`, `/prod-api/common/download/resource?resource=${name}&a=b`, `https://x/${name}`]) {
      expect(storedFileNameOf(v)).toBeNull();
    }
  });
});
