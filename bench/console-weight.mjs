/* global window, document -- the page.evaluate and addInitScript callbacks run in the browser */
// Console weight benchmark (issue 14 item 7): opens every route of the BUILT console cold (fresh
// browser context, empty cache) in headless Chromium against the real server on loopback, sums the
// JavaScript and CSS it fetched, gzipped (zlib level 6, what a gzip-serving proxy sends), and reads
// the route's Largest Contentful Paint. Prints route → KB gz → budget → met, then the heaviest
// chunks. The deterministic guard against creep is `npm run check:weight -w @csms/web` (vite
// manifest, no browser, no timing); this script is the browser's view of the same figures plus LCP.
//
//   npm run bench:weight                       # zh-CN, every route of the screen registry
//   npm run bench:weight -- --locale en-US
//   npm run bench:weight -- --routes /login,/dashboard --runs 3
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureBuilt, ensureInstalled, root } from '../scripts/lib.mjs';
import { startBuiltServer } from './built-server.mjs';

const { values: opts } = parseArgs({
  options: {
    locale: { type: 'string', default: 'zh-CN' },
    routes: { type: 'string' },
    runs: { type: 'string', default: '1' },
    latency: { type: 'string', default: '0' },
    mbps: { type: 'string', default: '0' },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log(`npm run bench:weight -- [--locale zh-CN|en-US] [--routes /a,/b] [--runs N] [--no-build]
  --runs N       open each route N times cold for LCP (the median), after one cold run that weighs it
  --latency MS   Chromium's network emulation: this round-trip latency added to every request (default none: loopback)
  --mbps N       and this download and upload bandwidth in Mbit/s (default unlimited)`);
  process.exit(0);
}

const latency = Number(opts.latency);
const mbps = Number(opts.mbps);

const budgets = JSON.parse(fs.readFileSync(path.join(root, 'packages/web/weight-budget.json'), 'utf8'));
const LCP_BUDGET_MS = budgets.lcpMs;

/** The pages drawn without antd (sign-in, 404, the agreement pages), which are opened without a session. */
const plainPages = Object.keys(budgets.modules.plainPages);

/** The plain pages, then every screen path of the registry. */
function allRoutes() {
  const src = fs.readFileSync(path.join(root, 'packages/web/src/app/routes/registry.ts'), 'utf8');
  return [...new Set([...plainPages, ...[...src.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1])])];
}

/**
 * A route's parameters filled with 1, but an agreement page's `:key`, which gets the admin's provider's
 * agreement key (so that it shows the agreement, not "no such provider").
 */
const filled = (route, agreementKey) => route.replace(':key', agreementKey).replace(/:\w+/g, '1');

async function agreementKeyOf(base, token) {
  const res = await fetch(`${base}/prod-api/web/getProvider?id=1`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  if (body.code !== 200 || !body.data?.agreementKey) throw new Error(`reading the provider failed: ${JSON.stringify(body)}`);
  return body.data.agreementKey;
}

async function signIn(base) {
  const res = await fetch(`${base}/prod-api/web/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123', code: '', uuid: '' }),
  });
  const body = await res.json();
  if (body.code !== 200 || !body.data?.token) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

const gz = (buf) => zlib.gzipSync(buf, { level: 6 }).length;

/**
 * Opens one route in a fresh context and waits until the network (bar the event stream) has been quiet
 * for 1.5 s. With `capture`, every script's and stylesheet's body is read and gzipped to weigh it:
 * that work (CDP shipping each body to this process, zlib on it) shares the machine with the page
 * and delayed its LCP by 0.1–0.3 s on two cores, so LCP is taken from other runs, which capture nothing.
 */
async function measure(browser, base, route, token, { capture }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'language', value: opts.locale, url: base }]);
  const plain = plainPages.some((p) => new RegExp(`^${p.replace(/:\w+/g, '[^/]+')}$`).test(route));
  if (!plain) {
    await context.addInitScript((t) => window.localStorage.setItem('Admin-Token', t), token);
  }
  await context.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const page = await context.newPage();
  if (latency > 0 || mbps > 0) {
    const cdp = await context.newCDPSession(page);
    const throughput = mbps > 0 ? (mbps * 1e6) / 8 : -1;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency,
      downloadThroughput: throughput,
      uploadThroughput: throughput,
    });
  }
  const files = [];
  let last = Date.now();
  const pending = new Set();
  const inflight = new Set();
  const streaming = (req) => req.resourceType() === 'eventsource' || req.url().includes('/web/events');
  page.on('request', (req) => {
    if (streaming(req)) return;
    inflight.add(req);
    last = Date.now();
  });
  for (const done of ['requestfinished', 'requestfailed']) {
    page.on(done, (req) => {
      inflight.delete(req);
      last = Date.now();
    });
  }
  page.on('response', (res) => {
    if (!capture) return;
    // By extension, not resourceType: modulepreload links (vite preloads a chunk's imports) are not 'script'.
    const pathname = new URL(res.url()).pathname;
    const type = pathname.endsWith('.js') ? 'script' : pathname.endsWith('.css') ? 'stylesheet' : null;
    if (!type) return;
    // body() is the decoded file; sizes() what travelled (brotli or gzip when the server sent it so).
    const p = Promise.all([res.body(), res.request().sizes()])
      .then(([body, sizes]) => files.push({ url: pathname, type, raw: body.length, gz: gz(body), sent: sizes.responseBodySize }))
      .catch((err) => console.error(`no body for ${pathname}: ${err.message}`))
      .finally(() => pending.delete(p));
    pending.add(p);
  });
  await page.goto(base + route, { waitUntil: 'load' });
  while (Date.now() - last < 1500 || pending.size > 0 || inflight.size > 0) {
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all([...pending]);
  }
  // LCP is final once the user interacts or the page is hidden; read what the observer holds.
  const lcp = await page.evaluate(() => window.__lcp);
  if (process.env.BENCH_DEBUG) console.error(route, 'lcp', lcp, await page.evaluate(() => document.body.innerText.slice(0, 80)));
  const finalUrl = new URL(page.url()).pathname;
  await context.close();
  const sum = (type, key) => files.filter((f) => f.type === type).reduce((s, f) => s + f[key], 0);
  const sent = files.reduce((t, f) => t + f.sent, 0);
  return { route, finalUrl, files, js: sum('script', 'gz'), css: sum('stylesheet', 'gz'), jsRaw: sum('script', 'raw'), sent, lcp };
}

const kb = (n) => (n / 1024).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!opts['no-build']) {
    ensureInstalled();
    ensureBuilt();
  }
  const runs = Math.max(1, Number(opts.runs));
  const server = await startBuiltServer({ tag: 'weight' });
  const cleanup = () => server.stop();
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  let browser;
  try {
    const token = await signIn(server.base);
    const agreementKey = await agreementKeyOf(server.base, token);
    const routes = (opts.routes ? opts.routes.split(',') : allRoutes()).map((r) => filled(r, agreementKey));
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    });
    const rows = [];
    const chunks = new Map();
    for (const route of routes) {
      // One run weighs the route; LCP is the median of `runs` others that weigh nothing.
      const r = await measure(browser, server.base, route, token, { capture: true });
      const timed = [];
      for (let i = 0; i < runs; i++) timed.push(await measure(browser, server.base, route, token, { capture: false }));
      for (const f of r.files) chunks.set(f.url, f);
      const budget = route === '/login' ? budgets.signInKb : budgets.routeKb;
      const lcp = median(timed.map((x) => x.lcp));
      rows.push({ ...r, lcp, budget });
    }
    const load = os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    console.log(
      `\nConsole weight, locale ${opts.locale}, ${new Date().toISOString()}, load average ${load}, LCP the median of ${runs} cold run(s) per route` +
        (latency > 0 || mbps > 0
          ? `, network emulated: ${latency} ms latency, ${mbps > 0 ? `${mbps} Mbit/s` : 'unlimited bandwidth'}`
          : ', loopback'),
    );
    console.log('| route | opened | JS KB gz | CSS KB gz | JS files | JS budget KB | sent KB | LCP ms | LCP budget | met |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    let allMet = true;
    for (const r of rows) {
      const jsMet = r.js / 1024 <= r.budget;
      const lcpMet = r.lcp > 0 && r.lcp <= LCP_BUDGET_MS;
      const why = [jsMet ? '' : 'JS over budget', lcpMet ? '' : r.lcp > 0 ? 'LCP over budget' : 'no LCP entry'].filter(Boolean).join(', ');
      allMet &&= jsMet && lcpMet;
      const files = r.files.filter((f) => f.type === 'script').length;
      console.log(
        `| ${r.route} | ${r.finalUrl === r.route ? '' : `→ ${r.finalUrl}`} | ${kb(r.js)} | ${kb(r.css)} | ${files} | ${r.budget} | ${kb(r.sent)} | ${Math.round(r.lcp)} | ${LCP_BUDGET_MS} | ${why ? `not met (${why})` : 'met'} |`,
      );
    }
    const heavy = [...chunks.values()].sort((a, b) => b.gz - a.gz).slice(0, 12);
    console.log('\nHeaviest chunks fetched (KB gz): ' + heavy.map((f) => `${path.basename(f.url)} ${kb(f.gz)}`).join(', '));
    console.log(allMet ? '\nAll targets met.' : '\nSome targets not met.');
  } finally {
    await browser?.close();
    cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
