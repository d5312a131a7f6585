import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, flowLocales, setLocaleCookie, toast, tr, type Locale } from './fixtures';

// The other specs run with the captcha off; this one starts a second server with it on, next port up.
const port = Number(process.env.E2E_PORT ?? 18080) + 1;
const origin = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  server = spawn(process.execPath, [path.join(here, 'serve.mjs')], {
    env: { ...process.env, E2E_PORT: String(port), E2E_CAPTCHA: 'true' },
    stdio: 'ignore',
  });
  await expect.poll(async () => (await fetch(`${origin}/prod-api/health`).catch(() => undefined))?.status, { timeout: 120_000 }).toBe(200);
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
});

const picture = (page: Page, locale: Locale) => page.getByAltText(tr(locale, 'auth.captchaRefresh'));

/** The picture's source once the browser has decoded it as an image (a wrong type shows nothing). */
async function shownPicture(page: Page, locale: Locale): Promise<{ src: string; width: number }> {
  const img = picture(page, locale);
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  return img.evaluate((el: HTMLImageElement) => ({ src: el.src, width: el.naturalWidth }));
}

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string) => tr(locale, key);

  test(`captcha (${locale}): a PNG picture, a new one on click and after a wrong answer`, async ({ page }) => {
    await setLocaleCookie(page, locale);
    await page.goto(`${origin}/login`);
    const first = await shownPicture(page, locale);
    expect(first.src).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(first.width).toBe(240);
    await expect(page.getByPlaceholder(t('auth.captchaPlaceholder'))).toBeVisible();

    await picture(page, locale).click();
    await expect.poll(async () => (await shownPicture(page, locale)).src).not.toBe(first.src);
    const second = await shownPicture(page, locale);

    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    // '0' is never in an answer: this guess is always wrong.
    await page.getByPlaceholder(t('auth.captchaPlaceholder')).fill('0000');
    await page.getByTestId('login-submit').click();
    await expect(toast(page, t('errors.auth.captchaWrong'))).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(async () => (await shownPicture(page, locale)).src).not.toBe(second.src);
    await expect(page.getByPlaceholder(t('auth.captchaPlaceholder'))).toHaveValue('');
  });
}
