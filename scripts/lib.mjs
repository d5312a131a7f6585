// Shared by start.mjs and test.mjs: install what is missing, build what is stale.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts, env: { ...process.env, ...opts.env } });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

export function must(cmd, args, opts) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

function newest(dir) {
  let max = 0;
  if (!fs.existsSync(dir)) return max;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return max;
}

/** npm ci when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (npm ci)…');
  must('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Build contract, server and console when a source file is newer than the last build. */
export function ensureBuilt({ force = false } = {}) {
  const stamp = path.join(root, 'packages/web/dist/.built');
  const sources = Math.max(
    ...[
      'packages/contract',
      'packages/simulator/src',
      'packages/reader/src',
      'packages/server/src',
      'packages/server/drizzle',
      'packages/web/src',
      'packages/web/index.html',
      'packages/web/public',
    ].map((d) =>
      fs.existsSync(path.join(root, d)) && fs.statSync(path.join(root, d)).isFile()
        ? fs.statSync(path.join(root, d)).mtimeMs
        : newest(path.join(root, d)),
    ),
  );
  if (!force && fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= sources) return;
  console.log('Building contract, simulator, server and console…');
  must('npm', ['run', 'build']);
  fs.writeFileSync(stamp, new Date().toISOString());
}
