import fs from 'node:fs';
import { permissionCatalogue } from '@csms/contract';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, BASE_URL, confirmDialog, expectNoRawKeys, flowLocales, signIn, toast, tr, type Locale } from './fixtures';

const ROLE_PAGE = '/systemManagement/permissionManage';
const LOG_PAGE = '/systemManagement/systemLog';
const MESSAGE_PAGE = '/message/inbox';
const SHOTS = process.env.E2E_SHOTS ?? '/tmp/roles-logs-messages';
fs.mkdirSync(SHOTS, { recursive: true });

type Role = {
  id: number;
  roleName: string;
  roleKey: string;
  providerId: number;
  rolePaths: string[];
  permissions: string[];
  memberCount: number;
};

/** A button's accessible name: its text (antd spaces two CJK characters), after an icon's name if it has one. */
function btn(text: string): RegExp {
  const chars = [...text.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*(?:[\\w-]+\\s+)?${chars.join('\\s*')}\\s*$`);
}

const shot = (page: Page, name: string, locale: Locale) => page.screenshot({ path: `${SHOTS}/${name}-${locale}.png` });

/** The table row showing this text. */
const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

/** The open form dialog (not the confirm). */
const dialog = (page: Page) => page.locator('.ant-modal').filter({ has: page.locator('form') });

async function findRole(page: Page, roleName: string): Promise<Role> {
  const res = await api<{ list: Role[] }>(
    page,
    'GET',
    `/web/permissionManage/queryRolesByOrg?page=1&limit=10&roleName=${encodeURIComponent(roleName)}`,
  );
  const found = res.data.list.find((r) => r.roleName === roleName);
  expect(found, `role ${roleName}`).toBeTruthy();
  return found!;
}

/** A tree node by its menu title, or by the permission it grants. */
function treeNode(tree: Locator, node: { title: string } | { permission: string }) {
  const inner =
    'title' in node ? tree.page().getByText(node.title, { exact: true }) : tree.page().locator(`[data-permission="${node.permission}"]`);
  return tree.locator('.ant-tree-treenode').filter({ has: inner });
}

for (const locale of flowLocales('en-US')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale, key, params);
  const stamp = `${locale === 'zh-CN' ? 'zh' : 'en'}${Date.now().toString(36)}`;
  const roleName = `${t('role.entity')} ${stamp}`;
  const roleKey = `ops_${stamp}`;
  const user = { username: `u_${stamp}`, password: 'secret123' };

  /** Opens a group of the tree unless it is open already (groups holding operations start open), until `child` shows. */
  const expandTo = async (tree: Locator, parent: string, child: string) => {
    const node = tree.getByText(t(child), { exact: true });
    if (!(await node.isVisible())) {
      await treeNode(tree, { title: t(parent) })
        .locator('.ant-tree-switcher')
        .click();
    }
    await expect(node).toBeVisible();
    await expect(tree.locator('.ant-motion-collapse')).toHaveCount(0);
  };

  test.describe.serial(`roles, system log and messages (${locale})`, () => {
    test('create a role with a few menus and permissions through the tree', async ({ page }) => {
      await signIn(page, locale);
      await page.goto(ROLE_PAGE);
      await expect(row(page, 'admin').first()).toBeVisible();
      // The admin role is read-only: no edit or delete, its switch locked.
      const adminRow = page.locator('.ant-table-row').filter({ has: page.getByText('admin', { exact: true }) });
      await expect(adminRow.getByRole('button', { name: btn(t('common.delete')) })).toHaveCount(0);
      await expect(adminRow.getByRole('button', { name: btn(t('common.edit')) })).toHaveCount(0);
      await expect(adminRow.getByRole('switch')).toBeDisabled();
      await shot(page, 'role-list', locale);

      await page.getByRole('button', { name: btn(t('common.add')) }).click();
      const form = dialog(page);
      await expect(form).toBeVisible();
      await form.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.role.roleName') })).fill(roleName);
      await form.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.role.roleKey') })).fill(roleKey);
      const tree = form.getByTestId('permission-tree');
      // Open the two groups one after the other: an opening group slides the nodes below it.
      for (const [parent, child] of [
        ['menu.historyRecord', 'menu.chargeRecord'],
        ['menu.userManagement', 'menu.cardManage'],
      ] as const) {
        await expandTo(tree, parent, child);
        await tree.getByText(t(child), { exact: true }).click();
      }
      await tree.locator('[data-permission="system:log:list"]').click();
      await tree.locator('[data-permission="system:log:query"]').click();
      // A permission checks its menu half-way (the parent is still granted).
      await expect(treeNode(tree, { title: t('menu.systemLog') })).not.toHaveClass(/checkbox-checked/);
      await shot(page, 'role-form', locale);
      await expectNoRawKeys(page);
      await form.getByRole('button', { name: btn(t('common.confirm')) }).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(row(page, roleName)).toBeVisible();

      const role = await findRole(page, roleName);
      // Checking a menu grants the operations under it too.
      const under = (menu: string) => permissionCatalogue.find((g) => g.menu === menu)?.permissions ?? [];
      expect(role.permissions.sort()).toEqual(
        [...under('/historyRecord/chargeRecord'), ...under('/userManagement/cardManage'), 'system:log:list', 'system:log:query'].sort(),
      );
      expect(role.rolePaths.sort()).toEqual(
        [
          '/historyRecord',
          '/historyRecord/chargeRecord',
          '/systemManagement',
          '/systemManagement/systemLog',
          '/userManagement',
          '/userManagement/cardManage',
        ].sort(),
      );

      // Editing loads the role's permissions back into the tree.
      await row(page, roleName)
        .getByRole('button', { name: btn(t('common.edit')) })
        .click();
      const edit = dialog(page);
      const editTree = edit.getByTestId('permission-tree');
      await expect(treeNode(editTree, { permission: 'system:log:query' })).toHaveClass(/checkbox-checked/);
      await expect(treeNode(editTree, { permission: 'system:log:export' })).not.toHaveClass(/checkbox-checked/);
      await expandTo(editTree, 'menu.historyRecord', 'menu.chargeRecord');
      await expect(treeNode(editTree, { title: t('menu.chargeRecord') })).toHaveClass(/checkbox-checked/);
      await edit.getByRole('button', { name: btn(t('common.cancel')) }).click();
    });

    test('refuse deleting a role that has members, with the reason', async ({ page }) => {
      await signIn(page, locale);
      const role = await findRole(page, roleName);
      const added = await api(page, 'POST', '/web/userManage/addUser', {
        username: user.username,
        password: user.password,
        roleId: role.id,
        providerId: role.providerId,
        phone: `+86 138${String(Date.now()).slice(-8)}`,
      });
      expect(added.code, added.msg).toBe(200);
      await page.goto(`${ROLE_PAGE}?roleName=${encodeURIComponent(roleName)}`);
      await row(page, roleName)
        .getByRole('button', { name: btn(t('common.delete')) })
        .click();
      await expect(confirmDialog(page)).toContainText(t('common.systemPrompt'));
      await confirmDialog(page)
        .getByRole('button', { name: btn(t('common.confirm')) })
        .click();
      await expect(toast(page, t('errors.role.hasUsers', { name: roleName, count: 1 }))).toBeVisible();
      await page.keyboard.press('Escape');
      expect((await findRole(page, roleName)).memberCount).toBe(1);
    });

    test('the system log shows the sign-in and the role creation with its request', async ({ page }) => {
      await signIn(page, locale);
      await page.goto(LOG_PAGE);
      // Sign-ins, by operation type (options from getOperateDescription).
      await page.locator('#systemLog-search_operation').click();
      await page
        .locator('.ant-select-item-option')
        .filter({ hasText: t('enums.operation.login') })
        .click();
      await page.getByRole('button', { name: btn(t('common.search')) }).click();
      await expect(page).toHaveURL(/operation=login/);
      await expect(row(page, 'admin').first()).toBeVisible();
      await expect(
        page
          .locator('.ant-table-row .ant-tag')
          .filter({ hasText: t('enums.operation.login') })
          .first(),
      ).toBeVisible();

      // The role creation, by operand; the detail shows the request body.
      await page.getByRole('button', { name: btn(t('common.reset')) }).click();
      await expect(page).not.toHaveURL(/operation=/);
      await expect(
        page.locator('#systemLog-search_operation').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
      ).not.toContainText(t('enums.operation.login'));
      await page.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.systemLog.operand') })).fill(roleKey);
      await page.getByRole('button', { name: btn(t('common.search')) }).click();
      await expect(page).toHaveURL(new RegExp(`operand=${roleKey}`));
      await expect(page.locator('.ant-table-row').filter({ hasNotText: roleKey })).toHaveCount(0);
      const created = row(page, `role:${roleKey}`).filter({ hasText: t('enums.operation.add') });
      await expect(created).toBeVisible();
      await shot(page, 'system-log', locale);
      await created.getByRole('button', { name: btn(t('common.detail')) }).click();
      const request = page.getByTestId('log-request');
      await expect(request).toContainText(`"roleName": "${roleName}"`);
      await expect(request).toContainText('system:log:query');
      await shot(page, 'system-log-detail', locale);
      await expectNoRawKeys(page);
      await page.keyboard.press('Escape');

      // Export columns: drop the IP column, save; the export configuration holds the choice.
      await page.getByRole('button', { name: btn(t('common.export')) }).hover();
      await page.getByRole('menuitem', { name: t('kit.exportColumns') }).click();
      const columns = page.locator('.ant-modal').filter({ hasText: t('kit.exportColumnsHint') });
      await expect(columns.getByTestId('export-column-ip')).toBeVisible();
      await columns.getByTestId('export-column-ip').getByRole('checkbox').uncheck();
      await columns
        .getByTestId('export-column-operator')
        .getByRole('button', { name: t('kit.moveUp') })
        .click();
      await shot(page, 'export-columns', locale);
      await columns.getByTestId('export-columns-save').click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      const config = await api<{ exportItemList: string[] }>(page, 'GET', '/web/config/getExportConfig?exportSource=systemLog');
      expect(config.data.exportItemList).not.toContain('ip');
      expect(config.data.exportItemList.indexOf('operator')).toBeLessThan(config.data.exportItemList.indexOf('operation'));
      // Put the defaults back for the other language's run.
      await api(page, 'POST', '/web/config/exportConfig', {
        exportSource: 'systemLog',
        exportItemList: ['id', 'operation', 'operator', 'operand', 'ip', 'result', 'msg', 'mode', 'createTime'],
      });
    });

    test('send a message; the user sees the badge, opens it, and the badge goes to 0', async ({ page, browser }) => {
      const title = `${t('message.title')} ${stamp}`;
      const content = `Hello ${stamp}, please check the station.`;
      // The recipient is signed in before the message is sent: the count updates live.
      const other = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1440, height: 900 } });
      const inbox = await other.newPage();
      await signIn(inbox, locale, user);
      const bell = inbox.getByTestId('message-bell');
      await expect(bell).toHaveAttribute('aria-label', t('message.bell', { n: 0 }));

      await signIn(page, locale);
      await page.getByTestId('message-bell').click();
      await expect(page).toHaveURL(new RegExp(`${MESSAGE_PAGE}`));
      // The admin view: recipient and read-time columns, an Add button, no delete.
      await expect(page.locator('.ant-table-thead').getByText(t('fields.message.recUserName'))).toBeVisible();
      await page.getByRole('button', { name: btn(t('common.add')) }).click();
      const form = dialog(page);
      await expect(form).toContainText(t('message.sendTitle'));
      // Every missing field is named at once, the recipients included.
      // The content is rich text: type into its editor.
      await form.getByTestId('rich-text-editor').locator('[contenteditable="true"]').fill(content);
      await form.getByRole('button', { name: btn(t('common.confirm')) }).click();
      await expect(form.getByText(t('validation.recipientsRequired'))).toBeVisible();
      await expect(form.getByText(t('validation.required', { field: t('fields.message.title') }))).toBeVisible();
      await form.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.message.title') })).fill(title);
      await form.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.message.username') })).fill(user.username);
      await shot(page, 'message-send', locale);
      await form.getByRole('button', { name: btn(t('common.confirm')) }).click();
      await expect(confirmDialog(page)).toContainText(t('message.sendConfirm'));
      await confirmDialog(page)
        .getByRole('button', { name: btn(t('common.confirm')) })
        .click();
      await expect(toast(page, t('message.sent'))).toBeVisible();
      await expect(form).toBeHidden();
      const sent = row(page, title);
      await expect(sent).toContainText(user.username);
      await expect(sent.getByRole('button', { name: btn(t('common.delete')) })).toHaveCount(0);
      // Search by keyword: another word hides the row, a word of the content finds it again.
      const keyword = page.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.message.keyWord') }));
      await keyword.fill(`nothing-${stamp}`);
      await page.getByRole('button', { name: btn(t('common.search')) }).click();
      await expect(sent).toHaveCount(0);
      await keyword.fill(`Hello ${stamp}`);
      await page.getByRole('button', { name: btn(t('common.search')) }).click();
      await expect(sent).toContainText(user.username);
      await shot(page, 'message-admin', locale);

      await expect(bell).toHaveAttribute('aria-label', t('message.bell', { n: 1 }));
      await expect(bell.locator('.ant-badge-count')).toHaveText('1');
      await bell.click();
      await expect(inbox).toHaveURL(new RegExp(MESSAGE_PAGE));
      const mine = row(inbox, title);
      await expect(mine).toContainText(t('enums.messageRead.0'));
      await expect(inbox.locator('.ant-table-thead').getByText(t('message.from'))).toBeVisible();
      await mine.locator('.ant-table-row-expand-icon').click();
      await expect(inbox.getByTestId('message-content').filter({ hasText: content })).toBeVisible();
      await expect(bell).toHaveAttribute('aria-label', t('message.bell', { n: 0 }));
      await expect(row(inbox, title)).toContainText(t('enums.messageRead.1'));
      await shot(inbox, 'message-inbox', locale);
      await expectNoRawKeys(inbox);

      // Reading was reported to the server: the admin view shows the read time.
      await page.reload();
      await expect(row(page, title).locator('td').nth(4)).not.toBeEmpty();

      await row(inbox, title)
        .getByRole('button', { name: btn(t('common.delete')) })
        .click();
      await confirmDialog(inbox)
        .getByRole('button', { name: btn(t('common.confirm')) })
        .click();
      await expect(toast(inbox, t('message.deleted'))).toBeVisible();
      await expect(row(inbox, title)).toHaveCount(0);
      await other.close();
    });
  });
}
