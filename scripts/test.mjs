// `npm test`: every test. Type checks, unit and integration suites (server on PGlite, or on
// PostgreSQL when DATABASE_URL is set), the console build, then end-to-end tests in Chromium.
import fs from 'node:fs';
import { ensureBuilt, ensureInstalled, run } from './lib.mjs';

const only = process.argv[2]; // optional: typecheck | lint | unit | contract | simulator | reader | server | web | e2e
ensureInstalled();

const steps = [];
const step = (name, fn) =>
  (!only || only === name || (only === 'unit' && ['contract', 'simulator', 'reader', 'server', 'web'].includes(name))) &&
  steps.push([name, fn]);

step(
  'typecheck',
  () =>
    run('npx', ['tsc', '-p', 'packages/contract']) ||
    run('npx', ['tsc', '-p', 'packages/simulator']) ||
    run('npx', ['tsc', '-p', 'packages/reader']) ||
    run('npx', ['tsc', '-p', 'packages/server']) ||
    run('npx', ['tsc', '-p', 'packages/web']),
);
step('lint', () => run('npx', ['eslint', '.']) || run('npx', ['prettier', '--check', '--log-level', 'warn', '.']));
step('contract', () => run('npx', ['vitest', 'run'], { cwd: 'packages/contract' }));
step('simulator', () => run('npx', ['vitest', 'run', '--passWithNoTests'], { cwd: 'packages/simulator' }));
step('reader', () => run('npx', ['vitest', 'run', '--passWithNoTests'], { cwd: 'packages/reader' }));
step('server', () => run('npx', ['vitest', 'run'], { cwd: 'packages/server' }));
step('web', () => run('npx', ['vitest', 'run'], { cwd: 'packages/web' }));
step('e2e', () => {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    console.error(
      `\nNo Chromium at ${chromium}: the end-to-end tests drive a real browser.\n` +
        `Install one (Debian/Ubuntu: sudo apt-get install chromium) or point CHROMIUM_PATH at a Chromium/Chrome binary.\n`,
    );
    return 1;
  }
  ensureBuilt();
  return run('npx', ['playwright', 'test'], { cwd: 'packages/web', env: { CHROMIUM_PATH: chromium } });
});

const results = [];
for (const [name, fn] of steps) {
  console.log(`\n━━ ${name} ━━`);
  const code = fn();
  results.push([name, code]);
}
const failed = results.filter(([, c]) => c !== 0);
console.log('\n' + results.map(([n, c]) => `${c === 0 ? '✓' : '✗'} ${n}`).join('\n'));
console.log(`steps: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
