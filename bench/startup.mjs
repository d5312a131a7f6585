// Start-up footprint (issue 14, item 1): the built server on an empty PGlite data directory (first
// start: the database is created and migrated) and again on the same directory (restart), timed
// from spawn to the first healthy answer, with the process's resident memory then and at its peak.
// Loopback only; everything it starts or creates is removed at the end.
//
//   npm run bench:startup                 # 3 runs of each
//   npm run bench:startup -- --runs 5
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, root } from '../scripts/lib.mjs';

const { values: opt } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'no-build': { type: 'boolean', default: false } } });
const runs = Math.max(1, Number(opt.runs) || 3);
const TARGET_MS = 2000;
const TARGET_MB = 400;

if (!opt['no-build']) ensureBuilt();

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** VmRSS and VmHWM (peak) of a process, MB. */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function startOnce(dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CSMS_DATA_DIR: dataDir,
      CSMS_DEMO: 'false',
      CSMS_ADMIN_PASSWORD: 'bench-admin-1',
      CSMS_LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/prod-api/health`)
        .then((r) => r.json())
        .then((b) => b.code === 200)
        .catch(() => false);
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error('not healthy within 2 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - started;
    return { ms, ...memory(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

const rows = [];
for (let i = 0; i < runs; i++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-bench-startup-'));
  try {
    rows.push({ kind: 'first start', ...(await startOnce(dataDir)) });
    rows.push({ kind: 'restart', ...(await startOnce(dataDir)) });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(
  `\nStart-up on PGlite: ${os.cpus()[0]?.model.trim()}, ${os.cpus().length} cores, Node ${process.version}; load average ${os
    .loadavg()
    .map((x) => fmt(x, 1))
    .join(' / ')}; ${runs} runs, medians\n`,
);
console.log('| start | healthy after | RSS then | peak RSS | target | result |');
console.log('|---|---|---|---|---|---|');
for (const kind of ['first start', 'restart']) {
  const of = rows.filter((r) => r.kind === kind);
  const ms = median(of.map((r) => r.ms));
  const rss = median(of.map((r) => r.rssMb));
  const peak = median(of.map((r) => r.peakMb));
  const met = ms <= TARGET_MS && peak <= TARGET_MB;
  console.log(
    `| ${kind} | ${fmt(ms / 1000, 2)} s | ${fmt(rss)} MB | ${fmt(peak)} MB | ≤ ${TARGET_MS / 1000} s, ≤ ${TARGET_MB} MB | ${met ? 'met' : 'not met'} |`,
  );
}
