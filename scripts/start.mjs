// `npm start`: install what is missing, build what is stale, start the console and central system.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
ensureBuilt();

// The demo provider's simulated chargers make a first start come alive; CSMS_DEMO=false turns them off.
const env = { ...process.env, CSMS_DEMO: process.env.CSMS_DEMO ?? 'true' };
const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
