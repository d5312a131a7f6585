import { expect, test } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import { OCPP_URL, chooseOption, expectNoRawKeys, looseButton, pointWithCard, signIn, toast, tr } from './fixtures';

/**
 * Version management (issue 16 items 1, 2) against a simulated charger: a package whose first line
 * names a new version (9.9.x) is uploaded through the console, an upgrade of one online point is started with
 * it, and the point is followed through its states until it reports that version after its reboot: the
 * simulator really downloads the package from the server's charger URL, reports Downloading …
 * Installed, reboots and boots with the version the file names. The point list then shows that
 * version. The screen's words are the same in both languages (screens.spec.ts renders it in each),
 * so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);
// Unique per run: a version is unique per provider, and a retried test uploads again to the same server.
const VERSION = `9.9.${Date.now() % 100_000}`;

let charger: ChargePoint | undefined;
test.afterEach(async () => {
  await charger?.stop();
  charger = undefined;
});

test('a package uploaded in the console upgrades a simulated charger to its version', async ({ page }) => {
  test.slow();
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, key } = await pointWithCard(page, 'FW', stamp);
  const station = `E2E FW ${stamp}`;
  charger = createChargePoint({ url: OCPP_URL, serialNumber, key, connectors: 1, firmwareVersion: '1.0.0', meterValueSampleInterval: 0 });
  charger.start();
  await charger.ready();

  // Upload the package: its fields travel in the query string, the file as multipart.
  await page.goto('/configurationManagement/versionManage');
  await expect(page.getByRole('tab', { name: t('firmware.tabs.versions') })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('firmware-upload-open').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(t('firmware.uploadTitle'));
  await dialog.locator('#firmwareVersion-form_version').fill(VERSION);
  await dialog.locator('#firmwareVersion-form_applicationType').fill('main');
  await dialog.locator('#firmwareVersion-form_communicationType').fill('Ethernet');
  await dialog.locator('#firmwareVersion-form_note').fill(`e2e ${stamp}`);
  const fileName = `fw-${VERSION}-${stamp}.bin`;
  await dialog.locator('input[type=file]').setInputFiles({
    name: fileName,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(`version: ${VERSION}\n${'firmware image '.repeat(20_000)}`),
  });
  await expect(dialog).toContainText(fileName);
  await expectNoRawKeys(page);
  await dialog.getByTestId('firmware-upload-ok').click();
  await expect(toast(page, t('firmware.uploaded'))).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const pkgRow = page.getByRole('row').filter({ hasText: fileName });
  await expect(pkgRow).toContainText(VERSION);
  await expect(pkgRow).toContainText('293.0 KB');
  await expect(pkgRow.getByTestId('sha256')).toHaveText(/^[0-9a-f]{12}$/);

  // Start an upgrade of the point with that package.
  await page.getByRole('tab', { name: t('firmware.tabs.upgrades') }).click();
  await expect(page).toHaveURL(/tab=upgrades/);
  await page.getByRole('button', { name: looseButton(t('common.add')) }).click();
  const form = page.getByRole('dialog');
  await expect(form).toContainText(t('firmware.newUpgradeTitle'));
  await chooseOption(page, form.locator('#firmwareUpgrade-form_stationId'), station, station);
  await chooseOption(page, form.getByTestId('upgrade-points').locator('input'), serialNumber, serialNumber);
  await page.keyboard.press('Escape');
  await chooseOption(page, form.locator('#firmwareUpgrade-form_versionId'), VERSION, `${VERSION} · ${fileName}`);
  await form.locator('#firmwareUpgrade-form_description').fill(`e2e ${stamp}`);
  await expectNoRawKeys(page);
  await form.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('firmware.created'))).toBeVisible();
  await expect(form).toHaveCount(0);

  // Follow the point until it boots with the new version.
  const upgradeRow = page.getByRole('row').filter({ hasText: `e2e ${stamp}` });
  await expect(upgradeRow).toContainText(VERSION);
  await upgradeRow.getByRole('button', { name: looseButton(t('firmware.points')) }).click();
  const points = page.getByTestId('upgrade-points-table');
  const pointRow = points.getByRole('row').filter({ hasText: serialNumber });
  await expect(pointRow.locator('[data-status]')).toHaveAttribute('data-status', 'confirmed', { timeout: 120_000 });
  await expect(pointRow).toContainText(t('enums.firmwarePointState.confirmed'));
  await expect(pointRow).toContainText(`1.0.0 → ${VERSION}`);
  await expectNoRawKeys(page);
  await page.locator('.ant-drawer').getByRole('button', { name: 'Close' }).click();
  // The list's summary counts it too.
  await expect(upgradeRow.locator('[data-status=confirmed]')).toHaveAttribute('data-count', '1');

  // The point list shows the version the charger now reports.
  await page.goto(`/configurationManagement/stationManagement?tab=points&serialNumber=${serialNumber}`);
  const listed = page.getByRole('row').filter({ hasText: serialNumber });
  await expect(listed).toBeVisible();
  await page.getByRole('button', { name: t('kit.columns') }).click();
  await page
    .locator('.ant-popover')
    .getByRole('checkbox', { name: t('fields.point.firmwareVersion') })
    .check();
  await expect(listed).toContainText(VERSION);
});
