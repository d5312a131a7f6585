import { expect, test } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import {
  api,
  chooseFromDropdown,
  expectNoRawKeys,
  loose,
  looseButton,
  ok,
  OCPP_URL,
  pickIdTag,
  pointWithCard,
  signIn,
  tr,
} from './fixtures';

/**
 * Issue 22's "done means" in the console: a charger speaking OCPP 2.0.1 (the simulator with
 * `ocppVersion: '2.0.1'`) is started, stopped, billed, reconfigured and reset with the same screens,
 * buttons and answers as a 1.6 one. Once, in English: these screens are the ones monitor.spec.ts walks
 * in both languages with a 1.6 charger; only the charger's version differs here.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

let charger: ChargePoint | undefined;
test.afterEach(async () => {
  await charger?.stop();
  charger = undefined;
});

test('an OCPP 2.0.1 charger is started, stopped, billed, reconfigured and reset from the console like a 1.6 one', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'en-US');
  const { serialNumber, key, cardNumber, stationId } = await pointWithCard(page, 'V201', stamp);
  await ok(
    api(page, 'POST', '/web/price/add', {
      stationId,
      effectiveFrom: new Date(Date.now() - 86_400_000).toISOString(),
      confirmPast: true,
      sharpElec: 0,
      sharpService: 0,
      peakElec: 0,
      peakService: 0,
      flatElec: 10_000,
      flatService: 5_000,
      valleyElec: 0,
      valleyService: 0,
      reserveFeeCents: 0,
      slots: Array.from({ length: 48 }, () => 'flat'),
    }),
  );

  charger = createChargePoint({
    url: OCPP_URL,
    serialNumber,
    key,
    connectors: 1,
    vendor: 'E2E',
    ocppVersion: '2.0.1',
    meterValueSampleInterval: 5,
  });
  charger.start();
  await charger.ready();

  // The monitor shows the version it speaks, and its connector as for any charger.
  await page.goto(`/realTimeMonitor/chargePoint?serialNumber=${serialNumber}`);
  const row = page.getByRole('row').filter({ hasText: serialNumber });
  await expect(row).toContainText('2.0.1');
  const connector = page.getByTestId(`connector-${serialNumber}-1`);
  await expect(connector).toHaveAttribute('data-status', 'available');
  await expectNoRawKeys(page);

  // Remote start with the card (RequestStartTransaction on the wire): accepted, and the connector charges.
  const dialog = page.getByRole('dialog');
  const answer = dialog.getByTestId('action-answer');
  await row.getByRole('button', { name: looseButton(t('monitor.actions.remoteStart')) }).click();
  await pickIdTag(page, dialog, cardNumber);
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer).toContainText(t('enums.actionStatus.accepted'));
  await dialog.getByTestId('action-close').click();
  await expect(connector).toHaveAttribute('data-status', 'charging');
  // Some energy on the meter (its TransactionEvent Updated samples), so that the bill has something to charge.
  type Live = { list: { energyWh: number }[] };
  const live = async () => (await ok(api<Live>(page, 'GET', `/web/monitor/charging?page=1&limit=10&serialNumber=${serialNumber}`))).list;
  await expect.poll(async () => (await live())[0]?.energyWh ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);

  // Transaction status (GetTransactionStatus, 2.0.1's own) of the running session, preselected: ongoing.
  await chooseFromDropdown(
    page,
    row.getByRole('button', { name: looseButton(t('common.more')) }),
    loose(t('monitor.actions.transactionStatus')),
  );
  await expect(dialog.getByTestId('transaction-select')).toContainText(t('monitor.dialog.transactionOption', { n: 1, id: '' }).trim());
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer.getByRole('row').filter({ hasText: t('fields.pointAction.ongoing') })).toContainText(t('enums.yesNo.1'));
  await expectNoRawKeys(page);
  await dialog.getByTestId('action-close').click();

  // Remote stop of the running session (RequestStopTransaction with the charger's own transactionId).
  await row.getByRole('button', { name: looseButton(t('monitor.actions.remoteStop')) }).click();
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await dialog.getByTestId('action-close').click();
  // Ended: no session runs on it any more (the EVSE stays occupied, Finishing, until the car leaves).
  await expect.poll(async () => (await live()).length, { timeout: 60_000 }).toBe(0);

  // Billed at its TransactionEvent Ended, shown in the records like any session.
  type Records = { list: { id: number; energyWh: number; totalCents: number | null }[] };
  const records = async () =>
    (await ok(api<Records>(page, 'GET', `/web/chargeRecord/list?page=1&limit=10&serialNumber=${serialNumber}`))).list;
  await expect.poll(async () => (await records())[0]?.totalCents ?? null, { timeout: 60_000 }).toBeGreaterThan(0);
  const [record] = await records();
  await page.goto(`/historyRecord/chargeRecord?id=${record!.id}`);
  const recordRow = page.locator('.ant-table-row').filter({ hasText: serialNumber });
  await expect(recordRow.getByText((record!.totalCents! / 100).toFixed(2), { exact: true })).toBeVisible();
  await expect(recordRow.getByText((record!.energyWh / 1000).toFixed(3), { exact: true })).toBeVisible();

  // Its configuration (a GetBaseReport and its NotifyReports), then one key changed (SetVariables).
  await page.goto(`/configurationManagement/pointConfiguration?point=${serialNumber}`);
  await page.getByTestId('config-read').click();
  await expect(page.getByRole('row').filter({ hasText: 'SimulatorCtrlr.NumberOfConnectors' })).toBeVisible();
  const heartbeat = page.getByRole('row').filter({ hasText: 'HeartbeatInterval' });
  await heartbeat.getByRole('button', { name: loose(t('ocppLog.config.edit')) }).click();
  await page.getByRole('dialog').getByRole('textbox').fill('120');
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-answer')).toHaveAttribute('data-status', 'accepted');
  await expectNoRawKeys(page);
  await page.keyboard.press('Escape');

  // A soft reset (Reset OnIdle on the wire), answered in the same words.
  await page.goto(`/realTimeMonitor/chargePoint?serialNumber=${serialNumber}`);
  await chooseFromDropdown(page, row.getByRole('button', { name: looseButton(t('common.more')) }), loose(t('monitor.actions.reset')));
  await dialog.getByTestId('action-send').click();
  await expect(answer).toHaveAttribute('data-status', 'accepted');
  await expect(answer).toContainText(t('enums.actionStatus.accepted'));
  await dialog.getByTestId('action-close').click();

  // The OCPP log keeps the 2.0.1 frames as they were.
  await page.goto(`/configurationManagement/pointConfiguration?tab=log&serialNumber=${serialNumber}&action=TransactionEvent`);
  await expect(page.getByRole('row').filter({ hasText: 'TransactionEvent' }).first()).toBeVisible();
  await expectNoRawKeys(page);
});
