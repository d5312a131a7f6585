import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { gif, pdf, png, uploadAs } from '../../../test/support/files.js';

let s: TestServer;
let token: string;
let mine: { fileName: string }[];
let theirs: { fileName: string };
beforeAll(async () => {
  s = await startServer();
  const op = await createOperator(s.database.db, {});
  token = await s.login(op.user.username, op.user.password);
  mine = [
    await uploadAs(s.url, token, '站点照片.png', png()),
    await uploadAs(s.url, token, '站点照片.png', png(100)),
    await uploadAs(s.url, token, 'entrance.gif', gif),
    await uploadAs(s.url, token, 'records.pdf', pdf, 'file'),
  ];
  const other = await createOperator(s.database.db, {});
  theirs = await uploadAs(s.url, await s.login(other.user.username, other.user.password), 'theirs.png', png());
});
afterAll(() => s.close());

const zip = (body: string, contentType: string, auth = token) =>
  fetch(`${s.url}/prod-api/common/download/zip`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': contentType, 'x-language': 'en' },
    body,
  });
const form = (names: string[], name?: string) => {
  const f = new URLSearchParams();
  for (const n of names) f.append('fileNames', n);
  if (name) f.set('name', name);
  return f.toString();
};

describe('zip download', () => {
  it('streams the chosen files in one zip, from a form-encoded POST, under their uploaded names', async () => {
    const res = await zip(
      form(
        mine.map((f) => f.fileName),
        '站点 3',
      ),
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(decodeURIComponent(res.headers.get('download-filename')!)).toBe('站点 3.zip');
    const archive = await JSZip.loadAsync(await res.arrayBuffer());
    expect(Object.keys(archive.files).sort()).toEqual(['entrance.gif', 'records.pdf', '站点照片 (2).png', '站点照片.png'].sort());
    expect(Buffer.from(await archive.file('entrance.gif')!.async('uint8array'))).toEqual(gif);
    expect(Buffer.from(await archive.file('站点照片.png')!.async('uint8array'))).toEqual(png());
  });

  it('takes a JSON body too, and one form field as a list of one', async () => {
    const json = await zip(JSON.stringify({ fileNames: [mine[3]!.fileName] }), 'application/json');
    expect(decodeURIComponent(json.headers.get('download-filename')!)).toBe('files.zip');
    expect(Object.keys((await JSZip.loadAsync(await json.arrayBuffer())).files)).toEqual(['records.pdf']);
    const one = await zip(form([mine[2]!.fileName]), 'application/x-www-form-urlencoded');
    expect(Object.keys((await JSZip.loadAsync(await one.arrayBuffer())).files)).toEqual(['entrance.gif']);
  });

  it('refuses the whole archive when any file is another provider’s or missing, naming the field', async () => {
    for (const bad of [theirs.fileName, '2025/01/01/00000000-0000-0000-0000-000000000000.png']) {
      const res = await zip(form([mine[0]!.fileName, bad]), 'application/x-www-form-urlencoded');
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ code: 404, data: { field: 'fileNames' } });
    }
    expect(await (await zip(form([]), 'application/x-www-form-urlencoded')).json()).toMatchObject({
      code: 400,
      data: { field: 'fileNames' },
    });
    expect(await (await zip(form([mine[0]!.fileName]), 'application/x-www-form-urlencoded', 'nope')).json()).toMatchObject({ code: 401 });
  });

  it('is the only endpoint that parses a form-encoded body: a cross-site form reaches no other', async () => {
    const res = await fetch(`${s.url}/prod-api/web/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-language': 'en' },
      body: 'username=admin&password=admin123',
    });
    expect(await res.json()).toMatchObject({ code: 400, msg: 'Unsupported content type application/x-www-form-urlencoded; send JSON' });
  });
});
