import { expect, test, type Page } from '@playwright/test';
import { createChargePoint, type ChargePoint } from '../../simulator/src/index';
import { BASE_URL, LOCALES, api, chooseFromDropdown, expectNoRawKeys, loose, signIn, tr, type Locale } from './fixtures';

/**
 * Live monitoring against a simulated charger over real OCPP (DESIGN.md §1, §6): the point status
 * page follows the charger's StatusNotifications within 2 s, and operator actions show the
 * charger's own answer in words; the point configuration and the OCPP log show the same charger.
 */
const OCPP_URL = `${BASE_URL.replace(/^http/, 'ws')}/ocpp`;
/** A button's name holds its icon's label too, and antd spaces two Chinese characters: match the text loosely, anywhere. */
const button = (text: string) => new RegExp(loose(text).source.slice(1));

async function ok<T>(p: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
  const r = await p;
  expect(r.code, r.msg).toBe(200);
  return r.data;
}

/** A station, a point with two connectors (its OCPP key) and a card of the super provider. */
async function prepare(page: Page, stamp: string) {
  const station = await ok(
    api<{ id: number }>(page, 'POST', '/web/station/add', {
      stationName: `E2E monitor ${stamp}`,
      providerId: 1,
      country: 'CN',
      address: 'Harbour road 1',
      longitude: 121.47,
      latitude: 31.23,
    }),
  );
  const serialNumber = `E2E-MON-${stamp}`;
  const point = await ok(
    api<{ ocppKey: string }>(page, 'POST', '/web/point/add', {
      serialNumber,
      pointName: `Bay ${stamp}`,
      equipmentType: 'ac',
      ratedPowerW: 22_000,
      stationId: station.id,
      connectors: [
        { connectorNo: 1, standard: 'ac', type: 'Type2' },
        { connectorNo: 2, standard: 'ac', type: 'Type2' },
      ],
    }),
  );
  const cardNumber = `E2EC${stamp}`.toUpperCase();
  await ok(
    api(page, 'POST', '/web/card/add', {
      cardNumber,
      physicalId: `E2E${stamp}`.toUpperCase().slice(0, 20),
      providerId: 1,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      prepaidCents: 10_000,
      email: 'driver@example.test',
    }),
  );
  return { serialNumber, key: point.ocppKey, cardNumber };
}

for (const locale of LOCALES) {
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
      const { serialNumber, key, cardNumber } = await prepare(page, stamp);

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

      // A fault on connector 2 shows within 2 s of its StatusNotification.
      charger.fault(2, 'GroundFailure');
      await expect(connector(2)).toHaveAttribute('data-status', 'faulted', { timeout: 2_000 });
      await expect(connector(2)).toContainText(t('enums.pointStatus.faulted'));

      // Remote start with the card: the charger accepts, starts, and the connector turns to charging.
      const row = page.getByRole('row').filter({ hasText: serialNumber });
      await row.getByRole('button', { name: button(t('monitor.actions.remoteStart')) }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(t('monitor.dialog.title', { action: t('monitor.actions.remoteStart'), serial: serialNumber }));
      await dialog.getByTestId('idtag-select').click();
      await page.locator('.ant-select-item-option').filter({ hasText: cardNumber }).first().click();
      await dialog.getByTestId('action-send').click();
      const answer = dialog.getByTestId('action-answer');
      await expect(answer).toHaveAttribute('data-status', 'accepted');
      await expect(answer).toContainText(t('enums.actionStatus.accepted'));
      await expectNoRawKeys(page);
      await dialog.getByTestId('action-close').click();
      await expect(connector(1)).toHaveAttribute('data-status', 'charging');

      // Data transfer to a vendor the charger does not know: refused, with the reason in words.
      await chooseFromDropdown(page, row.getByRole('button', { name: button(t('common.more')) }), loose(t('monitor.actions.dataTransfer')));
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

      // The OCPP log has the boot, request paired with response.
      await page.goto(`/configurationManagement/pointConfiguration?tab=log&serialNumber=${serialNumber}&action=BootNotification`);
      const boot = page.getByRole('row').filter({ hasText: 'BootNotification' }).first();
      await expect(boot).toBeVisible();
      await boot.getByRole('button', { name: button(t('common.detail')) }).click();
      await expect(page.getByTestId('ocpp-payload')).toContainText('"chargePointVendor": "E2E"');
      await expect(page.getByTestId('ocpp-response')).toContainText('"status": "Accepted"');
      await expectNoRawKeys(page);
    });
  });
}
