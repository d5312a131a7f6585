import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  BASE_URL,
  flowLocales,
  ORG_PAGE,
  api,
  avatarMenu,
  chooseFromDropdown,
  expectNoRawKeys,
  loose,
  signIn,
  toast,
  tr,
  watchConsole,
  type Locale,
} from './fixtures';

const USERS_PAGE = '/systemManagement/userManage';
const STATIONS_PAGE = '/configurationManagement/stationManagement';
/** This screen's own catalogue parts, beside the fixtures' list of raw-key prefixes. */
const OWN_RAW_KEY = /\b(?:systemUser|provider|profile)\.[a-z][\w.]*/;

async function expectNoOwnRawKeys(page: Page) {
  await expectNoRawKeys(page);
  const text = await page.evaluate(() => document.body.innerText);
  expect(text.match(OWN_RAW_KEY)?.[0], 'raw i18n key on the page').toBeUndefined();
}

/** The open form dialog (not a confirm). */
const formDialog = (page: Page) =>
  page
    .locator('.ant-modal:not(.ant-modal-confirm)')
    .filter({ has: page.locator('form') })
    .last();

/** A button by its text (icons add their names to the accessible name, e.g. "plus Add"). */
const button = (scope: Page | Locator, text: string) => scope.locator('button').filter({ hasText: loose(text) });

/** A row action: a button in the row, or an entry of the row's "more" menu when the row has many actions. */
async function rowAction(page: Page, row: Locator, text: string, more: string) {
  const inline = button(row, text);
  if (await inline.count()) return inline.first().click();
  await chooseFromDropdown(page, button(row, more), loose(text));
}

/** Pick an option of an antd Select by its text. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);
  const tag = `${locale === 'zh-CN' ? 'zh' : 'en'}${Date.now().toString(36)}`;
  const providerName = `Provider ${tag}`;
  const roleName = `Org viewer ${tag}`;
  const user = { username: `viewer_${tag}`, password: 'viewer-pass-1' };

  test.describe(`system users and providers (${locale})`, () => {
    test('an admin creates a provider, a role and a user; the user gets only what the role allows', async ({ page, browser }) => {
      const errors = watchConsole(page);
      await signIn(page, locale);

      // 1. A common provider, in the Providers tab of the system-user page.
      await page.goto(USERS_PAGE);
      await page
        .locator('.ant-card-head')
        .getByRole('tab', { name: t('provider.tab') })
        .click();
      await expect(page).toHaveURL(/tab=providers/);
      await expect(page.locator('.ant-table-thead')).toContainText(t('fields.provider.providerType'));
      await button(page, t('common.add')).click();
      let dialog = formDialog(page);
      await expect(dialog.getByText(t('provider.mailSection'))).toBeVisible();
      await dialog.getByLabel(t('fields.provider.providerName')).fill(providerName);
      await choose(page, dialog.getByLabel(t('fields.provider.parentId')), 'CSMS');
      await choose(page, dialog.getByLabel(t('fields.provider.expiration')), t('enums.providerValidity.1'));
      await dialog.getByLabel(t('fields.provider.contact')).fill('Ann');
      const disclaimer = `Charge at your own risk (${tag}).`;
      // The disclaimer is rich text: type into the editor of its form item.
      await dialog
        .locator('.ant-form-item')
        .filter({ has: page.locator('label').getByText(t('fields.provider.disclaimer'), { exact: true }) })
        .locator('[contenteditable="true"]')
        .fill(disclaimer);
      await dialog.getByLabel(t('fields.provider.mailAccount')).fill('ops@example.com');
      await dialog.getByLabel(t('fields.provider.mailAuthCode')).fill('secret-code');
      // The server's own network is not a mail server an operator may point it at.
      await dialog.getByLabel(t('fields.provider.smtpAddress')).fill('127.0.0.1');
      await dialog.getByLabel(t('fields.provider.smtpPort')).fill('2525');
      await expectNoOwnRawKeys(page);
      await button(dialog, t('common.confirm')).click();
      await expect(dialog.getByText(t('errors.provider.smtpInternal'))).toBeVisible();
      // A name that never resolves (RFC 2606) is stored; it is checked when mail is sent.
      await dialog.getByLabel(t('fields.provider.smtpAddress')).fill('smtp.example.invalid');
      await button(dialog, t('common.confirm')).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      const providerRow = page.locator('.ant-table-row').filter({ hasText: providerName });
      await expect(providerRow).toContainText(t('enums.providerType.common'));

      // Its disclaimer is a public page for drivers, opened from the row; no privacy agreement written, no link to one.
      const opened = page.context().waitForEvent('page');
      await rowAction(page, providerRow, t('provider.disclaimerPage'), t('common.more'));
      const driverPage = await opened;
      await expect(driverPage).toHaveURL(/\/disclaimer\/[0-9a-f]{32}$/);
      await expect(driverPage.getByText(disclaimer)).toBeVisible();
      await driverPage.close();
      await expect(page.locator('.ant-dropdown-menu-item').filter({ hasText: loose(t('provider.privacyPage')) })).toHaveCount(0);

      // Test mail: the recipient is checked by the call's schema; the server cannot reach the mail server and says only that.
      await rowAction(page, providerRow, t('provider.testMail'), t('common.more'));
      const mailPrompt = formDialog(page);
      await mailPrompt.getByLabel(t('fields.provider.to')).fill('not-an-address');
      await button(mailPrompt, t('common.confirm')).click();
      await expect(mailPrompt.locator('.ant-form-item-explain-error')).toBeVisible();
      await mailPrompt.getByLabel(t('fields.provider.to')).fill('someone@example.com');
      await button(mailPrompt, t('common.confirm')).click();
      await expect(page.locator('.ant-message-notice').filter({ hasText: t('errors.provider.mailUnreachable') })).toBeVisible();
      await expect(mailPrompt).toBeVisible();
      await button(mailPrompt, t('common.cancel')).click();
      await expect(mailPrompt).toBeHidden();

      // 2. A role limited to the Stations menu and the Organisations menu, with only list permissions (through the API: the roles
      //    screen has its own test).
      const role = await api<{ id: number }>(page, 'POST', '/web/permissionManage/createRole', {
        roleName,
        roleKey: `orgViewer${tag}`,
        rolePaths: ['/systemManagement', ORG_PAGE, '/configurationManagement', STATIONS_PAGE],
        permissions: ['system:organization:list', 'config:station:list', 'config:point:list'],
      });
      expect(role.code).toBe(200);

      // 3. A user of that provider with that role, in the System users tab.
      await page
        .locator('.ant-card-head')
        .getByRole('tab', { name: t('systemUser.tab') })
        .click();
      await expect(page).not.toHaveURL(/tab=providers/);
      await expect(page.locator('.ant-table-thead')).toContainText(t('fields.systemUser.lastLoginTime'));
      await button(page, t('common.add')).click();
      dialog = formDialog(page);
      await dialog.getByLabel(t('fields.systemUser.username')).fill('admin');
      await dialog.getByLabel(t('fields.systemUser.password')).click();
      // The username is checked on blur: admin is taken.
      await expect(dialog.getByText(t('errors.systemUser.usernameTaken', { name: 'admin' }))).toBeVisible();
      await dialog.getByLabel(t('fields.systemUser.username')).fill(user.username);
      await dialog.getByLabel(t('fields.systemUser.password')).fill('abc');
      await dialog.locator('#systemUser-form_name').click();
      await expect(dialog.locator('.ant-form-item-explain-error').first()).toBeVisible();
      await dialog.getByLabel(t('fields.systemUser.password')).fill(user.password);
      await choose(page, dialog.getByLabel(t('fields.systemUser.roleId')), roleName);
      await choose(page, dialog.getByLabel(t('fields.common.providerId')), providerName);
      await dialog.locator('#systemUser-form_name').fill('Viewer');
      await dialog.getByLabel(t('fields.systemUser.phone')).fill(`+86 138${String(Date.now()).slice(-8)}`);
      await dialog.getByLabel(t('fields.systemUser.email')).fill('viewer@example.com');
      await expectNoOwnRawKeys(page);
      await button(dialog, t('common.confirm')).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      const userRow = page.locator('.ant-table-row').filter({ hasText: user.username });
      await expect(userRow).toContainText(roleName);
      await expect(userRow).toContainText(providerName);
      await expect(userRow).toContainText(t('enums.userStatus.1'));

      // Reset the password through the prompt: too short is refused with the contract's message, then it goes through.
      await rowAction(page, userRow, t('systemUser.resetPwd'), t('common.more'));
      const prompt = formDialog(page);
      await prompt.getByLabel(t('fields.systemUser.password')).fill('1234');
      await button(prompt, t('common.confirm')).click();
      await expect(prompt.locator('.ant-form-item-explain-error')).toBeVisible();
      await prompt.getByLabel(t('fields.systemUser.password')).fill(user.password);
      await button(prompt, t('common.confirm')).click();
      await expect(toast(page, t('systemUser.resetPwdDone'))).toBeVisible();
      await expectNoOwnRawKeys(page);
      expect(errors).toEqual([]);

      // Rows of the super provider the new user must never see.
      const foreign = await api<{ id: number }>(page, 'POST', '/web/station/add', {
        stationName: `Foreign ${tag}`,
        providerId: 1,
        country: 'CN',
        address: 'Road 1',
        longitude: 121.5,
        latitude: 31.2,
      });
      expect(foreign.code).toBe(200);
      const foreignOrg = await api<{ id: number }>(page, 'POST', '/web/organizationManage/createOrg', { orgName: `Foreign org ${tag}` });
      expect(foreignOrg.code).toBe(200);

      // 4. The new user signs in, in a browser of its own.
      const context = await browser.newContext({ baseURL: BASE_URL });
      const other = await context.newPage();
      await signIn(other, locale, user);
      const menu = other.locator('.ant-layout-sider .ant-menu');
      await expect(menu).toContainText(t('menu.dashboard'));
      // The granted menu and nothing else: Configuration → Stations.
      await expect(menu).toContainText(t('menu.configurationManagement'));
      await expect(menu).not.toContainText(t('menu.realTimeMonitor'));
      await expect(menu).not.toContainText(t('menu.userManagement'));
      // Spec §6: the System menu requires role admin, so even a role listing its Organisations path does not show it.
      await expect(menu).not.toContainText(t('menu.systemManagement'));
      await expect(menu).not.toContainText(t('menu.userManage'));
      await menu.getByText(t('menu.configurationManagement')).click();
      await menu.getByText(t('menu.stationManagement')).click();
      await expect(other).toHaveURL(new RegExp(STATIONS_PAGE));
      await expect(other.locator('.ant-table-thead').first()).toBeVisible();
      await expect(other.locator('.ant-table-tbody')).not.toContainText(`Foreign ${tag}`);
      // List only: no Add, and the server refuses a crafted add.
      await expect(button(other, t('common.add'))).toHaveCount(0);
      // Crafted requests naming the super provider's rows through calls the role holds: nothing of them comes back.
      const byProvider = await api<{ list: unknown[]; total: number }>(other, 'GET', '/web/station/list?page=1&limit=10&providerId=1');
      expect(byProvider).toMatchObject({ code: 200, data: { list: [], total: 0 } });
      expect(await api(other, 'POST', '/web/getStations', { providerId: 1 })).toMatchObject({ code: 200, data: [] });
      expect((await api(other, 'POST', '/web/getPoints', { stationId: foreign.data.id })).data).toEqual([]);
      const orgs = await api<{ list: { orgName: string }[] }>(other, 'GET', '/web/organizationManage/queryOrganizations?page=1&limit=300');
      expect(orgs.data.list.map((o) => o.orgName)).not.toContain(`Foreign org ${tag}`);
      expect((await api(other, 'POST', '/web/organizationManage/deleteOrganization', { ids: [foreignOrg.data.id] })).code).toBe(403);
      expect((await api(other, 'POST', '/web/station/add', { name: `Crafted ${tag}` })).code).toBe(403);
      await other.goto('/realTimeMonitor/chargePoint');
      await expect(other).toHaveURL(/\/404/);
      // The server grants what the role holds and refuses the rest, crafted requests included.
      const listed = await api(other, 'GET', '/web/organizationManage/queryOrganizations?page=1&limit=10');
      expect(listed.code).toBe(200);
      const created = await api(other, 'POST', '/web/organizationManage/createOrg', { orgName: `Crafted ${tag}` });
      expect(created.code).toBe(403);
      const users = await api(other, 'GET', '/web/userManage/getAllUsers?page=1&limit=10');
      expect(users.code).toBe(403);
      await context.close();

      // 5. Back as the admin: disable the user after the 系统提示 confirm.
      await rowAction(page, userRow, t('systemUser.disable'), t('common.more'));
      const confirm = page.locator('.ant-modal-confirm');
      await expect(confirm).toContainText(t('common.systemPrompt'));
      await expect(confirm).toContainText(t('systemUser.disableConfirm', { name: user.username }));
      await button(confirm, t('common.confirm')).click();
      await expect(userRow).toContainText(t('enums.userStatus.0'));
    });

    test('personal center: open from the avatar menu, edit the name, reach the change-password dialog', async ({ page }) => {
      await signIn(page, locale);
      await avatarMenu(page, t('profile.title'));
      await expect(page).toHaveURL(/\/user\/profile/);
      await expect(page.getByText(t('profile.info'))).toBeVisible();
      const original = (await api<{ name: string | null }>(page, 'GET', '/web/userManage/getProfile')).data.name ?? '';
      const name = `Admin ${locale}`;
      await page.getByLabel(t('fields.profile.name')).fill(name);
      await button(page, t('common.save')).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(page.getByTestId('avatar-menu')).toContainText(name);
      await expectNoOwnRawKeys(page);
      await button(page, t('auth.changePassword')).click();
      await expect(page.locator('.ant-modal').filter({ hasText: t('fields.auth.oldPwd') })).toBeVisible();
      // Leave the admin as the other specs expect it.
      expect((await api(page, 'POST', '/web/userManage/updateProfile', { name: original })).code).toBe(200);
    });
  });
}
