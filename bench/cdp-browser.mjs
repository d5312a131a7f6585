// Headless Chromium driven over the DevTools protocol directly, for the endurance benchmark. Playwright
// enables the Network domain on every page it drives, and DevTools then keeps every response's data
// in the page's process (it grew by megabytes over a 100-minute run of the large screen); a page
// driven here has only the domains the benchmark asks for: Page, the heap profiler, Performance.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';

/** Starts Chromium with a throw-away profile; resolves to its browser-level DevTools connection. */
export async function launchChromium({ executablePath = '/usr/bin/chromium', args = [] } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-cdp-'));
  const child = spawn(
    executablePath,
    ['--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, ...args, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        child.stderr.off('data', onData);
        child.stderr.resume();
        resolve(m[1]);
      }
    };
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`chromium exited with ${code} before listening: ${seen.slice(-500)}`)));
  });
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));

  let nextId = 1;
  const pending = new Map();
  const listeners = new Map(); // `${sessionId ?? ''}|${method}` -> Set<fn>
  ws.on('message', (data) => {
    const msg = JSON.parse(data);
    if (msg.id !== undefined) {
      const call = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) call?.reject(new Error(`${call.method}: ${msg.error.message}`));
      else call?.resolve(msg.result);
      return;
    }
    for (const fn of listeners.get(`${msg.sessionId ?? ''}|${msg.method}`) ?? []) fn(msg.params);
  });
  ws.on('close', () => {
    for (const call of pending.values()) call.reject(new Error(`${call.method}: the browser went away`));
    pending.clear();
  });

  /** A DevTools session: the browser's (no id) or one page's. */
  const session = (sessionId) => ({
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject, method });
        ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      }),
    on(method, fn) {
      const key = `${sessionId ?? ''}|${method}`;
      if (!listeners.has(key)) listeners.set(key, new Set());
      listeners.get(key).add(fn);
    },
    off(method, fn) {
      listeners.get(`${sessionId ?? ''}|${method}`)?.delete(fn);
    },
  });
  const browser = session(undefined);

  return {
    ...browser,
    /** A new page (tab) attached with a session of its own. */
    async newPage() {
      const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
      return session(sessionId);
    },
    onClose(fn) {
      ws.on('close', fn);
    },
    async close() {
      ws.removeAllListeners('close');
      await browser.send('Browser.close').catch(() => {});
      ws.close();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Resolves when `expression` evaluates truthy in the page, polling every 100 ms up to `timeoutMs`. */
export async function waitForExpression(page, expression, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { result } = await page.send('Runtime.evaluate', { expression, returnByValue: true });
    if (result.value) return result.value;
    if (Date.now() > until) throw new Error(`not true within ${timeoutMs} ms: ${expression}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
