import { expect, test } from '@playwright/test';
import { LOCALES, expectNoRawKeys, signIn, tr, watchConsole, type Locale } from './fixtures';

/**
 * Every screen the admin's sidebar offers renders in both languages: reached through the menu,
 * titled '{title} - {product}', with no raw catalogue key and no console error on the way.
 */
for (const locale of LOCALES) {
  test(`every menu screen renders (${locale})`, async ({ page }) => {
    const errors = watchConsole(page);
    await signIn(page, locale);
    const sidebar = page.locator('.ant-layout-sider .ant-menu-root');
    await expect(sidebar.getByRole('menuitem', { name: tr(locale, 'menu.dashboard') })).toBeVisible();

    // Open every group so that every leaf shows (inline menu).
    const groups = sidebar.locator('.ant-menu-submenu');
    for (let i = 0; i < (await groups.count()); i++) {
      const group = groups.nth(i);
      if (!(await group.getAttribute('class'))?.includes('ant-menu-submenu-open')) await group.locator('.ant-menu-submenu-title').click();
      await expect(group).toHaveClass(/ant-menu-submenu-open/);
      await expect(group.locator('li.ant-menu-item').first()).toBeVisible();
    }
    const leaves = sidebar.locator('li.ant-menu-item');
    const titles = (await leaves.allInnerTexts()).map((s) => s.trim());
    expect(titles).toContain(tr(locale, 'menu.dashboard'));
    expect(titles).toContain(tr(locale, 'menu.organizationManage'));

    for (const title of titles) {
      await sidebar.getByRole('menuitem', { name: title, exact: false }).filter({ hasText: title }).last().click();
      await expect(page).toHaveTitle(`${title} - ${tr(locale as Locale, 'shell.appTitle')}`);
      await expect(page).not.toHaveURL(/\/404$/);
      await expect(page.locator('.ant-breadcrumb li').last()).toHaveText(title);
      const tab = page.getByRole('tab', { name: title, exact: true }).filter({ has: page.getByTestId('tag') });
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      // The screen has drawn something besides the frame.
      await expect(page.locator('main').locator('.ant-card, .ant-table, .ant-result, .ant-empty').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoRawKeys(page);
    }
    expect(errors, 'console errors').toEqual([]);
  });
}
