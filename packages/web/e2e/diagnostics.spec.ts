import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import { OCPP_URL, chooseOption, expectNoRawKeys, looseButton, pointWithCard, signIn, toast, tr } from './fixtures';

/**
 * Diagnostics (issue 16 item 3) against a simulated charger: requested from the Diagnostics tab of
 * Point configuration with the platform over HTTP as the target, the charger answers with its file
 * name and uploads the file for real (a multipart POST to the request's own URL on the server); the
 * row, refreshing itself meanwhile, ends as received, and the file downloads with the session and
 * holds the charger's serial number. The tab's words are checked in both languages by the component
 * tests, so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

let charger: ChargePoint | undefined;
test.afterEach(async () => {
  await charger?.stop();
  charger = undefined;
});

test('diagnostics requested over HTTP arrive from the charger and download with its serial number', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, key } = await pointWithCard(page, 'DG', stamp);
  const station = `E2E DG ${stamp}`;
  charger = createChargePoint({ url: OCPP_URL, serialNumber, key, connectors: 1, powerW: 22_000, meterValueSampleInterval: 0 });
  charger.start();
  await charger.ready();

  await page.goto('/configurationManagement/pointConfiguration');
  await page.getByRole('tab', { name: t('ocppLog.tabs.diagnostics') }).click();
  await expect(page).toHaveURL(/[?&]tab=diagnostics/);
  await expect(page.getByRole('tab', { name: t('ocppLog.tabs.diagnostics') })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: looseButton(t('common.add')) }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(t('ocppLog.diagnostics.requestTitle'));
  await chooseOption(page, dialog.locator('#diagnostics-form_stationId'), station, station);
  await chooseOption(page, dialog.getByTestId('diagnostics-points').locator('input'), serialNumber, serialNumber);
  await page.keyboard.press('Escape');
  // The platform over HTTP is the target unless another is chosen.
  await expect(dialog.getByLabel(t('ocppLog.diagnostics.targetHttp'))).toBeChecked();
  await expectNoRawKeys(page);
  await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(dialog).toHaveCount(0);
  await expect(toast(page, t('ocppLog.diagnostics.requested'))).toBeVisible();
  await expect(page.getByTestId('diagnostics-summary')).toHaveText(t('ocppLog.diagnostics.summary', { sent: 1, offline: 0, rejected: 0 }));

  // Sent, then (the list refreshing itself every 3 s) the file is here.
  const row = page.getByRole('row').filter({ hasText: serialNumber });
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'received', { timeout: 60_000 });
  await expect(row).toContainText(t('enums.diagnosticsState.received'));
  await expect(row).toContainText(`diagnostics-${serialNumber}-`);
  await expect(row).toContainText(/\d(\.\d+)? (B|KB)/);
  await expect(row).toContainText('/files/diagnostics/');
  await expectNoRawKeys(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: looseButton(t('ocppLog.diagnostics.download')) }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^diagnostics-${serialNumber}-\\d{8}T\\d{6}Z\\.log$`));
  const content = fs.readFileSync((await download.path())!, 'utf8');
  expect(content).toContain(`# Diagnostics of charge point ${serialNumber}`);
});
