import { expect, type Locator, type Page } from '@playwright/test';
import { enUS as vocabEn, zhCN as vocabZh } from '@csms/contract';
import { enUS as uiEn } from '../src/i18n/locales/en-US/index';
import { zhCN as uiZh } from '../src/i18n/locales/zh-CN/index';

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
export async function api<T = unknown>(
  page: Page,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('Admin-Token='))
          ?.slice('Admin-Token='.length) ?? '';
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

// ---------------------------------------------------------------------------------------------
// Catalogue texts, raw-key and console checks shared by the specs.

export const LOCALES: Locale[] = ['zh-CN', 'en-US'];

const catalogues: Record<Locale, Record<string, unknown>> = {
  'zh-CN': { ...vocabZh, ...uiZh },
  'en-US': { ...vocabEn, ...uiEn },
};

/** The visible text of a catalogue key in a language, with `{name}` placeholders filled. */
export function tr(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  let node: unknown = catalogues[locale];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`No catalogue text for ${key} in ${locale}`);
  return node.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** A catalogue key left untranslated on screen, e.g. `menu.dashboard` or `fields.organization.orgName`. */
export const RAW_KEY = /\b(?:menu|fields|common|kit|shell|auth|request|upload|organization|enums|errors|validation|dicts?)\.[A-Za-z][\w.]*/;

/** The page (including open dialogs, drawers and toasts) shows no raw catalogue key. */
export async function expectNoRawKeys(page: Page) {
  const text = await page.evaluate(() => document.body.innerText);
  expect(text.match(RAW_KEY)?.[0], 'raw i18n key on the page').toBeUndefined();
  const title = await page.title();
  expect(title.match(RAW_KEY)?.[0], 'raw i18n key in the title').toBeUndefined();
}

/** Collects console errors and uncaught page errors for the page's lifetime. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  return errors;
}

/** The session token cookie, if any. */
export async function tokenCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies(BASE_URL);
  return cookies.find((c) => c.name === 'Admin-Token')?.value;
}

/** The cookie of that name, if any. */
export async function cookieValue(page: Page, name: string): Promise<string | undefined> {
  const cookies = await page.context().cookies(BASE_URL);
  return cookies.find((c) => c.name === name)?.value;
}

/**
 * A pattern for a button's name: antd puts a space between two Chinese characters
 * ('确定' shows as '确 定'), so whitespace between characters is allowed.
 */
export function loose(text: string): RegExp {
  const chars = [...text.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*${chars.join('\\s*')}\\s*$`);
}

/** Fill and submit the sign-in form, without assuming where it leads. */
export async function submitLogin(page: Page, username: string, password: string) {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** The toast (antd message) showing exactly this text. */
export function toast(page: Page, text: string) {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

/** The one open confirm dialog (系统提示 and friends). */
export function confirmDialog(page: Page) {
  return page.locator('.ant-modal-confirm');
}

/** Open the avatar menu and choose an entry by its catalogue text. */
/**
 * Open a dropdown with `opener` and choose the entry named `label`. A click that lands while the
 * menu is still unfolding can be lost, so until the menu has closed on the choice, it is retried.
 */
export async function chooseFromDropdown(page: Page, opener: Locator, label: string | RegExp, how: { button?: 'right' } = {}) {
  const open = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').filter({ visible: true });
  const item = open.locator('.ant-dropdown-menu-item').filter({ hasText: label });
  await expect(async () => {
    if (!(await item.isVisible())) await opener.click({ ...how, timeout: 3_000 });
    await item.click({ timeout: 3_000 });
    await expect(open).toHaveCount(0, { timeout: 10_000 });
  }).toPass({ timeout: 30_000 });
}

export async function avatarMenu(page: Page, label: string) {
  await chooseFromDropdown(page, page.getByTestId('avatar-menu'), label);
}

export const ORG_PAGE = '/systemManagement/organizationManage';

/**
 * Open a screen from the sidebar: expand its group if needed, click the entry, land on `path`.
 * A click while the group is still unfolding can miss, so the whole step is retried.
 */
export async function openFromSidebar(page: Page, group: string, item: string, path: string) {
  const sidebar = page.locator('.ant-layout-sider .ant-menu-root');
  const entry = sidebar.getByRole('menuitem', { name: item, exact: true });
  await expect(async () => {
    if (!(await entry.isVisible())) await sidebar.getByRole('menuitem', { name: group }).click();
    await entry.click({ timeout: 2_000 });
    await expect(page).toHaveURL(path, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}
