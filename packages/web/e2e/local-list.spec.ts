import { expect, test } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import { OCPP_URL, api, chooseFromDropdown, expectNoRawKeys, loose, looseButton, ok, pointWithCard, signIn, tr } from './fixtures';

/**
 * The whitelist (OCPP local authorization list) from the point menu against a simulated charger:
 * Full to a new point, Differential after a card is reported lost, the version on record beside the
 * charger's, and Full offered once the charger is out of step. The screen is the same in both
 * languages (its words are checked for raw keys), so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

let charger: ChargePoint | undefined;
test.afterEach(async () => {
  await charger?.stop();
  charger = undefined;
});

test('sends a Differential whitelist after a card is lost and shows the versions, then offers Full when out of step', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, key, card } = await pointWithCard(page, 'LL', stamp);
  const start = async () => {
    charger = createChargePoint({ url: OCPP_URL, serialNumber, key, connectors: 1, vendor: 'E2E', meterValueSampleInterval: 0 });
    charger.start();
    await charger.ready();
  };
  await start();

  await page.goto(`/realTimeMonitor/chargePoint?serialNumber=${serialNumber}`);
  const row = page.getByRole('row').filter({ hasText: serialNumber });
  await expect(page.getByTestId(`connector-${serialNumber}-1`)).toHaveAttribute('data-status', 'available');
  const dialog = page.getByRole('dialog');
  const answer = dialog.getByTestId('action-answer');
  const open = (action: string) =>
    chooseFromDropdown(page, row.getByRole('button', { name: looseButton(t('common.more')) }), loose(t(`monitor.actions.${action}`)));

  // A point that never took a list: out of step, Full chosen for it.
  await open('sendLocalList');
  await expect(dialog.getByTestId('in-step')).toHaveAttribute('data-in-step', 'false');
  await expect(dialog.getByTestId('server-version')).toHaveText(t('monitor.dialog.localListNone'));
  await expect(dialog.getByLabel(t('enums.localListUpdateType.Full'))).toBeChecked();
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer.getByTestId('server-version')).toHaveText('1');
  await expect(answer.getByTestId('in-step')).toHaveAttribute('data-in-step', 'true');
  await dialog.getByTestId('action-close').click();

  // The card is reported lost: the next update defaults to Differential and carries that one card.
  await ok(api(page, 'POST', '/web/card/reportLoss', { id: card.id }));
  await open('sendLocalList');
  await expect(dialog.getByTestId('server-version')).toHaveText('1');
  await expect(dialog.getByTestId('in-step')).toHaveAttribute('data-in-step', 'true');
  await expect(dialog.getByLabel(t('enums.localListUpdateType.Differential'))).toBeChecked();
  await expectNoRawKeys(page);
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer).toContainText(t('enums.localListUpdateType.Differential'));
  await expect(answer.getByTestId('server-version')).toHaveText('2');
  expect(charger!.state().localListVersion).toBe(2);
  await dialog.getByTestId('action-close').click();

  // The charger asked for its version agrees with the record.
  await open('getLocalListVersion');
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer.getByTestId('in-step')).toHaveAttribute('data-in-step', 'true');
  await dialog.getByTestId('action-close').click();

  // The charger is replaced and comes back with no list: its answer differs, Full is offered and brings it back in step.
  await charger!.stop();
  await start();
  await open('getLocalListVersion');
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer.getByTestId('in-step')).toHaveAttribute('data-in-step', 'false');
  await expect(dialog).toContainText(t('monitor.dialog.fullOffered'));
  await expectNoRawKeys(page);
  await dialog.getByTestId('send-full').click();
  await expect(answer).toContainText(t('enums.localListUpdateType.Full'));
  await expect(answer.getByTestId('server-version')).toHaveText('3');
  await expect(answer.getByTestId('in-step')).toHaveAttribute('data-in-step', 'true');
  expect(charger!.state().localListVersion).toBe(3);
});
