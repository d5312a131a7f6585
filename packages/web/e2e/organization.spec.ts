import { expect, test, type Page } from '@playwright/test';
import { flowLocales, ORG_PAGE, api, confirmDialog, expectNoRawKeys, loose, signIn, toast, tr, type Locale } from './fixtures';

/** A button's accessible name also holds its icon's label ('plus Add'): match the text anywhere. */
const withIcon = (text: string) => new RegExp(`^(?:[\\w-]+\\s+)?${loose(text).source.slice(1)}`);

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

for (const locale of flowLocales('en-US')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);
  const entity = t('organization.entity');
  const nameLabel = t('fields.organization.orgName');
  const descLabel = t('fields.organization.description');

  const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });
  const rowButton = (page: Page, name: string, key: string) => row(page, name).getByRole('button', { name: withIcon(t(key)) });

  test.describe(`organisations (${locale})`, () => {
    test('add, search, edit, detail, delete and export', async ({ page }) => {
      const stamp = Date.now().toString(36);
      const name = `E2E Org ${locale} ${stamp}`;
      const other = `E2E Other ${locale} ${stamp}`;
      await signIn(page, locale);
      expect((await api(page, 'POST', '/web/organizationManage/createOrg', { orgName: other })).code).toBe(200);
      await page.goto(ORG_PAGE);
      await expect(page.getByRole('columnheader', { name: nameLabel })).toBeVisible();
      await expectNoRawKeys(page);

      // Add: an empty name is refused on its field, in the page's language.
      await page.getByRole('button', { name: withIcon(t('common.add')) }).click();
      const addDialog = page.getByRole('dialog', { name: capitalise(t('kit.addTitle', { name: entity })) });
      await expect(addDialog).toBeVisible();
      await expect(addDialog.getByLabel(nameLabel)).toBeEditable();
      await expectNoRawKeys(page);
      // A click while the dialog is still zooming in can be lost: retry until the field says why.
      await expect(async () => {
        await addDialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
        await expect(addDialog.getByText(t('validation.required', { field: nameLabel }))).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 60_000 });
      await addDialog.getByLabel(nameLabel).fill(name);
      await addDialog.getByLabel(descLabel).fill('first description');
      await addDialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(addDialog).toBeHidden();
      await expect(row(page, name)).toBeVisible();

      // Add again with the same name: the server's conflict, in the page's language.
      await page.getByRole('button', { name: withIcon(t('common.add')) }).click();
      await expect(addDialog).toBeVisible();
      await addDialog.getByLabel(nameLabel).fill(name);
      await addDialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
      await expect(page.getByText(t('errors.organization.nameTaken', { name })).first()).toBeVisible();
      await expect(addDialog).toBeVisible();
      await addDialog.getByRole('button', { name: loose(t('common.cancel')) }).click();
      await expect(addDialog).toBeHidden();

      // Search: the filter goes into the URL and survives a reload.
      const searchBox = page.getByPlaceholder(t('kit.inputPlaceholder', { field: nameLabel }));
      await searchBox.fill(name);
      await page.getByRole('button', { name: withIcon(t('common.search')) }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]orgName=${encodeURIComponent(name).replace(/%20/g, '(\\+|%20)')}`));
      await expect(row(page, other)).toHaveCount(0);
      await expect(row(page, name)).toBeVisible();
      await page.reload();
      await expect(searchBox).toHaveValue(name);
      await expect(row(page, name)).toBeVisible();
      await expect(row(page, other)).toHaveCount(0);
      await expect(page.getByText(t('kit.total', { total: 1 }))).toBeVisible();

      // Edit.
      await rowButton(page, name, 'common.edit').click();
      const editDialog = page.getByRole('dialog', { name: capitalise(t('kit.editTitle', { name: entity })) });
      await expect(editDialog).toBeVisible();
      await expect(editDialog.getByLabel(nameLabel)).toHaveValue(name);
      await expect(editDialog.getByLabel(descLabel)).toHaveValue('first description');
      await editDialog.getByLabel(descLabel).fill('second description');
      await editDialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
      await expect(editDialog).toBeHidden();
      await expect(row(page, name)).toContainText('second description');

      // Detail.
      await rowButton(page, name, 'common.detail').click();
      const drawer = page.locator('.ant-drawer').filter({ hasText: capitalise(t('kit.detailTitle', { name: entity })) });
      await expect(drawer).toBeVisible();
      await expect(drawer.getByText(name, { exact: true })).toBeVisible();
      await expect(drawer.getByText('second description', { exact: true })).toBeVisible();
      await expectNoRawKeys(page);
      await drawer
        .getByRole('button', { name: /close|Close|关闭/ })
        .first()
        .click();
      await expect(drawer).toBeHidden();

      // Export CSV of the filtered list.
      await page.getByRole('button', { name: withIcon(t('common.export')) }).hover();
      const download = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: t('kit.exportCsv') }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.csv$/);
      const csv = await (await file.createReadStream()).toArray();
      expect(Buffer.concat(csv).toString('utf8')).toContain(name);

      // Delete, after the 系统提示 confirm naming the id.
      const found = await api<{ list: { id: number; orgName: string }[] }>(
        page,
        'GET',
        `/web/organizationManage/queryOrganizations?orgName=${encodeURIComponent(name)}`,
      );
      const id = found.data.list.find((o) => o.orgName === name)!.id;
      await rowButton(page, name, 'common.delete').click();
      const dialog = confirmDialog(page);
      await expect(dialog.locator('.ant-modal-confirm-title')).toHaveText(t('common.systemPrompt'));
      await expect(dialog.getByText(t('kit.deleteConfirm', { ids: String(id) }))).toBeVisible();
      await dialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
      await expect(toast(page, t('kit.deleteSuccess'))).toBeVisible();
      await expect(row(page, name)).toHaveCount(0);
      await expectNoRawKeys(page);
    });
  });
}
