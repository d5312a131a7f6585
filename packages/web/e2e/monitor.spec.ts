import { expect, test } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import {
  flowLocales,
  OCPP_URL,
  chooseFromDropdown,
  chooseOption,
  expectNoRawKeys,
  loose,
  looseButton,
  pickIdTag,
  pointWithCard,
  signIn,
  tr,
  type Locale,
} from './fixtures';

/**
 * Live monitoring against a simulated charger over real OCPP (DESIGN.md §1, §6): the point status
 * page follows the charger's StatusNotifications within 2 s, and operator actions show the
 * charger's own answer in words; the point configuration and the OCPP log show the same charger.
 */

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);

  test.describe(`live monitoring (${locale})`, () => {
    let charger: ChargePoint | undefined;
    test.afterEach(async () => {
      await charger?.stop();
      charger = undefined;
    });

    test('follows the charger live and runs operator actions with its answers', async ({ page }) => {
      const stamp = `${Date.now().toString(36)}${locale === 'zh-CN' ? 'Z' : 'E'}`;
      await signIn(page, locale);
      const { serialNumber, key, cardNumber } = await pointWithCard(page, 'MON', stamp, { connectors: 2 });

      await page.goto(`/realTimeMonitor/chargePoint?serialNumber=${serialNumber}`);
      const connector = (n: number) => page.getByTestId(`connector-${serialNumber}-${n}`);
      await expect(connector(1)).toHaveAttribute('data-status', 'offline');
      await expectNoRawKeys(page);

      // The charger connects, boots and reports its connectors: the open page follows.
      charger = createChargePoint({ url: OCPP_URL, serialNumber, key, connectors: 2, vendor: 'E2E', meterValueSampleInterval: 5 });
      charger.start();
      await charger.ready();
      await expect(connector(1)).toHaveAttribute('data-status', 'available');
      await expect(connector(1)).toContainText(t('enums.pointStatus.available'));

      // A fault on connector 2 shows on the open page, pushed by the server (no reload).
      charger.fault(2, 'GroundFailure');
      await expect(connector(2)).toHaveAttribute('data-status', 'faulted');
      await expect(connector(2)).toContainText(t('enums.pointStatus.faulted'));

      // Remote start with the card: the charger accepts, starts, and the connector turns to charging.
      const row = page.getByRole('row').filter({ hasText: serialNumber });
      await row.getByRole('button', { name: looseButton(t('monitor.actions.remoteStart')) }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(t('monitor.dialog.title', { action: t('monitor.actions.remoteStart'), serial: serialNumber }));
      await pickIdTag(page, dialog, cardNumber);
      await dialog.getByTestId('action-send').click();
      const answer = dialog.getByTestId('action-answer');
      await expect(answer).toHaveAttribute('data-status', 'accepted');
      await expect(answer).toContainText(t('enums.actionStatus.accepted'));
      await expectNoRawKeys(page);
      await dialog.getByTestId('action-close').click();
      await expect(connector(1)).toHaveAttribute('data-status', 'charging');

      // Data transfer to a vendor the charger does not know: refused, with the reason in words.
      await chooseFromDropdown(
        page,
        row.getByRole('button', { name: looseButton(t('common.more')) }),
        loose(t('monitor.actions.dataTransfer')),
      );
      await dialog.getByLabel(t('fields.pointAction.vendorId')).fill('nobody');
      await dialog.getByLabel(t('fields.pointAction.messageId')).fill('ping');
      await dialog.getByLabel(t('fields.pointAction.data')).fill('{}');
      await dialog.getByTestId('action-send').click();
      await expect(answer).toHaveAttribute('data-status', 'rejected');
      await expect(answer).toContainText(t('errors.pointAction.unknownVendorId'));
      await dialog.getByTestId('action-close').click();

      // The charging screen lists the session the remote start began.
      await page.goto(`/realTimeMonitor/charging?serialNumber=${serialNumber}`);
      await expect(page.getByRole('row').filter({ hasText: serialNumber })).toBeVisible();
      await expectNoRawKeys(page);

      // Point configuration: read the charger's keys and change one.
      await page.goto(`/configurationManagement/pointConfiguration?point=${serialNumber}`);
      await page.getByTestId('config-read').click();
      const heartbeat = page.getByRole('row').filter({ hasText: 'HeartbeatInterval' });
      await expect(heartbeat).toBeVisible();
      await heartbeat.getByRole('button', { name: loose(t('ocppLog.config.edit')) }).click();
      await page.getByRole('dialog').getByRole('textbox').fill('120');
      await page.getByTestId('config-save').click();
      await expect(page.getByTestId('config-answer')).toHaveAttribute('data-status', 'accepted');
      await expectNoRawKeys(page);
      await page.keyboard.press('Escape');

      // The same key on all the station's points at once: a phase rotation the charger takes only
      // after a reboot, which is then offered and done.
      await page.getByTestId('config-bulk').click();
      const bulk = page.getByRole('dialog');
      await chooseOption(page, bulk.locator('#stationId'), `E2E MON ${stamp}`, `E2E MON ${stamp}`);
      await bulk.getByTestId('bulk-all-points').click();
      await bulk.getByLabel(t('fields.pointAction.key')).fill('ConnectorPhaseRotation');
      await expect(bulk.getByTestId('key-help')).toContainText(t('ocppKeys.meaning.ConnectorPhaseRotation'));
      await bulk.getByLabel(t('fields.pointAction.value')).fill('RTS');
      await bulk.getByTestId('bulk-send').click();
      await expect(bulk).toContainText(
        t('validation.ocppKeyPerConnector', {
          key: 'ConnectorPhaseRotation',
          item: 'RTS',
          values: 'NotApplicable, Unknown, RST, RTS, SRT, STR, TRS, TSR',
        }),
      );
      await bulk.getByLabel(t('fields.pointAction.value')).fill('0.RTS');
      await bulk.getByTestId('bulk-send').click();
      await expect(bulk.getByTestId('bulk-summary')).toHaveText(t('ocppLog.config.bulkSummary', { accepted: 0, reboot: 1, other: 0 }));
      await expectNoRawKeys(page);
      await bulk.getByTestId('bulk-reboot').click();
      await expect(bulk.getByTestId('bulk-answers').locator('[data-status=accepted]')).toHaveCount(1);
      await expect(bulk.getByTestId('bulk-reboot')).toHaveCount(0);

      // The OCPP log has the boot, request paired with response.
      await page.goto(`/configurationManagement/pointConfiguration?tab=log&serialNumber=${serialNumber}&action=BootNotification`);
      const boot = page.getByRole('row').filter({ hasText: 'BootNotification' }).first();
      await expect(boot).toBeVisible();
      await boot.getByRole('button', { name: looseButton(t('common.detail')) }).click();
      await expect(page.getByTestId('ocpp-payload')).toContainText('"chargePointVendor": "E2E"');
      await expect(page.getByTestId('ocpp-response')).toContainText('"status": "Accepted"');
      await expectNoRawKeys(page);
    });
  });
}
