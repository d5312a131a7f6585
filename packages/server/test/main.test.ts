import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/ports.js';

/** The real entry point as `npm start` runs it: first-start admin, restart, graceful shutdown. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-main-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function start(port: number): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  let out = '';
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CSMS_DATA_DIR: dataDir,
      CSMS_CAPTCHA: 'false',
      CSMS_LOG_LEVEL: 'warn',
      CSMS_WEB_DIST: '',
      DATABASE_URL: '',
      CSMS_ADMIN_PASSWORD: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ready = (async () => {
    // Up to 2 minutes: a fresh PGlite migrates on first start, and CI machines are shared.
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/prod-api/health`);
        if (((await r.json()) as { code: number }).code === 200) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not start: ${out}`);
  })();
  return { child, output: () => out, ready };
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

describe.skipIf(!!process.env.DATABASE_URL)('main', () => {
  it('prints a generated admin password once, keeps data across a restart, shuts down cleanly', { timeout: 300_000 }, async () => {
    const port = await freePort();
    const first = start(port);
    await first.ready;
    const match = first.output().match(/username: admin\s+password: (\S+)/);
    expect(match, first.output()).toBeTruthy();
    const password = match![1]!;
    expect(await stop(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);

    const second = start(port);
    await second.ready;
    expect(second.output()).not.toMatch(/password:/);
    const res = await fetch(`http://127.0.0.1:${port}/prod-api/web/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
    expect(await stop(second.child)).toBe(0);
  });
});
