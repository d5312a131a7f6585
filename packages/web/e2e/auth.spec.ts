import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  ADMIN,
  flowLocales,
  ORG_PAGE,
  api,
  avatarMenu,
  confirmDialog,
  expectNoRawKeys,
  loose,
  openFromSidebar,
  setLocaleCookie,
  signIn,
  submitLogin,
  toast,
  storedToken,
  sessionCookie,
  tr,
  watchConsole,
  type Locale,
} from './fixtures';

/** POST /web/info with a token, outside the browser: tells whether the session still lives. */
async function infoCode(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.post('/prod-api/web/info', { headers: { authorization: `Bearer ${token}` }, data: {} });
  return ((await res.json()) as { code: number }).code;
}

/** Put the admin password back to admin123 if a test left it changed (sign in with `current`, change). */
async function restorePassword(request: APIRequestContext, current: string) {
  const login = await request.post('/prod-api/web/login', { data: { username: ADMIN.username, password: current } });
  const body = (await login.json()) as { code: number; data?: { token?: string } };
  const token = body.data?.token;
  if (body.code !== 200 || !token) return;
  await request.post('/prod-api/web/userManage/editUserPwd', {
    headers: { authorization: `Bearer ${token}` },
    data: { oldPwd: current, newPwd: ADMIN.password, confirmNewPwd: ADMIN.password },
  });
}

/** Envelope codes of the API replies the page receives. */
function watchEnvelopes(page: Page): number[] {
  const codes: number[] = [];
  page.on('response', async (res) => {
    if (!res.url().includes('/prod-api/') || res.url().includes('/web/events')) return;
    try {
      codes.push(((await res.json()) as { code: number }).code);
    } catch {
      // Not JSON (a file): not an envelope.
    }
  });
  return codes;
}

for (const locale of flowLocales('en-US')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);
  const titleOf = (key: string) => `${t(key)} - ${t('shell.appTitle')}`;

  test.describe(`auth (${locale})`, () => {
    test('sign-in: a wrong password shows the error and stays; the right one opens the dashboard', async ({ page }) => {
      await setLocaleCookie(page, locale);
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: t('auth.title') })).toBeVisible();
      await expect(page).toHaveTitle(titleOf('auth.loginTitle'));
      await expect(page.getByTestId('login-username')).toHaveAttribute('placeholder', t('auth.usernamePlaceholder'));
      await expectNoRawKeys(page);

      await submitLogin(page, ADMIN.username, 'wrong-password');
      await expect(toast(page, t('errors.auth.badCredentials'))).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      expect(await storedToken(page)).toBeUndefined();

      await submitLogin(page, ADMIN.username, ADMIN.password);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page).toHaveTitle(titleOf('menu.dashboard'));
      await expect(page.getByText(t('shell.dashboard.welcome', { name: 'Administrator' }))).toBeVisible();
      const token = await storedToken(page);
      expect(token).toBeTruthy();
      // The server's session cookie carries the same session, out of the page script's reach.
      expect(await sessionCookie(page)).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', secure: false });
      expect(await page.evaluate(() => document.cookie)).not.toContain('Admin-Token');
      await expectNoRawKeys(page);
    });

    test('the console runs under its Content-Security-Policy, never framed', async ({ page }) => {
      const errors = watchConsole(page);
      const violations: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
      });
      const doc = await page.goto('/login');
      const csp = (await doc!.allHeaders())['content-security-policy'] ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect((await doc!.allHeaders())['x-content-type-options']).toBe('nosniff');
      await signIn(page, locale);
      await openFromSidebar(page, t('menu.systemManagement'), t('menu.organizationManage'), ORG_PAGE);
      await expect(page.getByRole('button', { name: t('common.refresh'), exact: true })).toBeVisible();
      expect(violations).toEqual([]);
      expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    });

    test('sign-in outcomes: a disabled user and a disabled role are refused with their messages', async ({ page }) => {
      const stamp = `${locale.slice(0, 2)}${Date.now().toString(36)}`;
      await signIn(page, locale);
      const role = await api<{ id: number; providerId: number }>(page, 'POST', '/web/permissionManage/createRole', {
        roleName: `Off ${stamp}`,
        roleKey: `off${stamp}`,
        rolePaths: ['/historyRecord/chargeRecord'],
        enabled: false,
      });
      expect(role.code).toBe(200);
      const okRole = await api<{ id: number }>(page, 'POST', '/web/permissionManage/createRole', {
        roleName: `On ${stamp}`,
        roleKey: `on${stamp}`,
        rolePaths: ['/historyRecord/chargeRecord'],
      });
      // Phone numbers are unique too: one per user and run.
      const phone = (n: number) => `139${String(Date.now() + n).slice(-8)}`;
      const addUser = (username: string, roleId: number, n: number) =>
        api<{ id: number }>(page, 'POST', '/web/userManage/addUser', {
          username,
          password: 'secret1',
          roleId,
          providerId: role.data.providerId,
          phone: phone(n),
        });
      const roleOff = await addUser(`roleoff${stamp}`, role.data.id, 0);
      const userOff = await addUser(`useroff${stamp}`, okRole.data.id, 1);
      expect([roleOff.code, userOff.code]).toEqual([200, 200]);
      expect((await api(page, 'POST', '/web/userManage/updateSystemUserStatus', { id: userOff.data.id, status: 0 })).code).toBe(200);
      await page.context().clearCookies();
      await page.evaluate(() => window.localStorage.removeItem('Admin-Token'));
      await setLocaleCookie(page, locale);

      // Disabled user: the server refuses the sign-in.
      await page.goto('/login');
      await submitLogin(page, `useroff${stamp}`, 'secret1');
      await expect(toast(page, t('auth.accountDisabled'))).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      expect(await storedToken(page)).toBeUndefined();

      // Disabled role: signed in, but the info says 'forbidden': logged out again with the message.
      await expect(toast(page, t('auth.accountDisabled'))).toHaveCount(0);
      await submitLogin(page, `roleoff${stamp}`, 'secret1');
      await expect(toast(page, t('auth.accountDisabled'))).toBeVisible();
      await expect(page).toHaveURL(/\/login/);
      await expect(page.getByTestId('login-submit')).toBeVisible();
      expect(await storedToken(page)).toBeUndefined();
      await expectNoRawKeys(page);
    });

    test('guard: a signed-out deep link goes to sign-in with a redirect and comes back after signing in', async ({ page }) => {
      await setLocaleCookie(page, locale);
      await page.goto('/some/deep/path');
      await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/some/deep/path')}`);

      const target = `${ORG_PAGE}?orgName=Zeta`;
      await page.goto(target);
      await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(target)}`);
      await submitLogin(page, ADMIN.username, ADMIN.password);
      await expect(page).toHaveURL(target);
      await expect(page.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.organization.orgName') }))).toHaveValue('Zeta');
      await expect(page).toHaveTitle(titleOf('menu.organizationManage'));
    });

    test('guard: with a session /login goes to the dashboard, an unknown path to /404', async ({ page }) => {
      await signIn(page, locale);
      await page.goto('/login');
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.goto('/no/such/page');
      await expect(page).toHaveURL(/\/404$/);
      await expect(page.getByText(t('shell.notFound.headline'))).toBeVisible();
      await expect(page).toHaveTitle(titleOf('shell.notFound.title'));
      await expectNoRawKeys(page);
      await page.getByRole('button', { name: loose(t('shell.notFound.back')) }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test('/404 is reachable signed out', async ({ page }) => {
      await setLocaleCookie(page, locale);
      await page.goto('/404');
      await expect(page.getByText(t('shell.notFound.headline'))).toBeVisible();
      await expect(page.getByText(t('shell.notFound.text'))).toBeVisible();
      await expect(page).toHaveURL(/\/404$/);
      await expectNoRawKeys(page);
    });

    test("drivers open a provider's disclaimer and privacy agreement signed out", async ({ page }) => {
      // The public link carries the provider's agreement key, never its id: read it as an operator, then sign out.
      await signIn(page, locale);
      const own = await api<{ agreementKey: string }>(page, 'GET', '/web/getProvider?id=1');
      const key = own.data.agreementKey;
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      await page.evaluate(() => window.localStorage.clear());
      await page.context().clearCookies();
      await setLocaleCookie(page, locale);
      await page.goto(`/disclaimer/${key}`);
      await expect(page).toHaveURL(new RegExp(`/disclaimer/${key}$`));
      await expect(page.getByRole('heading', { name: t('fields.provider.disclaimer') })).toBeVisible();
      await expect(page.getByText('CSMS', { exact: true })).toBeVisible();
      await page.goto(`/privacyAgreement/${key}`);
      await expect(page.getByRole('heading', { name: t('fields.provider.privacyAgreement') })).toBeVisible();
      await expectNoRawKeys(page);
      // A provider id, or a key no provider has, names no provider.
      await page.goto('/disclaimer/1');
      await expect(page.getByText(t('agreement.notFound'))).toBeVisible();
      await page.goto(`/disclaimer/${'0'.repeat(32)}`);
      await expect(page.getByText(t('agreement.notFound'))).toBeVisible();
    });

    test('log out from the avatar menu after the 系统提示 confirm; the session is revoked', async ({ page, request }) => {
      await signIn(page, locale);
      const token = (await storedToken(page))!;
      await avatarMenu(page, t('shell.logout'));
      const dialog = confirmDialog(page);
      await expect(dialog).toHaveCount(1);
      await expect(dialog.locator('.ant-modal-confirm-title')).toHaveText(t('common.systemPrompt'));
      await expect(dialog.getByText(t('auth.logoutConfirm'))).toBeVisible();
      await expect(dialog.getByRole('button', { name: loose(t('common.cancel')) })).toBeVisible();
      await dialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
      await expect(page).toHaveURL(/\/login$/);
      expect(await storedToken(page)).toBeUndefined();
      expect(await infoCode(request, decodeURIComponent(token))).toBe(401);
      // Signed out: the console sends protected pages back to sign-in.
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/login\?redirect=/);
    });

    test('change password: mismatch and wrong old password are shown; success forces a new sign-in', async ({ page, request }) => {
      const newPassword = `e2e-${locale}-pw`;
      try {
        await signIn(page, locale);
        await avatarMenu(page, t('auth.changePassword'));
        const dialog = page.getByRole('dialog', { name: t('auth.changePassword') });
        await expect(dialog).toBeVisible();
        await expectNoRawKeys(page);
        await dialog.getByLabel(t('fields.auth.oldPwd')).fill(ADMIN.password);
        await dialog.getByLabel(t('fields.auth.newPwd')).fill(newPassword);
        await dialog.getByLabel(t('fields.auth.confirmNewPwd')).fill(`${newPassword}-other`);
        await expect(dialog.getByText(t('validation.passwordMismatch'))).toBeVisible();
        await dialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
        await expect(dialog).toBeVisible();

        // The server refuses a wrong old password on its field.
        await dialog.getByLabel(t('fields.auth.confirmNewPwd')).fill(newPassword);
        await expect(dialog.getByText(t('validation.passwordMismatch'))).toHaveCount(0);
        await dialog.getByLabel(t('fields.auth.oldPwd')).fill('not-the-password');
        await dialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
        await expect(dialog.getByText(t('errors.auth.oldPasswordWrong'))).toBeVisible();

        await dialog.getByLabel(t('fields.auth.oldPwd')).fill(ADMIN.password);
        await dialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
        await expect(toast(page, t('auth.pwdChanged'))).toBeVisible();
        await expect(page).toHaveURL(/\/login$/);
        expect(await storedToken(page)).toBeUndefined();

        await submitLogin(page, ADMIN.username, ADMIN.password);
        await expect(toast(page, t('errors.auth.badCredentials'))).toBeVisible();
        await expect(page).toHaveURL(/\/login$/);
        await submitLogin(page, ADMIN.username, newPassword);
        await expect(page).toHaveURL(/\/dashboard$/);

        // Back to the usual password, through the same API the dialog uses.
        const r = await api(page, 'POST', '/web/userManage/editUserPwd', {
          oldPwd: newPassword,
          newPwd: ADMIN.password,
          confirmNewPwd: ADMIN.password,
        });
        expect(r.code).toBe(200);
      } finally {
        await restorePassword(request, newPassword);
      }
    });

    test('401: a revoked session opens one re-login confirm, drops the token, and confirming goes to sign-in', async ({ page }) => {
      await signIn(page, locale);
      const orgName = `e2e-401-${locale}-${Date.now()}`;
      expect((await api(page, 'POST', '/web/organizationManage/createOrg', { orgName })).code).toBe(200);
      await page.goto(ORG_PAGE);
      await expect(page.getByRole('cell', { name: orgName })).toBeVisible();

      // Revoke the session for real, as another tab logging out would.
      expect((await api(page, 'POST', '/web/logout', {})).code).toBe(200);
      const codes = watchEnvelopes(page);

      // Two calls in the same tick: the list refresh and the detail of the row.
      await page.evaluate(
        ({ refresh, detail, orgName }) => {
          const buttons = [...document.querySelectorAll('button')];
          const byText = (text: string, within?: Element | null) =>
            [...(within ?? document).querySelectorAll('button')].find((b) => b.textContent?.replace(/\s+/g, '') === text);
          const row = [...document.querySelectorAll('tr')].find((r) => r.textContent?.includes(orgName));
          buttons.find((b) => b.getAttribute('aria-label') === refresh)!.click();
          byText(detail, row)!.click();
        },
        { refresh: t('common.refresh'), detail: t('common.detail'), orgName },
      );
      await expect.poll(() => codes.filter((c) => c === 401).length).toBeGreaterThanOrEqual(2);
      const dialog = confirmDialog(page);
      await expect(dialog).toHaveCount(1);
      await expect(dialog.locator('.ant-modal-confirm-title')).toHaveText(t('common.systemPrompt'));
      await expect(dialog.getByText(t('auth.relogin'))).toBeVisible();
      expect(await storedToken(page)).toBeUndefined();
      await expectNoRawKeys(page);

      await dialog.getByRole('button', { name: loose(t('auth.reloginOk')) }).click();
      await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(ORG_PAGE)}`);
      await submitLogin(page, ADMIN.username, ADMIN.password);
      await expect(page).toHaveURL(ORG_PAGE);
      await expect(page.getByRole('cell', { name: orgName })).toBeVisible();
    });

    test('403: a refused call shows the error toast and the session stays', async ({ page }) => {
      await signIn(page, locale);
      const msg = t('errors.forbidden');
      await page.route(/\/queryOrganizations/, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 403, msg, data: null }) }),
      );
      await openFromSidebar(page, t('menu.systemManagement'), t('menu.organizationManage'), ORG_PAGE);
      await expect(toast(page, msg)).toBeVisible();
      await expect(confirmDialog(page)).toHaveCount(0);
      expect(await storedToken(page)).toBeTruthy();

      // The session is intact: without the refusal the same screen loads.
      await page.unroute(/\/queryOrganizations/);
      const list = page.waitForResponse(/\/queryOrganizations/);
      await page.getByRole('button', { name: t('common.refresh'), exact: true }).click();
      expect(((await (await list).json()) as { code: number }).code).toBe(200);
      await expect(page).toHaveURL(ORG_PAGE);
      await expect(confirmDialog(page)).toHaveCount(0);
      expect((await api(page, 'POST', '/web/info', {})).code).toBe(200);
    });
  });
}

// The sign-in page is drawn without antd, with its own language menu: one run covers both directions' code.
test('sign-in page: the language menu switches to English, confirms it after the reload, and the page reads in English', async ({
  page,
}) => {
  await setLocaleCookie(page, 'zh-CN');
  await page.goto('/login');
  await expect(page.getByTestId('login-username')).toHaveAttribute('placeholder', tr('zh-CN', 'auth.usernamePlaceholder'));
  await page.getByRole('button', { name: tr('zh-CN', 'shell.language') }).click();
  await expect(page.getByRole('menuitemradio', { name: tr('zh-CN', 'enums.language.zh') })).toHaveAttribute('aria-checked', 'true');
  const reloaded = page.waitForEvent('load');
  await page.getByRole('menuitemradio', { name: tr('zh-CN', 'enums.language.en') }).click();
  await reloaded;
  await expect(toast(page, tr('en-US', 'shell.languageSwitched'))).toBeVisible();
  await expect(page.getByTestId('login-username')).toHaveAttribute('placeholder', tr('en-US', 'auth.usernamePlaceholder'));
  await expect(page).toHaveTitle(`${tr('en-US', 'auth.loginTitle')} - ${tr('en-US', 'shell.appTitle')}`);
  await expectNoRawKeys(page);
});
