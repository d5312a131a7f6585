// Console weight check (issue 14 item 7), run after `vite build`: from the build's manifest, the
// JavaScript and CSS (gzipped, zlib level 6) that each route fetches cold — the closure over static
// imports of the entry, the current language's catalogue, and the lazy chunks the route opens (the
// plain page (sign-in, 404, the agreement pages), the signed-in shell, the registry's screen, and what those render at once) —
// printed as a table and compared with the budgets of weight-budget.json. Exits 1 past a budget. No browser and no timing: the
// same build gives the same figures. `npm run bench:weight` measures the same in Chromium, plus LCP.
//
//   node scripts/check-weight.mjs            # table, exit 1 past a budget
//   node scripts/check-weight.mjs --chunks   # also each route's chunks
//   node scripts/check-weight.mjs --record   # write today's figures (+ 3 %) as the per-route budgets
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.WEIGHT_DIST ?? path.join(web, 'dist');
const budgetFile = path.join(web, 'weight-budget.json');
const budget = JSON.parse(fs.readFileSync(process.env.WEIGHT_BUDGET ?? budgetFile, 'utf8'));
const showChunks = process.argv.includes('--chunks');
const record = process.argv.includes('--record');

const manifestPath = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`✗ ${path.relative(process.cwd(), manifestPath)} is missing: run vite build (build.manifest) first`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

/** A source module of the console as the manifest names it (`src/…` with its extension). */
function manifestKey(fromFile, specifier) {
  const base = path
    .relative(web, path.resolve(path.dirname(path.join(web, fromFile)), specifier))
    .split(path.sep)
    .join('/');
  for (const ext of ['', '.tsx', '.ts', '/index.tsx', '/index.ts']) if (manifest[base + ext]) return base + ext;
  throw new Error(`${specifier} (imported lazily by ${fromFile}) is not a chunk of the manifest: the route model is out of date`);
}

/** The screens of the registry: path → its lazily imported module. */
function registryScreens() {
  const file = 'src/app/routes/registry.ts';
  const src = fs.readFileSync(path.join(web, file), 'utf8');
  const screens = [...src.matchAll(/path: '([^']+)',\s*component: lazyScreen\(\(\) => import\('([^']+)'\)\)/g)].map((m) => ({
    path: m[1],
    module: manifestKey(file, m[2]),
  }));
  if (screens.length < 10) throw new Error(`found only ${screens.length} screens in ${file}: the route model is out of date`);
  return screens;
}

/** The signed-out pages: src/app/routes/access.ts lists them as the plain pages (src/app/plain-pages.ts) and more. */
function publicPaths() {
  const quoted = (text) => [...text.matchAll(/'([^']+)'/g)].map((m) => m[1]);
  const plain = fs.readFileSync(path.join(web, 'src/app/plain-pages.ts'), 'utf8').match(/export const plainPaths = \[([^\]]*)\]/);
  const access = fs
    .readFileSync(path.join(web, 'src/app/routes/access.ts'), 'utf8')
    .match(/export const publicPaths[^=]*= \[\.\.\.plainPaths,([^\]]*)\]/);
  if (!plain || !access) throw new Error('plainPaths or publicPaths not found in src/app: the route model is out of date');
  return [...quoted(plain[1]), ...quoted(access[1])];
}

/** Every chunk a set of manifest entries loads before it runs: themselves and their static imports. */
function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not in the manifest`);
    seen.add(key);
    for (const imp of manifest[key].imports ?? []) visit(imp);
  };
  keys.forEach(visit);
  return seen;
}

const gzCache = new Map();
function gz(file) {
  if (!gzCache.has(file)) gzCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 6 }).length);
  return gzCache.get(file);
}

function weigh(keys) {
  const chunks = closure(keys.filter(Boolean));
  const js = [...chunks].map((k) => manifest[k].file);
  const css = [...new Set([...chunks].flatMap((k) => manifest[k].css ?? []))];
  return { js: js.reduce((s, f) => s + gz(f), 0), css: css.reduce((s, f) => s + gz(f), 0), files: js };
}

/**
 * A module and the lazy chunks it renders at once: those `budget.eager` lists for it (the shell's
 * message bell), and, for a screen, every lazy import of its own module (the dashboard's widgets),
 * but those `budget.onDemand` lists for it (a dialog that a click opens, bundled into the screen's
 * chunk with the module that opens it) and catalogue parts of the other language.
 * Dialogs and drawers that open on a click are lazy imports of deeper modules and do not count.
 */
function withEager(key, { ownLazy, locale }) {
  if (!key) return [];
  const listed = budget.eager?.[key] ?? [];
  const later = budget.onDemand?.[key] ?? [];
  const dynamic = manifest[key].dynamicImports ?? [];
  for (const e of [...listed, ...later])
    if (!dynamic.includes(e)) throw new Error(`weight-budget.json: ${e} is not a lazy import of ${key}`);
  const otherLanguage = (k) => /^src\/i18n\/locales\/([^/]+)\//.exec(k)?.[1] !== undefined && !k.startsWith(`src/i18n/locales/${locale}/`);
  const own = ownLazy ? dynamic.filter((k) => !later.includes(k) && !otherLanguage(k)) : [];
  return [key, ...listed, ...own];
}

const target = (route) => (route === '/login' ? budget.signInKb : budget.routeKb);

// The route model: what src/app/router.tsx, the console's root and the shell open lazily (budget.modules names them).
const m = budget.modules;
const entry = 'index.html';
const routes = [];
for (const locale of Object.keys(m.catalogue)) {
  const common = [entry, m.catalogue[locale]];
  // The pages drawn without antd (sign-in, 404, the agreement pages: src/app/plain-pages.ts) fetch
  // their own part of the catalogue and their own module; the console the whole (src/main.tsx).
  for (const [route, module] of Object.entries(m.plainPages)) {
    const keys = [entry, m.signInCatalogue[locale], ...withEager(module, { ownLazy: false })];
    routes.push({ route, locale, keys, limit: target(route) });
  }
  const open = publicPaths();
  for (const s of registryScreens()) {
    if (m.plainPages[s.path]) throw new Error(`${s.path} is both a plain page (weight-budget.json) and a screen of the registry`);
    const screen = withEager(s.module, { ownLazy: true, locale });
    // Every route but sign-in opens the console's root (antd's providers), and a signed-in one the shell.
    const root = [...common, ...withEager(m.consoleRoot, { ownLazy: false })];
    const keys = open.includes(s.path) ? [...root, ...screen] : [...root, ...withEager(m.shell, { ownLazy: false }), ...screen];
    routes.push({ route: s.path, locale, keys, limit: budget.routeKb });
  }
}

const kb = (n) => n / 1024;
let failed = 0;
const recorded = {};
console.log(
  `Console weight from the build manifest (KB gzipped, JS + CSS); targets: sign-in ≤ ${budget.signInKb}, any route ≤ ${budget.routeKb}`,
);
console.log('| route | locale | JS | CSS | chunks | budget | target | |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of routes) {
  const w = weigh(r.keys);
  const total = kb(w.js + w.css);
  // The recorded figure of the route is the budget; until the targets are met it sits above them.
  const limit = budget.routes?.[r.route] ?? target(r.route);
  const ok = total <= limit;
  if (!ok) failed++;
  recorded[r.route] = Math.max(recorded[r.route] ?? 0, total);
  const status = ok ? (total <= target(r.route) ? 'ok' : 'ok (target not met)') : 'OVER BUDGET';
  console.log(
    `| ${r.route} | ${r.locale} | ${kb(w.js).toFixed(1)} | ${kb(w.css).toFixed(1)} | ${w.files.length} | ${limit} | ${target(r.route)} | ${status} |`,
  );
  if (showChunks) for (const f of w.files.sort((a, b) => gz(b) - gz(a))) console.log(`    ${kb(gz(f)).toFixed(1).padStart(6)}  ${f}`);
}

if (record) {
  // A little headroom over today's figure, never above it once the target is met: small changes pass, creep does not.
  const headroom = budget.recordHeadroom ?? 1.03;
  budget.routes = Object.fromEntries(
    Object.entries(recorded).map(([route, v]) => {
      const allowed = Math.ceil(v * headroom);
      return [route, v <= target(route) ? Math.min(target(route), allowed) : allowed];
    }),
  );
  fs.writeFileSync(budgetFile, JSON.stringify(budget, null, 2) + '\n');
  console.log(`\nRecorded per-route budgets in ${path.relative(process.cwd(), budgetFile)}`);
}

if (failed && !record) {
  console.error(
    `\n✗ ${failed} route(s) over their weight budget (weight-budget.json). Load the new code lazily (a route's own chunk, a dialog when opened), or record a new budget with --record and say why in the commit.`,
  );
  process.exit(1);
}
console.log('\n✓ every route within its weight budget');
