import { expect, test, type Page } from '@playwright/test';
import { api, signIn } from './fixtures';
import { startTestReader, type TestReader } from './reader';

/**
 * The card reader companion as Chromium sees it (DESIGN.md §9), the ground the console's
 * client (src/shared/cardReader) stands on: a read from the console's page, the companion's
 * answers, and what a refused or absent companion looks like to a page (never opened, 1006).
 */
type Seen = { opened: boolean; reply?: unknown; closed?: number };

function readFromPage(page: Page, url: string): Promise<Seen> {
  return page.evaluate(
    (url) =>
      new Promise<Seen>((resolve) => {
        const ws = new WebSocket(url);
        let opened = false;
        ws.onopen = () => {
          opened = true;
          ws.send(JSON.stringify({ type: 'read', timeoutMs: 2_000 }));
        };
        ws.onmessage = (e) => {
          resolve({ opened, reply: JSON.parse(String(e.data)) });
          ws.close();
        };
        ws.onclose = (e) => resolve({ opened, closed: e.code });
      }),
    url,
  );
}

let reader: TestReader;
test.beforeEach(async () => {
  reader = await startTestReader(['04A1B2C3D4E5F6']);
});
test.afterEach(() => reader.close());

test('the console page reads cards from the companion on the port the server names', async ({ page }) => {
  await reader.use(page);
  await signIn(page);
  expect((await api(page, 'GET', '/system/config/configKey/csms.reader.port')).data).toBe(String(reader.port));

  expect(await readFromPage(page, reader.url)).toEqual({ opened: true, reply: { type: 'card', uid: '04A1B2C3D4E5F6' } });
  reader.setUid(null);
  expect(await readFromPage(page, reader.url)).toEqual({ opened: true, reply: { type: 'error', code: 'noCard' } });
  await reader.setMode('pcsc');
  expect(await readFromPage(page, reader.url)).toMatchObject({ opened: true, reply: { type: 'error', code: 'noDriver' } });
  await reader.setMode('keyboard');
  reader.type('04:11:22:33');
  expect(await readFromPage(page, reader.url)).toEqual({ opened: true, reply: { type: 'card', uid: '04112233' } });
});

test('a page from another origin is refused, and a stopped companion cannot be reached', async ({ page }) => {
  await page.goto('data:text/html,<title>elsewhere</title>');
  expect(await readFromPage(page, reader.url)).toEqual({ opened: false, closed: 1006 });

  await signIn(page);
  await reader.close();
  expect(await readFromPage(page, reader.url)).toEqual({ opened: false, closed: 1006 });
});
