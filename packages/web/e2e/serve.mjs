// Starts the built server for the browser tests on a throw-away PGlite; removed on exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-e2e-'));
const child = spawn(process.execPath, [path.resolve(here, '../../server/dist/main.js')], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.env.E2E_PORT ?? '18080',
    HOST: '127.0.0.1',
    CSMS_DATA_DIR: dataDir,
    CSMS_ADMIN_PASSWORD: 'admin123',
    // Off for the specs that sign in; captcha.spec.ts starts a second server with it on.
    CSMS_CAPTCHA: process.env.E2E_CAPTCHA ?? 'false',
    CSMS_LOG_LEVEL: 'warn',
    CSMS_APP_DOWNLOAD_URL: 'https://example.invalid/csms-app',
    DATABASE_URL: '',
  },
});
const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  cleanup();
  process.exit(code ?? 0);
});
