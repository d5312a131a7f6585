import { expect, test, type Page } from '@playwright/test';
import type { ChargeRecordDetail } from '@csms/contract';
import { api, connectCharger, expectNoRawKeys, flowLocales, ok, signIn, tr, watchConsole } from './fixtures';

/**
 * A late Stop in the console: a charger loses a session (its next Start closes it as never stopped),
 * the operator confirms the guess and it is billed, then the charger's own Stop arrives. The record
 * shows it was closed late and the adjustment, in the list and the detail, in both languages.
 */
const RECORDS = '/historyRecord/chargeRecord';
const MIN = 60_000;
const wallClockIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));

/** A station with one flat price (1.00 + 0.50 per kWh), a point, a card; a session billed on its guessed end, then its Stop. */
async function lateStoppedSession(page: Page, tag: string): Promise<number> {
  const info = await ok(api<{ providerId: number }>(page, 'POST', '/web/info', {}));
  const station = await ok(
    api<{ id: number }>(page, 'POST', '/web/station/add', {
      stationName: `E2E late stop ${tag}`,
      providerId: info.providerId,
      country: 'CN',
      address: `${tag} Quay`,
      longitude: 121.47,
      latitude: 31.23,
      timeZone: 'Asia/Shanghai',
    }),
  );
  await ok(
    api(page, 'POST', '/web/price/add', {
      stationId: station.id,
      effectiveFrom: new Date(Date.now() - 3 * 86_400_000).toISOString(),
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
  const serial = `E2E-LATE-${tag}`;
  const point = await ok(
    api<{ ocppKey: string }>(page, 'POST', '/web/point/add', {
      serialNumber: serial,
      pointName: `Bay ${tag}`,
      equipmentType: 'ac',
      ratedPowerW: 22_000,
      stationId: station.id,
      connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type2' }],
    }),
  );
  const idTag = `late-${tag}`.slice(0, 20);
  await ok(
    api(page, 'POST', '/web/card/add', {
      cardNumber: `LATE-${tag}`,
      physicalId: idTag,
      providerId: info.providerId,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      prepaidCents: 10_000,
      email: 'driver@example.test',
    }),
  );
  const cp = await connectCharger(serial, point.ocppKey);
  try {
    await cp.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Late' });
    const t0 = Date.now() - 120 * MIN;
    const at = (minutes: number) => new Date(t0 + minutes * MIN).toISOString();
    const first = (await cp.call('StartTransaction', { connectorId: 1, idTag, meterStart: 1_000, timestamp: at(0) }))
      .transactionId as number;
    await cp.call('MeterValues', {
      connectorId: 1,
      transactionId: first,
      meterValue: [{ timestamp: at(10), sampledValue: [{ value: '3000' }] }],
    });
    // The charger forgot the session and starts the next: the first is closed as never stopped, at 2 kWh.
    await cp.call('StartTransaction', { connectorId: 1, idTag, meterStart: 6_000, timestamp: at(30) });
    await ok(api(page, 'POST', '/web/chargeRecord/confirm', { id: first }));
    // Then its own Stop: 5 kWh in all, 3 kWh more than billed.
    await cp.call('StopTransaction', { transactionId: first, meterStop: 6_000, timestamp: at(25), reason: 'EVDisconnected' });
    return first;
  } finally {
    cp.close();
  }
}

for (const locale of flowLocales('en-US')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale, key, params);

  test(`a record closed late shows its real end and the bill's adjustment (${locale})`, async ({ page }) => {
    const errors = watchConsole(page);
    await signIn(page, locale);
    const id = await lateStoppedSession(page, `${locale.slice(0, 2)}${Date.now().toString(36)}`);
    // Billing corrects the bill after the Stop is answered.
    let record: ChargeRecordDetail | undefined;
    await expect
      .poll(async () => (record = await ok(api<ChargeRecordDetail>(page, 'GET', `/web/chargeRecord/get?id=${id}`))).adjustmentCents)
      .toBe(450);
    const lateAt = wallClockIn(record!.lateStopAt!, 'Asia/Shanghai');

    await page.goto(`${RECORDS}?id=${id}`);
    const row = page.getByRole('row').filter({ hasText: String(id) });
    await expect(row).toContainText(lateAt);
    await expect(row).toContainText('+4.50');
    await expect(page.getByRole('columnheader', { name: t('fields.chargeRecord.lateStopAt') })).toBeVisible();
    await expectNoRawKeys(page);

    await page.goto(`${RECORDS}/detail/${id}`);
    const alert = page.getByTestId('record-alert');
    await expect(alert).toContainText(t('chargeRecord.lateStopAlert', { time: lateAt }));
    await expect(alert).toContainText(t('chargeRecord.adjustedAlert', { amount: '+4.50' }));
    await expect(page.getByText(t('chargeRecord.adjustmentTag'), { exact: true })).toHaveCount(2);
    await expectNoRawKeys(page);
    expect(errors).toEqual([]);
  });
}
