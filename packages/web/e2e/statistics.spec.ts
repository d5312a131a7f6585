import { expect, test, type Page } from '@playwright/test';
import { api, connectCharger, expectNoRawKeys, ok, pointWithCard, signIn, tr, watchConsole } from './fixtures';

/**
 * Operation and financial statistics (issue 20 items 3, 4): a charger's session today over OCPP, then both
 * screens show it for its station, change period, and export their tables. One language: the screens are
 * the same in both (their texts are checked in both by the component tests and the screens walk).
 */
const locale = 'en-US' as const;
const t = (key: string, params?: Record<string, string | number>) => tr(locale, key, params);
const slots = Array.from({ length: 48 }, () => 'flat');

/** A priced station with one point and a funded card, and one finished, billed session of today. */
async function seed(page: Page, tag: string) {
  const info = await ok(api<{ providerId: number }>(page, 'POST', '/web/info', {}));
  const station = await ok(
    api<{ id: number }>(page, 'POST', '/web/station/add', {
      stationName: `E2E stats ${tag}`,
      providerId: info.providerId,
      country: 'CN',
      address: `${tag} Stats Road`,
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
      ...Object.fromEntries(
        ['sharp', 'peak', 'flat', 'valley'].flatMap((k) => [
          [`${k}Elec`, 10000],
          [`${k}Service`, 4000],
        ]),
      ),
      reserveFeeCents: 0,
      slots,
    }),
  );
  const {
    serialNumber: serial,
    key,
    physicalId: uid,
  } = await pointWithCard(page, 'STAT', tag, {
    stationId: station.id,
    providerId: info.providerId,
    ratedPowerW: 7000,
    prepaidCents: 50_000,
  });
  const cp = await connectCharger(serial, key);
  try {
    await cp.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Stats' });
    // Within today at the station (Asia/Shanghai, UTC+8 all year): an hour ago, or since its midnight when
    // that was less than an hour ago; the session then ends halfway to now.
    const now = Date.now();
    const shanghaiMidnight = Math.floor((now + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000;
    const startAt = Math.max(now - 60 * 60_000, shanghaiMidnight + 1_000);
    const step = Math.floor((now - startAt) / 12);
    const start = await cp.call('StartTransaction', {
      connectorId: 1,
      idTag: uid,
      meterStart: 10_000,
      timestamp: new Date(startAt).toISOString(),
    });
    let wh = 10_000;
    for (let k = 1; k <= 5; k++) {
      wh += 1_400;
      await cp.call('MeterValues', {
        connectorId: 1,
        transactionId: start.transactionId,
        meterValue: [
          {
            timestamp: new Date(startAt + k * step).toISOString(),
            sampledValue: [{ value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' }],
          },
        ],
      });
    }
    await cp.call('StopTransaction', {
      transactionId: start.transactionId,
      idTag: uid,
      meterStop: 17_000,
      timestamp: new Date(startAt + 6 * step).toISOString(),
      reason: 'EVDisconnected',
    });
  } finally {
    cp.close();
  }
  // The Stop is answered once stored; its bill, which puts the energy into the day's totals, is settled in
  // the same commit unless that settlement failed and is retried after the answer: wait for it.
  await expect
    .poll(
      async () =>
        (await ok(api<{ totals: { energyWh: number } }>(page, 'GET', `/web/statistics/operation?period=day&stationId=${station.id}`)))
          .totals.energyWh,
      { timeout: 30_000 },
    )
    .toBe(7_000);
  return { stationId: station.id };
}

test("operation and financial statistics: a station's session today, another period, the export", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await signIn(page, locale);
  const { stationId } = await seed(page, Date.now().toString(36));

  // Operation statistics of the station today: the session, 7 kWh.
  await page.goto(`/operateManagement/operateStatistics?period=day&stationId=${stationId}`);
  await expect(page.getByTestId('stat-sessions')).toContainText('1');
  await expect(page.getByTestId('stat-energy')).toContainText('7.000');
  await expect(page.getByTestId('stats-zone')).toContainText('Asia/Shanghai');
  await expect(page.getByTestId('chart-heatmap').locator('svg')).toBeVisible();
  await expect(page.getByTestId('stats-table').locator('.ant-table-row')).toHaveCount(1);
  await expect(page.getByText(t('operateStatistics.topPoints'))).toBeVisible();
  await expectNoRawKeys(page);

  // This month instead: the URL keeps the period, the figures still hold the session.
  await page.getByTestId('stats-period').getByText(t('enums.statsPeriod.month')).click();
  await expect(page).toHaveURL(/period=month/);
  const month = await ok(
    api<{ startDate: string; totals: { chargeCount: number } }>(
      page,
      'GET',
      `/web/statistics/operation?period=month&stationId=${stationId}`,
    ),
  );
  await expect(page.getByTestId('stats-zone')).toContainText(month.startDate);
  await expect(page.getByTestId('stat-sessions')).toContainText(String(month.totals.chargeCount));

  const download = page.waitForEvent('download');
  await page.getByTestId('stats-export').click();
  expect((await download).suggestedFilename()).toMatch(/^operateStatistics_.*\.xlsx$/);

  // Financial statistics by station: the session's bill is today's income.
  await page.goto(`/financialManagement/financialStatistics?period=day&groupBy=station&stationId=${stationId}`);
  const today = await ok(
    api<{ totals: { incomeCents: number } }>(page, 'GET', `/web/statistics/financial?period=day&groupBy=station&stationId=${stationId}`),
  );
  expect(today.totals.incomeCents, 'the session was billed on its StopTransaction').toBeGreaterThan(0);
  await expect(page.getByTestId('stat-income')).toContainText((today.totals.incomeCents / 100).toFixed(2));
  await expect(page.getByTestId('stats-table').locator('.ant-table-row')).toHaveCount(1);
  await expect(page.getByTestId('chart-by-kind').locator('svg')).toBeVisible();
  await expectNoRawKeys(page);

  await page.getByTestId('stats-period').getByText(t('enums.statsPeriod.week')).click();
  await expect(page).toHaveURL(/period=week/);
  const week = await ok(
    api<{ startDate: string }>(page, 'GET', `/web/statistics/financial?period=week&groupBy=station&stationId=${stationId}`),
  );
  await expect(page.getByTestId('stats-zone')).toContainText(week.startDate);
  const money = page.waitForEvent('download');
  await page.getByTestId('stats-export').click();
  expect((await money).suggestedFilename()).toMatch(/^financialStatistics_.*\.xlsx$/);
  expect(errors).toEqual([]);
});
