import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { and, count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedFile, systemLog } from '../../db/schema.js';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { eventually } from '../../../test/ocpp/support.js';
import { compoundFile, exe, gif, html, jpeg, MSI_CLSID, pdf, png, svgWithScript, WORD_CLSID } from '../../../test/support/files.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(() => s.close());

type UploadReply = { code: number; msg: string; fileName?: string; url?: string; data?: { field: string } };
async function upload(token: string, name: string, bytes: Buffer, kind = 'image', lang = 'en'): Promise<UploadReply> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${s.url}/prod-api/common/upload?kind=${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-language': lang },
    body: form,
  });
  return (await res.json()) as UploadReply;
}
const get = (url: string, headers: Record<string, string>) => fetch(`${s.url}${url}`, { headers });
const downloadUrl = (fileName: string) => `/prod-api/common/download?fileName=${encodeURIComponent(fileName)}`;

/** Every file under the upload directory, and the stored-file rows: what a refused upload must not change. */
async function stored() {
  const dir = path.join(s.config.dataDir, 'uploads');
  const files = fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) : [];
  return {
    files: files.filter((f) => f.isFile()).map((f) => path.join(f.parentPath, f.name)),
    rows: (await s.database.db.select({ n: count() }).from(storedFile))[0]!.n,
  };
}

describe('uploads are judged by their bytes', () => {
  it('refuses disguised files with the spec message, storing nothing', async () => {
    const before = await stored();
    const imageMsg = 'Unsupported file format. Please upload a png/jpg/jpeg/gif image!';
    const fileMsg = 'Unsupported file format. Please upload a doc/docx/xls/xlsx/ppt/pptx/txt/pdf file!';
    const disguised: [string, Buffer, 'image' | 'file', string][] = [
      ['evil.png', exe, 'image', imageMsg],
      ['logo.png', svgWithScript, 'image', imageMsg],
      ['photo.jpg', png(), 'image', imageMsg],
      ['anim.gif', jpeg, 'image', imageMsg],
      ['invoice.pdf', html, 'file', fileMsg],
      ['notes.txt', html, 'file', fileMsg],
      ['notes.txt', svgWithScript, 'file', fileMsg],
      ['notes.txt', exe, 'file', fileMsg],
      ['setup.doc', compoundFile(MSI_CLSID), 'file', fileMsg],
      ['report.docx', pdf, 'file', fileMsg],
      ['sheet.xlsx', Buffer.from('PK\x03\x04 not really a workbook'), 'file', fileMsg],
    ];
    for (const [name, bytes, kind, msg] of disguised) {
      expect(await upload(admin, name, bytes, kind), name).toMatchObject({ code: 400, msg, data: { field: 'file' } });
    }
    expect(await upload(admin, 'evil.png', exe, 'image', 'zh')).toMatchObject({
      msg: '文件格式不正确, 请上传png/jpg/jpeg/gif图片格式文件!',
    });
    expect(await upload(admin, 'page.pdf', html, 'file', 'zh')).toMatchObject({
      msg: '文件格式不正确, 请上传doc/docx/xls/xlsx/ppt/pptx/txt/pdf格式文件!',
    });
    // Over the limit: refused the same way, nothing half-written left behind.
    expect(await upload(admin, 'big.png', png(5 * 1024 * 1024), 'image', 'zh')).toMatchObject({
      code: 400,
      msg: '上传文件大小不能超过 5 MB!',
    });
    expect(await stored()).toEqual(before);
  });

  it('leaves nothing behind when the upload breaks off', async () => {
    const uploadsLogged = async () =>
      (
        await s.database.db
          .select({ n: count() })
          .from(systemLog)
          .where(and(eq(systemLog.path, '/common/upload'), ne(systemLog.result, 0)))
      )[0]!.n;
    const logged = await uploadsLogged();
    const before = await stored();
    const boundary = 'csms-test-boundary';
    const { port } = new URL(s.url);
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/prod-api/common/upload?kind=file',
        headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('error', () => resolve());
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      req.write(Buffer.concat([pdf, Buffer.alloc(256 * 1024, 0x20)]), () => {
        req.destroy();
        resolve();
      });
    });
    // The server notices the broken stream on its own time; the system-log row of the attempt (written first,
    // completed with the outcome) says it is done with it.
    await eventually(async () => (await uploadsLogged()) > logged);
    expect(await stored()).toEqual(before);
  });

  it('stores what the widgets allow: images, PDF, Office files and plain text (UTF-8 or GB18030)', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Cars').addRow(['Plate', 'VIN']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const accepted: [string, Buffer, 'image' | 'file', string][] = [
      ['front.png', png(), 'image', 'image/png'],
      ['photo.jpeg', jpeg, 'image', 'image/jpeg'],
      ['anim.gif', gif, 'image', 'image/gif'],
      ['invoice.pdf', pdf, 'file', 'application/pdf'],
      ['cars.xlsx', xlsx, 'file', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['letter.doc', compoundFile(WORD_CLSID), 'file', 'application/msword'],
      ['说明.txt', Buffer.from('第一行\r\n\tsecond line, <b>not</b> markup\n'), 'file', 'text/plain; charset=utf-8'],
      ['gbk.txt', Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x0a]), 'file', 'text/plain; charset=gb18030'],
    ];
    for (const [name, bytes, kind, type] of accepted) {
      const up = await upload(admin, name, bytes, kind);
      expect(up, name).toMatchObject({ code: 200, fileName: expect.stringMatching(/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\.\w+$/) });
      const res = await get(up.url!, { authorization: `Bearer ${admin}` });
      expect(res.headers.get('content-type'), name).toBe(type);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes), name).toBe(true);
    }
  });
});

describe('stored files are served so that a browser runs nothing', () => {
  it('sends the stored type, nosniff, a sandbox and inline only for images', async () => {
    const image = await upload(admin, 'logo.png', png());
    const res = await get(image.url!, { cookie: `Admin-Token=${admin}` });
    expect(
      Object.fromEntries(
        ['content-type', 'x-content-type-options', 'content-security-policy', 'content-disposition'].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': `inline; filename="logo.png"; filename*=UTF-8''logo.png`,
    });
    expect(decodeURIComponent(res.headers.get('download-filename')!)).toBe('logo.png');

    const doc = await upload(admin, '报告 (1).pdf', pdf, 'file');
    const pdfRes = await get(doc.url!, { authorization: `Bearer ${admin}` });
    expect(pdfRes.headers.get('content-disposition')).toBe(
      `attachment; filename="__ (1).pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%281%29.pdf`,
    );
    expect(pdfRes.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('serves a file stored before uploads were sniffed by its extension, not by the type the browser claimed', async () => {
    const fileName = '2020/01/01/0badc0de-0000-4000-8000-000000000000.pdf';
    const full = path.join(s.config.dataDir, 'uploads', fileName);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, html);
    await s.database.db
      .insert(storedFile)
      .values({ providerId: 1, fileName, originalName: 'x.pdf', mime: 'text/html', sizeBytes: html.length, uploadedBy: 1 });
    const res = await get(downloadUrl(fileName), { authorization: `Bearer ${admin}` });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('downloads and deletion', () => {
  it("hides another provider's files; a GET never deletes; deletion is a POST by the uploader with the header token", async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const token = await s.login(op.user.username, op.user.password);
    const secret = await upload(admin, 'secret.pdf', pdf, 'file');
    expect((await s.call('GET', `/common/download?fileName=${encodeURIComponent(secret.fileName!)}`, { token })).code).toBe(404);

    const mine = await upload(token, 'mine.txt', Buffer.from('hello'), 'file');
    // An <img src=".../common/download?fileName=…&delete=true"> rides on the cookie: it reads, never deletes.
    const viaImg = await get(`${downloadUrl(mine.fileName!)}&delete=true`, { cookie: `Admin-Token=${token}` });
    expect(await viaImg.text()).toBe('hello');
    expect(await (await get(downloadUrl(mine.fileName!), { authorization: `Bearer ${token}` })).text()).toBe('hello');

    const take = (headers: Record<string, string>) =>
      fetch(`${s.url}/prod-api/common/download`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ fileName: mine.fileName, delete: true }),
      });
    // A cross-site form post carries only the cookie.
    expect(await (await take({ cookie: `Admin-Token=${token}` })).json()).toMatchObject({ code: 401 });
    // Seeing a file is not owning it: a colleague of the same provider may read it but not delete it.
    const colleague = await createOperator(s.database.db, { providerId: op.providerId, rolePaths: ['/dashboard'] });
    const theirs = await s.login(colleague.user.username, colleague.user.password);
    expect(await (await take({ authorization: `Bearer ${theirs}` })).json()).toMatchObject({ code: 403 });

    const before = await stored();
    const taken = await take({ authorization: `Bearer ${token}` });
    expect(taken.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(await taken.text()).toBe('hello');
    // Gone once the answer is in: from the table and from the disk.
    expect((await s.call('GET', `/common/download?fileName=${encodeURIComponent(mine.fileName!)}`, { token })).code).toBe(404);
    const after = await stored();
    expect(after.rows).toBe(before.rows - 1);
    expect(after.files).toEqual(before.files.filter((f) => !f.endsWith(mine.fileName!.split('/').pop()!)));
  });
});
