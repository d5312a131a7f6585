import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  flowLocales,
  ORG_PAGE,
  avatarMenu,
  chooseFromDropdown,
  cookieValue,
  expectNoRawKeys,
  loose,
  openFromSidebar,
  signIn,
  toast,
  tr,
  type Locale,
} from './fixtures';

/** The dropdown menu that is open now (antd keeps closed ones in the DOM, hidden). */
function openMenu(page: Page): Locator {
  return page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').filter({ visible: true });
}

async function menuClosed(page: Page) {
  await expect(openMenu(page)).toHaveCount(0);
}

/** One tab of the tab strip (the whole tab: label and close button). */
function tabOf(page: Page, title: string): Locator {
  return page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: title, exact: true }) });
}

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);
  const titleOf = (key: string) => `${t(key)} - ${t('shell.appTitle')}`;
  const dashboard = t('menu.dashboard');
  const orgs = t('menu.organizationManage');

  async function openOrgsFromMenu(page: Page) {
    await openFromSidebar(page, t('menu.systemManagement'), orgs, ORG_PAGE);
  }

  /** Right-click a tab and choose an action; returns nothing until the menu has closed. */
  async function tabAction(page: Page, title: string, action: string) {
    const label = t(`shell.tags.${action}`);
    await chooseFromDropdown(page, page.getByTestId('tag').filter({ hasText: title }), loose(label), {
      button: 'right',
    });
  }

  test.describe(`shell (${locale})`, () => {
    test('sidebar menu, breadcrumb and page title', async ({ page }) => {
      await signIn(page, locale);
      await expect(page).toHaveTitle(titleOf('menu.dashboard'));
      await openOrgsFromMenu(page);
      await expect(page).toHaveTitle(titleOf('menu.organizationManage'));
      const crumbs = page.locator('.ant-breadcrumb');
      await expect(crumbs.locator('li')).toHaveText([dashboard, '/', t('menu.systemManagement'), '/', orgs]);
      await expect(page.getByRole('menuitem', { name: orgs })).toHaveClass(/ant-menu-item-selected/);
      await expectNoRawKeys(page);
      await crumbs.getByRole('link', { name: dashboard }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page).toHaveTitle(titleOf('menu.dashboard'));
      await expect(crumbs.locator('li')).toHaveText([dashboard]);
    });

    test('header search finds Organisations by its title', async ({ page }) => {
      await signIn(page, locale);
      await page.getByRole('button', { name: t('shell.search') }).click();
      const box = page.getByRole('combobox');
      await expect(box).toBeFocused();
      await box.pressSequentially(orgs.slice(0, Math.max(2, orgs.length - 3)));
      // Options show the title path, e.g. 'System > Organisations'.
      const option = page.locator('.ant-select-item-option').filter({ hasText: orgs });
      await expect(option).toHaveText(`${t('menu.systemManagement')} > ${orgs}`);
      await option.click();
      await expect(page).toHaveURL(ORG_PAGE);
      await expect(page).toHaveTitle(titleOf('menu.organizationManage'));
    });

    test('tabs: affix dashboard, refresh, close, close others/left/right/all, right-click menu, new tab', async ({ page, context }) => {
      // Some thirty steps: on a loaded machine they outgrow the default minute.
      test.slow();
      await signIn(page, locale);
      // The dashboard tab is fixed: no close button, and "close" is disabled for it.
      await expect(tabOf(page, dashboard)).toHaveCount(1);
      await expect(tabOf(page, dashboard).locator('.ant-tabs-tab-remove')).toHaveCount(0);

      await openOrgsFromMenu(page);
      await expect(page.getByRole('tab', { name: orgs, exact: true })).toHaveAttribute('aria-selected', 'true');
      await expect(tabOf(page, orgs).locator('.ant-tabs-tab-remove')).toHaveCount(1);

      // Right-click offers every action in the catalogue's words; what cannot apply is disabled.
      await page.getByTestId('tag').filter({ hasText: dashboard }).click({ button: 'right' });
      const menu = openMenu(page);
      for (const a of ['refresh', 'close', 'closeOthers', 'closeLeft', 'closeRight', 'closeAll', 'newTab'])
        await expect(menu.getByRole('menuitem', { name: t(`shell.tags.${a}`), exact: true })).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: t('shell.tags.close'), exact: true })).toHaveAttribute('aria-disabled', 'true');
      await expect(menu.getByRole('menuitem', { name: t('shell.tags.closeLeft') })).toHaveAttribute('aria-disabled', 'true');
      await expect(menu.getByRole('menuitem', { name: t('shell.tags.closeRight') })).not.toHaveAttribute('aria-disabled', 'true');
      await expectNoRawKeys(page);
      await page.keyboard.press('Escape');
      await menuClosed(page);

      // Refresh reloads the page's data in place.
      const refetched = page.waitForResponse(/\/queryOrganizations/);
      await chooseFromDropdown(page, page.getByRole('button', { name: t('common.actions'), exact: true }), loose(t('shell.tags.refresh')));
      await refetched;
      await expect(page).toHaveURL(ORG_PAGE);

      // Close right of the dashboard closes the active Organisations tab: back to the dashboard.
      await tabAction(page, dashboard, 'closeRight');
      await expect(tabOf(page, orgs)).toHaveCount(0);
      await expect(page).toHaveURL(/\/dashboard$/);

      // Close others (from the dashboard) closes Organisations as well.
      await openOrgsFromMenu(page);
      await tabAction(page, dashboard, 'closeOthers');
      await expect(tabOf(page, orgs)).toHaveCount(0);
      await expect(page).toHaveURL(/\/dashboard$/);

      // Close all keeps only the fixed tab and goes to the last one left.
      await openOrgsFromMenu(page);
      await tabAction(page, orgs, 'closeAll');
      await expect(page.getByTestId('tag')).toHaveText([dashboard]);
      await expect(page).toHaveURL(/\/dashboard$/);

      // Closing the active tab with its close button goes to the last remaining tab.
      await openOrgsFromMenu(page);
      await tabOf(page, orgs).locator('.ant-tabs-tab-remove').click();
      await expect(tabOf(page, orgs)).toHaveCount(0);
      await expect(page).toHaveURL(/\/dashboard$/);

      // Close left of Organisations has nothing to close: only the fixed dashboard is there.
      await page.goto(`${ORG_PAGE}?orgName=keep`);
      await page.getByTestId('tag').filter({ hasText: orgs }).click({ button: 'right' });
      await expect(openMenu(page).getByRole('menuitem', { name: t('shell.tags.closeLeft') })).toHaveAttribute('aria-disabled', 'true');
      await expect(openMenu(page).getByRole('menuitem', { name: t('shell.tags.closeOthers') })).toHaveAttribute('aria-disabled', 'true');
      await page.keyboard.press('Escape');
      await menuClosed(page);

      // A tab remembers its query; closing an inactive tab stays where one is.
      await page.getByRole('tab', { name: dashboard, exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.getByRole('tab', { name: orgs, exact: true }).click();
      await expect(page).toHaveURL(`${ORG_PAGE}?orgName=keep`);
      await page.getByRole('tab', { name: dashboard, exact: true }).click();
      await tabAction(page, orgs, 'close');
      await expect(tabOf(page, orgs)).toHaveCount(0);
      await expect(page).toHaveURL(/\/dashboard$/);

      // Open in a new tab.
      await openOrgsFromMenu(page);
      const popup = context.waitForEvent('page');
      await tabAction(page, orgs, 'newTab');
      const other = await popup;
      await expect(other).toHaveURL(new RegExp(`${ORG_PAGE}$`));
      await other.close();
    });

    test("top navigation: entries past the spec's count go under 'more', the bar stays one line, a chosen entry fills the sidebar", async ({
      page,
    }) => {
      // 1100 px: the spec's count is floor(1100 / 2.5 / 85) = 5 of the seven menus; English names fit fewer beside the sidebar.
      await page.setViewportSize({ width: 1100, height: 800 });
      await page.addInitScript(() => localStorage.setItem('layout-setting', JSON.stringify({ topNav: true })));
      await signIn(page, locale);
      const bar = page.getByTestId('top-menu');
      const entries = bar.locator('.ant-menu-root > li').filter({ visible: true });
      const more = bar.getByRole('menuitem', { name: t('shell.more') });
      await expect(more).toBeVisible();
      const tops = async () => (await entries.evaluateAll((els) => els.map((el) => (el as HTMLElement).offsetTop))) as number[];
      await expect.poll(async () => new Set(await tops()).size).toBe(1);
      const shown = await entries.count();
      expect(shown).toBeGreaterThan(1);
      expect(shown).toBeLessThanOrEqual(6);
      // The top menu replaces the breadcrumb; the dashboard has no children, so no sidebar.
      await expect(page.locator('.ant-breadcrumb')).toHaveCount(0);
      await expect(page.locator('.ant-layout-sider')).toHaveCount(0);

      // A hover popup can fold away before a click on a loaded machine lands: hover and click again.
      const system = page
        .locator('.ant-menu-submenu-popup:not(.ant-menu-submenu-hidden)')
        .getByRole('menuitem', { name: t('menu.systemManagement') });
      await expect(async () => {
        await more.hover({ timeout: 3_000 });
        await system.click({ timeout: 3_000 });
        await expect(page).toHaveURL(/\/systemManagement\//, { timeout: 3_000 });
      }).toPass({ timeout: 60_000 });
      const sidebar = page.locator('.ant-layout-sider .ant-menu-root');
      await expect(sidebar.getByRole('menuitem', { name: orgs, exact: true })).toBeVisible();
      await expect(sidebar.getByRole('menuitem', { name: t('menu.realTimeMonitor') })).toHaveCount(0);
      await sidebar.getByRole('menuitem', { name: orgs, exact: true }).click();
      await expect(page).toHaveURL(ORG_PAGE);
      await expect.poll(async () => new Set(await tops()).size).toBe(1);
      await expectNoRawKeys(page);
    });

    test('below 992 px the sidebar is a drawer that closes on navigation, without the full-screen toggle', async ({ page }) => {
      await signIn(page, locale);
      await expect(page.getByRole('button', { name: t('shell.fullscreen') })).toBeVisible();
      await page.setViewportSize({ width: 800, height: 900 });
      await expect(page.getByRole('button', { name: t('shell.fullscreen') })).toHaveCount(0);
      await expect(page.locator('.ant-layout-sider')).toHaveCount(0);
      await page.getByRole('button', { name: t('shell.hamburger') }).click();
      const drawer = page.locator('.ant-drawer-open .ant-menu-root');
      const entry = drawer.getByRole('menuitem', { name: orgs, exact: true });
      await expect(async () => {
        if (!(await entry.isVisible())) await drawer.getByRole('menuitem', { name: t('menu.systemManagement') }).click();
        await entry.click({ timeout: 2_000 });
        await expect(page).toHaveURL(ORG_PAGE, { timeout: 2_000 });
      }).toPass({ timeout: 60_000 });
      await expect(page.locator('.ant-drawer-open')).toHaveCount(0);
      await page.setViewportSize({ width: 1440, height: 900 });
      await expect(page.locator('.ant-layout-sider')).toBeVisible();
    });

    test('sidebar collapse persists in the sidebarStatus cookie', async ({ page }) => {
      await signIn(page, locale);
      const sider = page.locator('.ant-layout-sider');
      await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
      await page.getByRole('button', { name: t('shell.hamburger') }).click();
      await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
      expect(await cookieValue(page, 'sidebarStatus')).toBe('0');
      await page.reload();
      await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
      await page.getByRole('button', { name: t('shell.hamburger') }).click();
      await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
      expect(await cookieValue(page, 'sidebarStatus')).toBe('1');
      await page.reload();
      await expect(page.getByTestId('provider-name')).toBeVisible();
      await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
    });

    test('settings drawer: save turns the tab strip off after the reload, reset brings it back', async ({ page }) => {
      await signIn(page, locale);
      await expect(page.getByRole('tablist')).toBeVisible();
      await page.getByRole('button', { name: t('shell.settings') }).click();
      const drawer = page.locator('.ant-drawer').filter({ hasText: t('shell.setting.title') });
      await expect(drawer).toBeVisible();
      await expectNoRawKeys(page);
      await drawer.getByRole('switch', { name: t('shell.setting.tagsView') }).click();
      let reloaded = page.waitForEvent('load');
      await drawer.getByRole('button', { name: t('shell.setting.save') }).click();
      await reloaded;
      await expect(page.getByTestId('avatar-menu')).toBeVisible();
      await expect(page.getByRole('tablist')).toHaveCount(0);
      expect(JSON.parse((await page.evaluate(() => localStorage.getItem('layout-setting')))!).tagsView).toBe(false);

      await page.getByRole('button', { name: t('shell.settings') }).click();
      await expect(drawer.getByRole('switch', { name: t('shell.setting.tagsView') })).not.toBeChecked();
      reloaded = page.waitForEvent('load');
      await drawer.getByRole('button', { name: t('shell.setting.reset') }).click();
      await expect(toast(page, t('shell.setting.resetting'))).toBeVisible();
      await reloaded;
      await expect(page.getByRole('tablist')).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('layout-setting'))).toBeNull();
    });

    test('language switch from the navbar reloads and confirms in the new language', async ({ page }) => {
      const next: Locale = locale === 'zh-CN' ? 'en-US' : 'zh-CN';
      await signIn(page, locale);
      const reloaded = page.waitForEvent('load');
      await chooseFromDropdown(
        page,
        page.getByRole('button', { name: t('shell.language') }),
        loose(t(next === 'zh-CN' ? 'enums.language.zh' : 'enums.language.en')),
      );
      await reloaded;
      await expect(toast(page, tr(next, 'shell.languageSwitched'))).toBeVisible();
      expect(await cookieValue(page, 'language')).toBe(next);
      await expect(page).toHaveTitle(`${tr(next, 'menu.dashboard')} - ${tr(next, 'shell.appTitle')}`);
      await expect(page.getByRole('menuitem', { name: tr(next, 'menu.dashboard') })).toBeVisible();
      await expectNoRawKeys(page);
      // Once only: a later reload does not confirm again.
      await page.reload();
      await expect(page.getByTestId('avatar-menu')).toBeVisible();
      await expect(toast(page, tr(next, 'shell.languageSwitched'))).toHaveCount(0);
    });

    test('size selector sets the size cookie and the component size', async ({ page }) => {
      await signIn(page, locale);
      const hamburger = page.getByRole('button', { name: t('shell.hamburger') });
      await expect(hamburger).not.toHaveClass(/ant-btn-sm/);
      const sizes = page.getByRole('button', { name: t('shell.size') });
      await sizes.click();
      const menu = openMenu(page);
      for (const s of ['default', 'medium', 'small', 'mini'])
        await expect(menu.getByRole('menuitem', { name: t(`shell.sizes.${s}`) })).toBeVisible();
      await chooseFromDropdown(page, sizes, loose(t('shell.sizes.small')));
      await expect(toast(page, t('shell.sizeSwitched'))).toBeVisible();
      expect(await cookieValue(page, 'size')).toBe('small');
      await expect(hamburger).toHaveClass(/ant-btn-sm/);
      await page.reload();
      await expect(hamburger).toHaveClass(/ant-btn-sm/);
    });

    test('app download dialog shows a QR code', async ({ page }) => {
      await signIn(page, locale);
      await avatarMenu(page, t('auth.appDownload'));
      const dialog = page.getByRole('dialog', { name: t('auth.appDownload') });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('.ant-qrcode canvas')).toBeVisible();
      await expect(dialog.getByText(t('auth.appDownloadHint'))).toBeVisible();
      await expectNoRawKeys(page);
    });
  });
}
