import { expect, type Page } from '@playwright/test';

export const ADMIN = { username: 'admin', password: 'admin123' };
export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT ?? 18080}`;
export type Locale = 'zh-CN' | 'en-US';

/** Start in a language: the console reads the `language` cookie before anything else. */
export async function setLocaleCookie(page: Page, locale: Locale) {
  await page.context().addCookies([{ name: 'language', value: locale, url: BASE_URL }]);
}

export async function signIn(page: Page, locale: Locale = 'en-US', user = ADMIN) {
  await setLocaleCookie(page, locale);
  await page.goto('/login');
  await page.getByTestId('login-username').fill(user.username);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard/);
}

/** Call the API as the signed-in page does, e.g. to prepare data. */
export async function api<T = unknown>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ code: number; msg: string; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('Admin-Token='))?.slice('Admin-Token='.length) ?? '';
      const res = await fetch(`/prod-api${path}`, {
        method,
        headers: { authorization: `Bearer ${decodeURIComponent(token)}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    { method, path, body },
  );
}
