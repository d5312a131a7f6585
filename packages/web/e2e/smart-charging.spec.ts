import { expect, test } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import { OCPP_URL, chooseFromDropdown, expectNoRawKeys, loose, looseButton, pointWithCard, signIn, tr, chooseOption } from './fixtures';

/**
 * Charging profiles (issue 15 item 1) against a simulated 22 kW charger: a limit above the point's
 * rating is refused on its field, a valid default profile for the point's sessions is sent and accepted, the point lists it as held,
 * and clearing it on the charger releases it. The screen's words are the same in both languages
 * (screens.spec.ts renders it in each), so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

let charger: ChargePoint | undefined;
const chargers: ChargePoint[] = [];
test.afterEach(async () => {
  await charger?.stop();
  charger = undefined;
  await Promise.all(chargers.splice(0).map((c) => c.stop()));
});

test('a profile above the rating is refused; a valid one is sent, held by the point and cleared', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, key } = await pointWithCard(page, 'SC', stamp);
  charger = createChargePoint({ url: OCPP_URL, serialNumber, key, connectors: 1, powerW: 22_000, meterValueSampleInterval: 0 });
  charger.start();
  await charger.ready();

  await page.goto('/realTimeMonitor/smartCharging?tab=chargingProfile');
  await page.getByRole('button', { name: looseButton(t('common.add')) }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.locator('#chargingProfile-form_stationId'), `E2E SC ${stamp}`, `E2E SC ${stamp}`);
  await chooseOption(page, dialog.getByTestId('profile-points').locator('input'), serialNumber, serialNumber);
  await page.keyboard.press('Escape');
  await chooseOption(page, dialog.locator('#chargingProfile-form_chargingProfileKind'), '', t('enums.profileKind.Relative'));
  await dialog.getByLabel(`${t('fields.chargingProfile.limit')} 1`).fill('30000');
  await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  // The server knows the point's rating: the field says which point and what it takes.
  await expect(dialog).toContainText(`exceeds point ${serialNumber}'s maximum of 22000 W`);
  await dialog.getByLabel(`${t('fields.chargingProfile.limit')} 1`).fill('11000');
  await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.getByRole('row').filter({ hasText: `E2E SC ${stamp}` });
  await expect(row).toContainText(t('enums.profilePurpose.TxDefaultProfile'));
  await chooseFromDropdown(page, row.getByRole('button', { name: looseButton(t('common.more')) }), loose(t('chargingProfile.send')));
  await page.locator('.ant-modal-confirm .ant-btn-primary').click();
  const results = page.getByTestId('profile-results');
  await expect(results.locator('[data-status=accepted]')).toHaveCount(1);
  await expect(page.getByTestId('send-summary')).toHaveText(t('chargingProfile.sentSummary', { accepted: 1, total: 1 }));
  await expectNoRawKeys(page);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: looseButton(t('common.confirm')) })
    .click();

  // The point holds it.
  await page.getByTestId('in-force-open').click();
  const held = page.getByRole('dialog');
  await chooseOption(page, held.getByTestId('point-select').locator('input'), serialNumber, serialNumber);
  await expect(held.getByTestId('in-force').locator('tbody tr.ant-table-row')).toHaveCount(1);
  await held.getByRole('button', { name: 'Close' }).click();

  // The charger's composite schedule, from the point menu, is drawn: its limit is the profile's.
  await page.goto(`/realTimeMonitor/chargePoint?serialNumber=${serialNumber}`);
  const pointRow = page.getByRole('row').filter({ hasText: serialNumber });
  await chooseFromDropdown(
    page,
    pointRow.getByRole('button', { name: looseButton(t('common.more')) }),
    loose(t('monitor.actions.getCompositeSchedule')),
  );
  await page.getByTestId('action-send').click();
  await expect(page.getByTestId('action-answer')).toHaveAttribute('data-status', 'accepted');
  await expect(page.getByTestId('schedule-chart').locator('svg')).toBeVisible();
  await expect(page.getByTestId('action-answer')).toContainText('11000');
  await page.getByTestId('action-close').click();
  await page.goto('/realTimeMonitor/smartCharging?tab=chargingProfile');

  // Cleared on the charger: no longer held.
  await chooseFromDropdown(page, row.getByRole('button', { name: looseButton(t('common.more')) }), loose(t('chargingProfile.clear')));
  await page.getByTestId('clear-ok').click();
  await expect(page.getByTestId('clear-answer')).toContainText(t('chargingProfile.clearedSummary', { count: 1 }));
  await page.getByTestId('clear-ok').click();
  await row.locator('.ant-table-row-expand-icon').click();
  await expect(page.getByTestId('profile-targets').locator('[data-status=cleared]')).toHaveCount(1);
});

test('a local controller made in the console limits a 22 kW charger, shown live', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const a = await pointWithCard(page, 'LBA', stamp);
  const sims = [a].map((x) =>
    createChargePoint({
      url: OCPP_URL,
      serialNumber: x.serialNumber,
      key: x.key,
      connectors: 1,
      powerW: 22_000,
      meterValueSampleInterval: 1,
    }),
  );
  chargers.push(...sims);
  for (const s of sims) {
    s.start();
    await s.ready();
  }

  await page.goto('/realTimeMonitor/smartCharging?tab=localController');
  await page.getByRole('button', { name: looseButton(t('common.add')) }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('#localController-form_name').fill(`Depot ${stamp}`);
  await chooseOption(page, dialog.locator('#localController-form_stationId'), `E2E LBA ${stamp}`, `E2E LBA ${stamp}`);
  await chooseOption(page, dialog.getByTestId('controller-points').locator('input'), a.serialNumber, a.serialNumber);
  await page.keyboard.press('Escape');
  await dialog.locator('#localController-form_limitW').fill('20000');
  await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(dialog).toHaveCount(0);

  // One session under a 20 kW limit: the charger draws 20 kW, not its 22 (sharing among several: load-balancing.test.ts).
  sims[0]!.plugIn(1);
  await sims[0]!.startCharging(1, `LBA${stamp}`.toUpperCase().slice(0, 20));
  await page.goto('/realTimeMonitor/smartCharging?tab=loadBalancing');
  const card = page.getByTestId('live-controller').filter({ hasText: `Depot ${stamp}` });
  await expect(card.getByTestId('live-limit')).toHaveText('20000');
  await expect(card.locator('[data-state=charging]')).toHaveCount(1);
  await expect(card.getByTestId('live-allocated')).toHaveText('20000');
  await expect(card.getByTestId('live-measured')).toHaveText('20000');
  await expectNoRawKeys(page);
});
