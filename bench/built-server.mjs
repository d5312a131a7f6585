// The built server on loopback for the browser benchmarks: a free port, an empty PGlite data
// directory of its own (removed when stopped), the administrator admin / admin123, no captcha.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { root } from '../scripts/lib.mjs';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `packages/server/dist/main.js` with `env` added, and waits until it answers healthy. */
export async function startBuiltServer({ tag, env = {} }) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `csms-${tag}-`));
  const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CSMS_DATA_DIR: dataDir,
      CSMS_ADMIN_PASSWORD: 'admin123',
      CSMS_CAPTCHA: 'false',
      CSMS_LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
  });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/prod-api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('server did not start within 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, port, stop, child };
}
