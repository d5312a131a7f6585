import { expect, test } from '@playwright/test';
import { api, connectCharger, expectNoRawKeys, flowLocales, signIn, toast, tr, watchConsole, type Locale } from './fixtures';

/**
 * Money warning: a price version that takes effect in the past re-prices the sessions that waited
 * for a price. Saving it shows how many and how much, and saves only once confirmed.
 */
test.use({ timezoneId: 'UTC' });

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);

  test(`a back-dated price asks for confirmation with the figures (${locale})`, async ({ page }) => {
    const errors = watchConsole(page);
    const tag = `${locale.slice(0, 2)}${Date.now().toString(36)}`.toUpperCase();
    await signIn(page, locale);
    const ok = async <T>(p: Promise<{ code: number; msg: string; data: T }>) => {
      const r = await p;
      expect(r.code, r.msg).toBe(200);
      return r.data;
    };
    // A station without a price, and a charger whose finished session (6 kWh) waits for one.
    const station = await ok(
      api<{ id: number }>(page, 'POST', '/web/station/add', {
        stationName: `E2E Backdate ${tag}`,
        providerId: 1,
        country: 'CN',
        address: 'Pier 9',
        longitude: 121.47,
        latitude: 31.23,
        timeZone: 'UTC',
      }),
    );
    const serial = `E2E-BD-${tag}`;
    const point = await ok(
      api<{ id: number; ocppKey: string }>(page, 'POST', '/web/point/add', {
        serialNumber: serial,
        pointName: `Bay ${tag}`,
        equipmentType: 'ac',
        ratedPowerW: 7000,
        stationId: station.id,
        connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type2' }],
      }),
    );
    const uid = `BD${tag}`.replace(/[^0-9A-Z]/g, '').slice(0, 20);
    await ok(
      api(page, 'POST', '/web/card/add', {
        cardNumber: `NO-${tag}`,
        physicalId: uid,
        providerId: 1,
        expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
        prepaidCents: 100_000,
        email: 'driver@example.test',
      }),
    );
    const startAt = Date.now() - 3 * 3_600_000;
    const cp = await connectCharger(serial, point.ocppKey);
    try {
      await cp.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Backdate' });
      const start = await cp.call('StartTransaction', {
        connectorId: 1,
        idTag: uid,
        meterStart: 0,
        timestamp: new Date(startAt).toISOString(),
      });
      await cp.call('StopTransaction', {
        transactionId: start.transactionId,
        idTag: uid,
        meterStop: 6000,
        timestamp: new Date(startAt + 3_600_000).toISOString(),
        reason: 'EVDisconnected',
      });
    } finally {
      cp.close();
    }

    // The price page: 0.5 + 0.1 $/kWh flat, effective from yesterday 00:00.
    await page.goto(`/financialManagement/electricityPriceEdit?stationId=${station.id}`);
    await expect(page.getByText(t('price.page.creating')).first()).toBeVisible();
    for (const key of ['sharpElec', 'sharpService', 'peakElec', 'peakService', 'flatService', 'valleyElec', 'valleyService'])
      await page.getByTestId(`fee-${key}`).fill(key === 'flatService' ? '0.1' : '0');
    await page.getByTestId('fee-flatElec').fill('0.5');
    await page.getByText(t('price.page.fromTime'), { exact: true }).click();
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const picker = page.getByTestId('effective-at');
    await picker.click();
    await picker.fill(`${from} 00:00`);
    await picker.press('Enter');
    await page.getByTestId('price-save').click();

    // The warning names the instant, the session and the money: nothing is saved yet.
    const impact = page.getByTestId('past-impact');
    await expect(impact).toContainText(t('price.page.pastIntro', { time: `${from} 00:00` }));
    await expect(impact).toContainText(t('price.page.pastSessions', { count: 1, finished: 1, running: 0, unpriced: 1 }));
    await expect(impact).toContainText(t('price.page.pastMoney', { current: '0.00', next: '3.60' }));
    await expectNoRawKeys(page);
    const before = await ok(api<{ versions: unknown[] }>(page, 'GET', `/web/price/get?stationId=${station.id}`));
    expect(before.versions).toHaveLength(0);

    await page.getByTestId('past-ok').click();
    await expect(toast(page, t('common.success'))).toBeVisible();
    const records = await ok(
      api<{ list: { totalCents: number | null }[] }>(page, 'GET', `/web/chargeRecord/list?page=1&limit=10&stationId=${station.id}`),
    );
    expect(records.list.map((r) => r.totalCents)).toEqual([360]);
    expect(errors).toEqual([]);
  });
}
