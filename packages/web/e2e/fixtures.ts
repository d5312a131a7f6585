import { expect, type Locator, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { enUS as vocabEn, zhCN as vocabZh } from '@csms/contract';
import { enUS as uiEn } from '../src/i18n/locales/en-US/index';
import { zhCN as uiZh } from '../src/i18n/locales/zh-CN/index';
import ocppKeysEn from '../src/i18n/locales/en-US/ocppKeys';
import ocppKeysZh from '../src/i18n/locales/zh-CN/ocppKeys';

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
      const token = window.localStorage.getItem('Admin-Token') ?? '';
      const res = await fetch(`/prod-api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
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

/**
 * The languages a flow runs in. Every screen is drawn in both and checked for raw keys and console
 * errors (screens.spec.ts), and the catalogues are compared key by key (the component tests); a
 * flow's steps are the same in either, so each flow runs in the one its spec names, half the specs
 * in each. `E2E_ALL_LOCALES=1` runs every flow in both.
 */
export function flowLocales(locale: Locale): Locale[] {
  return process.env.E2E_ALL_LOCALES ? LOCALES : [locale];
}

const catalogues: Record<Locale, Record<string, unknown>> = {
  // With the catalogue parts (src/i18n/parts.ts) the screens fetch on demand.
  'zh-CN': { ...vocabZh, ...uiZh, ocppKeys: ocppKeysZh },
  'en-US': { ...vocabEn, ...uiEn, ocppKeys: ocppKeysEn },
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

/** The session token the console holds (kept from the sign-in answer), if any. */
export async function storedToken(page: Page): Promise<string | undefined> {
  return (await page.evaluate(() => window.localStorage.getItem('Admin-Token'))) ?? undefined;
}

/** The server's session cookie (HttpOnly: the page's script cannot read it), if any. */
export async function sessionCookie(page: Page) {
  const cookies = await page.context().cookies(BASE_URL);
  return cookies.find((c) => c.name === 'Admin-Token');
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

/** The toast showing this text: antd's message in the console, the sign-in page's own (drawn without antd). */
export function toast(page: Page, text: string) {
  // The newest: an earlier toast with the same text may still be showing (each stays 3 s).
  return page.locator('.ant-message-notice, .csms-toast').filter({ hasText: text }).last();
}

/** Opens an antd select, types to narrow it when `typed` is given, and picks the option with that text. */
export async function chooseOption(page: Page, field: Locator, typed: string, option: string | RegExp) {
  await field.click();
  if (typed) await field.fill(typed);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

/** The one open confirm dialog (系统提示 and friends). */
export function confirmDialog(page: Page) {
  return page.locator('.ant-modal-confirm');
}

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
  }).toPass({ timeout: 60_000 });
}

/** Open the avatar menu and choose an entry by its catalogue text. */
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
  }).toPass({ timeout: 60_000 });
}

// ---------------------------------------------------------------------------------------------
// A charger for the specs that need OCPP traffic.

/** A minimal OCPP 1.6J charge point: one outstanding call at a time, answers nothing. */
export async function connectCharger(serial: string, key: string) {
  const ws = new WebSocket(`${BASE_URL.replace('http', 'ws')}/ocpp/${serial}`, ['ocpp1.6'], {
    headers: { authorization: `Basic ${Buffer.from(`${serial}:${key}`).toString('base64')}` },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let n = 0;
  const call = (action: string, payload: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = `e2e-${++n}`;
      const onMessage = (data: WebSocket.RawData) => {
        const frame = JSON.parse(String(data)) as unknown[];
        if (frame[1] !== id) return;
        ws.off('message', onMessage);
        if (frame[0] === 3) resolve(frame[2] as Record<string, unknown>);
        else reject(new Error(`${action}: ${JSON.stringify(frame)}`));
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify([2, id, action, payload]));
    });
  return { call, close: () => ws.close() };
}

/** The answer's data of an API call that must succeed. */
export async function ok<T>(p: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
  const r = await p;
  expect(r.code, r.msg).toBe(200);
  return r.data;
}

/** Where simulated chargers connect. */
export const OCPP_URL = `${BASE_URL.replace(/^http/, 'ws')}/ocpp`;

/** A button's name holds its icon's label too, and antd spaces two Chinese characters: match the text loosely, anywhere. */
export const looseButton = (text: string) => new RegExp(loose(text).source.slice(1));

export interface PointWithCardOptions {
  /** The point's connectors (default 1). */
  connectors?: number;
  /** Put the point on this station (of `providerId`) instead of a new one. */
  stationId?: number;
  /** The provider of the new station and of the card (default 1, the super provider). */
  providerId?: number;
  ratedPowerW?: number;
  prepaidCents?: number;
}

/**
 * A station of the super provider (or `stationId`), an AC point on it (its serial number
 * `E2E-<tag>-<stamp>` and OCPP key) and a prepaid card (`E2E<tag>C<stamp>`, its physical id the idTag
 * the charger sends) for it to authorise.
 */
export async function pointWithCard(page: Page, tag: string, stamp: string, opts: PointWithCardOptions = {}) {
  const { connectors = 1, providerId = 1, ratedPowerW = 22_000, prepaidCents = 10_000 } = opts;
  const stationId =
    opts.stationId ??
    (
      await ok(
        api<{ id: number }>(page, 'POST', '/web/station/add', {
          stationName: `E2E ${tag} ${stamp}`,
          providerId,
          country: 'CN',
          address: 'Harbour road 1',
          longitude: 121.47,
          latitude: 31.23,
        }),
      )
    ).id;
  const serialNumber = `E2E-${tag}-${stamp}`;
  const point = await ok(
    api<{ ocppKey: string }>(page, 'POST', '/web/point/add', {
      serialNumber,
      pointName: `Bay ${stamp}`,
      equipmentType: 'ac',
      ratedPowerW,
      stationId,
      connectors: Array.from({ length: connectors }, (_, i) => ({ connectorNo: i + 1, standard: 'ac', type: 'Type2' })),
    }),
  );
  const cardNumber = `E2E${tag}C${stamp}`.toUpperCase();
  const physicalId = `${tag}${stamp}`.toUpperCase().slice(0, 20);
  const card = await ok(
    api<{ id: number }>(page, 'POST', '/web/card/add', {
      cardNumber,
      physicalId,
      providerId,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      prepaidCents,
      email: 'driver@example.test',
    }),
  );
  return { serialNumber, key: point.ocppKey, cardNumber, physicalId, card, stationId };
}

/**
 * Choose a card in an action dialog's idTag picker. The picker shows the provider's first cards (other
 * specs add theirs) and searches on the server: type the card number. A click that lands while the
 * list unfolds is lost on a loaded machine, so until the picker shows the card, search and choose again.
 */
export async function pickIdTag(page: Page, dialog: Locator, cardNumber: string) {
  const picker = dialog.getByTestId('idtag-select');
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: cardNumber }).first();
  await expect(async () => {
    if (!(await option.isVisible())) {
      await picker.click({ timeout: 3_000 });
      await picker.locator('input').fill(cardNumber, { timeout: 3_000 });
    }
    await option.click({ timeout: 5_000 });
    await expect(picker).toContainText(cardNumber, { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
}
