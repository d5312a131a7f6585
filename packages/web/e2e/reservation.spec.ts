import { expect, test, type Page } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import { OCPP_URL, api, expectNoRawKeys, loose, looseButton, ok, pointWithCard, signIn, toast, tr, chooseOption } from './fixtures';

/**
 * Reservations and timed charging (issue 15 items 3 and 4) against a simulated charger: a connector
 * is reserved for a charge user with a card (ReserveNow, the charger answers Accepted), listed as
 * reserved, cancelled (CancelReservation) and listed as cancelled; a timed charge added on the Smart
 * Charging page is listed as waiting with its next start on the station's clock. The screens' words
 * are the same in both languages (screens.spec.ts renders every menu screen in each), so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

let charger: ChargePoint | undefined;
test.afterEach(async () => {
  await charger?.stop();
  charger = undefined;
});

/** A station with a point (`pointWithCard`) and a charge user who owns that card, so the point's provider has a valid card for them. */
async function pointAndDriver(page: Page, tag: string, stamp: string) {
  const made = await pointWithCard(page, tag, stamp);
  const account = `e2e${tag}${stamp}`.toLowerCase().slice(0, 20);
  const user = await ok(api<{ id: number }>(page, 'POST', '/web/chargeUser/add', { account, userType: 'card', providerId: 1 }));
  await ok(
    api(page, 'POST', '/web/card/edit', {
      id: made.card.id,
      chargeUserId: user.id,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      email: 'driver@example.test',
    }),
  );
  return { ...made, account, station: `E2E ${tag} ${stamp}` };
}

/** The UTC calendar day `days` from now (two days ahead is tomorrow or later on every station's clock). */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('a connector reserved for a charge user is listed as reserved, then cancelled on the charger', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, key, account, station } = await pointAndDriver(page, 'RSV', stamp);
  charger = createChargePoint({ url: OCPP_URL, serialNumber, key, connectors: 1, powerW: 22_000, meterValueSampleInterval: 0 });
  charger.start();
  await charger.ready();

  await page.goto('/realTimeMonitor/reservation');
  await page.getByRole('button', { name: looseButton(t('common.add')) }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(t('reservation.reserveTitle'));
  // The expiry starts an hour ahead and the connector at "any": this one picks connector 1.
  await expect(dialog.locator('#reservation-form_expiryTime')).not.toHaveValue('');
  await chooseOption(page, dialog.locator('#reservation-form_stationId'), station, station);
  await chooseOption(page, dialog.locator('#reservation-form_serialNumber'), serialNumber, serialNumber);
  await chooseOption(page, dialog.locator('#reservation-form_connectorNo'), '', /^1$/);
  await chooseOption(page, dialog.locator('#reservation-form_chargeUserId'), account, account);
  await expectNoRawKeys(page);
  await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(dialog).toHaveCount(0);
  await expect(toast(page, t('reservation.sent'))).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: serialNumber });
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'reserved');
  await expect(row).toContainText(t('enums.reservationStatus.reserved'));
  await expect(row).toContainText(account);
  await expectNoRawKeys(page);

  await row.getByRole('button', { name: looseButton(t('reservation.cancel')) }).click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText(serialNumber);
  await confirm.getByRole('button', { name: loose(t('common.confirm')) }).click();
  await expect(toast(page, t('reservation.cancelled'))).toBeVisible();
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'cancelled');
  await expect(row).toContainText(t('enums.reservationStatus.cancelled'));
  // A cancelled reservation cannot be cancelled again.
  await expect(row.getByRole('button', { name: looseButton(t('reservation.cancel')) })).toHaveCount(0);
});

test('a timed charge added on the Smart Charging page is listed as waiting, with its next start', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, account, station } = await pointAndDriver(page, 'TMC', stamp);
  const from = dayFromNow(2);
  const to = dayFromNow(9);

  await page.goto('/realTimeMonitor/smartCharging?tab=timedCharge');
  await expect(page.getByRole('tab', { name: t('smart.tabs.timedCharge') })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: looseButton(t('common.add')) }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.locator('#timedCharge-form_stationId'), station, station);
  await chooseOption(page, dialog.locator('#timedCharge-form_serialNumber'), serialNumber, serialNumber);
  // The point's only connector is chosen with it.
  await expect(dialog.getByTestId('timed-connectors')).toContainText('1');
  await chooseOption(page, dialog.locator('#timedCharge-form_chargeUserId'), account, account);
  const period = dialog.getByTestId('timed-period');
  await period.first().click();
  await period.first().fill(from);
  await period.first().press('Enter');
  await period.last().click();
  await period.last().fill(to);
  await period.last().press('Enter');
  await expect(period.last()).toHaveValue(to);
  const start = dialog.getByTestId('timed-start');
  await start.click();
  await start.fill('06:00');
  await start.press('Enter');
  await expect(start).toHaveValue('06:00');
  await expectNoRawKeys(page);
  await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.getByRole('row').filter({ hasText: serialNumber });
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'waiting');
  await expect(row).toContainText(t('enums.timedChargeStatus.waiting'));
  await expect(row).toContainText(`${from} ~ ${to}`);
  // The first start: the first day at 06:00 on the station's clock.
  await expect(row).toContainText(`${from} 06:00:00`);
  await expectNoRawKeys(page);
});
