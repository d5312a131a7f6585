import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

// The console's built files as the web build leaves them (packages/web/vite.config.ts): each script
// beside its brotli and gzip copies.
describe("the console's files", () => {
  let s: TestServer;
  let dist: string;
  const script = 'console.log("a chunk of the console");\n'.repeat(200);

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-web-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dist, 'assets/route-1.js'), script);
    fs.writeFileSync(path.join(dist, 'assets/route-1.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'assets/route-1.js.gz'), zlib.gzipSync(script));
    fs.writeFileSync(path.join(dist, 'assets/small-1.js'), script);
    fs.writeFileSync(path.join(dist, 'assets/kept-1.js'), script);
    s = await startServer({ webDist: dist });
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (p: string, acceptEncoding: string) => fetch(s.url + p, { headers: { 'accept-encoding': acceptEncoding } });

  it('sends a script compressed to a browser that accepts it, and as it is to one that does not', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await get('/assets/route-1.js', accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      // Named by their content's hash: kept a year, never asked for again.
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // fetch decodes what it was sent: the same script each time.
      expect(await res.text()).toBe(script);
    }
    // An encoding the browser refuses (q=0) is not sent.
    const refused = await get('/assets/route-1.js', 'br;q=0, gzip');
    expect(refused.headers.get('content-encoding')).toBe('gzip');
  });

  it('reads a build file once and keeps it', async () => {
    fs.writeFileSync(path.join(dist, 'assets/kept-1.js'), script);
    expect(await (await get('/assets/kept-1.js', 'identity')).text()).toBe(script);
    fs.writeFileSync(path.join(dist, 'assets/kept-1.js'), 'changed on disk');
    expect(await (await get('/assets/kept-1.js', 'identity')).text()).toBe(script);
  });

  it('answers 404 for a build file that is not there, and for a compressed copy asked by name', async () => {
    for (const p of ['/assets/gone-1.js', '/assets/route-1.js.br', '/assets/..%2Findex.html']) {
      const res = await get(p, 'gzip, br');
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('<title>console</title>');
    }
  });

  it('sends a file without compressed copies as it is, and a console address the index page', async () => {
    const plain = await get('/assets/small-1.js', 'gzip, br');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    const page = await get('/userManagement/userGroup', 'gzip, br');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<title>console</title>');
  });
});
