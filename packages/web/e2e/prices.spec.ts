import { expect, test, type Page } from '@playwright/test';
import { flowLocales, api, expectNoRawKeys, loose, openFromSidebar, signIn, toast, tr, watchConsole, type Locale } from './fixtures';

const LIST = '/financialManagement/electricityPriceSetting';
const SHOTS = process.env.CSMS_SHOTS_DIR ?? '/tmp/shots-G';

/** A button's accessible name also holds its icon's label ('edit Set price'): match the text anywhere. */
const withIcon = (text: string) => new RegExp(`^(?:[\\w-]+\\s+)?${loose(text).source.slice(1)}`);

const fees: Record<string, string> = {
  sharpElec: '1.5000',
  sharpService: '0.5000',
  peakElec: '1.2345',
  peakService: '0.4000',
  flatElec: '0.8',
  flatService: '0.3',
  valleyElec: '0.3333',
  valleyService: '0.1',
};

async function fillFees(page: Page, values: Record<string, string>) {
  for (const [key, v] of Object.entries(values)) await page.getByTestId(`fee-${key}`).fill(v);
}

/** Press on one half hour and release on another: paints the range with the brush. */
async function drag(page: Page, from: number, to: number) {
  await page.locator(`[data-slot="${to}"]`).scrollIntoViewIfNeeded();
  const a = await page.locator(`[data-slot="${from}"]`).boundingBox();
  const b = await page.locator(`[data-slot="${to}"]`).boundingBox();
  if (!a || !b) throw new Error('timeline cells not laid out');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** A catalogue text with its `{placeholders}` as wildcards. */
const pattern = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}/g, '.+')}$`);

test.use({ timezoneId: 'UTC' });

for (const locale of flowLocales('en-US')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);
  const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

  test.describe(`electricity prices (${locale})`, () => {
    test('paint a peak block into a station price, see it listed, add a later version and a group price', async ({ page }) => {
      const errors = watchConsole(page);
      const stamp = `${locale}-${Date.now().toString(36)}`;
      const stationName = `E2E Price ${stamp}`;
      const groupName = `E2E Fleet ${stamp}`;
      await signIn(page, locale);
      const st = await api<{ id: number }>(page, 'POST', '/web/station/add', {
        stationName,
        providerId: 1,
        country: 'CN',
        address: 'Pier 1',
        longitude: 121.47,
        latitude: 31.23,
        timeZone: 'Asia/Shanghai',
      });
      expect(st.code, st.msg).toBe(200);
      const group = await api(page, 'POST', '/web/userGroup/add', { name: groupName, providerId: 1 });
      expect(group.code, group.msg).toBe(200);

      // The list, reached from the menu: the new station has no price yet.
      await openFromSidebar(page, t('menu.financialManagement'), t('menu.electricityPriceSetting'), LIST);
      await page.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.price.stationName') })).fill(stationName);
      await page.getByRole('button', { name: withIcon(t('common.search')) }).click();
      await expect(row(page, stationName)).toContainText(t('price.notSet'));
      await expectNoRawKeys(page);

      // Its edit page: eight fees, the peak brush dragged over 08:00–12:00, saved.
      await row(page, stationName)
        .getByRole('button', { name: withIcon(t('price.setPrice')) })
        .click();
      await expect(page).toHaveURL(new RegExp(`/financialManagement/electricityPriceEdit\\?stationId=${st.data.id}$`));
      await expect(page.getByText(t('price.page.creating')).first()).toBeVisible();
      await expect(page.getByText('Asia/Shanghai').first()).toBeVisible();
      await fillFees(page, fees);
      await page.getByTestId('fee-valleyElec').fill('0.33333');
      await page.getByTestId('price-save').click();
      const invalid = page.getByText(t('validation.unitPrice', { field: t('fields.price.valleyElec') }));
      await expect(invalid).toBeVisible();
      await page.getByTestId('fee-valleyElec').fill(fees.valleyElec!);
      // The message folds away with an animation that moves the timeline: drag only once it is gone.
      await expect(invalid).toHaveCount(0);
      await page.getByTestId('brush-peak').click();
      await drag(page, 16, 23);
      const peakBlock = `08:00–12:00 ${t('enums.priceTier.peak')}`;
      await expect(page.getByTestId('timeline-runs')).toContainText(peakBlock);
      await expect(page.locator('[data-tier="peak"]')).toHaveCount(8);
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/price-edit-${locale}.png`, fullPage: true });
      await page.getByTestId('price-save').click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(page.getByText(pattern(t('price.page.editing')))).toBeVisible();
      await expect(page.getByRole('row').filter({ has: page.getByText(t('price.page.current'), { exact: true }) })).toHaveCount(1);

      // A later version, picked on the station's clock: listed as upcoming beside the one in force.
      await page.getByTestId('new-version').click();
      await page.getByText(t('price.page.fromTime'), { exact: true }).click();
      const picker = page.getByTestId('effective-at');
      await picker.click();
      await picker.fill('2030-01-01 08:00');
      await picker.press('Enter');
      await page.getByTestId('fee-flatElec').fill('0.9');
      await expect(page.locator('.ant-message-notice')).toHaveCount(0);
      await page.getByTestId('price-save').click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(page.getByText(t('price.page.upcoming'), { exact: true })).toBeVisible();
      await expect(page.getByText('2030-01-01 08:00').first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/price-history-${locale}.png`, fullPage: true });

      // Back on the list: the fees in force, the day bar with its peak block, two versions.
      await page.getByRole('button', { name: withIcon(t('price.page.back')) }).click();
      await expect(page).toHaveURL(new RegExp(`${LIST}`));
      await page.getByPlaceholder(t('kit.inputPlaceholder', { field: t('fields.price.stationName') })).fill(stationName);
      await page.getByRole('button', { name: withIcon(t('common.search')) }).click();
      const listed = row(page, stationName);
      for (const fee of ['1.5000', '1.2345', '0.8000', '0.3333']) await expect(listed).toContainText(`${t('price.elecShort')} ${fee}`);
      for (const fee of ['0.5000', '0.4000', '0.3000', '0.1000']) await expect(listed).toContainText(`${t('price.serviceShort')} ${fee}`);
      await expect(listed.getByTestId('tier-bar')).toHaveAttribute('aria-label', new RegExp(peakBlock));
      await expect(listed).toContainText('2030-01-01 00:00:00'); // upcoming, in the browser's zone (UTC)
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/price-list-${locale}.png`, fullPage: true });

      // A group price at the same station, from the row's action: pick the group, fill, save; listed in the second tab.
      await listed.getByRole('button', { name: withIcon(t('price.groupPrice')) }).click();
      await expect(page).toHaveURL(/groupElectricityPriceEdit\?stationId=/);
      await page.getByTestId('group-select').click();
      await page.locator('.ant-select-item-option', { hasText: groupName }).click();
      await expect(page).toHaveURL(/groupId=\d+/);
      await fillFees(page, { ...fees, flatElec: '0.5' });
      // The toast of the earlier save may still be up: this save's own must be the one seen.
      await expect(page.locator('.ant-message-notice')).toHaveCount(0);
      await page.getByTestId('price-save').click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/group-price-edit-${locale}.png`, fullPage: true });
      await page.goto(`${LIST}?tab=group`);
      await expect(row(page, groupName)).toContainText(`${t('price.elecShort')} 0.5000`);
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/group-price-list-${locale}.png`, fullPage: true });
      expect(errors, 'console errors').toEqual([]);
    });
  });
}
