import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  api,
  confirmDialog,
  connectCharger,
  expectNoRawKeys,
  flowLocales,
  loose,
  ok,
  pointWithCard,
  signIn,
  tr,
  watchConsole,
  type Locale,
} from './fixtures';

/**
 * Charging records end to end: a charger drives two sessions through the real OCPP endpoint (a raw
 * WebSocket client), the operator finds them, sees the curves, confirms the invalid one, prints
 * the bill, exports with progress, and reads the alarm records and the dashboard statistics.
 */
const SHOTS = '/tmp/shots-H';
fs.mkdirSync(SHOTS, { recursive: true });

const RECORDS = '/historyRecord/chargeRecord';
/** A button's accessible name also holds its icon's label ('eye Detail'), and antd spaces two Chinese characters. */
const withIcon = (text: string) => new RegExp(`^(?:[\\w-]+\\s+)?${loose(text).source.slice(1)}`);
const ALARMS = '/historyRecord/alarmRecord';

/** An instant on a zone's wall clock (`YYYY-MM-DD HH:mm:ss`), worked out here independently of the console. */
const wallClockIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));

/** Valley before 08:00, peak 08:00–12:00, flat after: energy and money land on more than one line. */
const slots = Array.from({ length: 48 }, (_, i) => (i < 16 ? 'valley' : i < 24 ? 'peak' : 'flat'));

interface Seeded {
  serial: string;
  valid: number;
  invalid: number;
}

const sample = (at: number, wh: number, k: number) => ({
  timestamp: new Date(at).toISOString(),
  sampledValue: [
    { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
    { value: (6.5 + (k % 3) * 0.3).toFixed(2), measurand: 'Power.Active.Import', unit: 'kW' },
    { value: (28 + k).toFixed(1), measurand: 'Current.Import', unit: 'A' },
    { value: '32', measurand: 'Current.Offered', unit: 'A' },
    { value: (228 + (k % 4)).toFixed(1), measurand: 'Voltage', unit: 'V' },
    { value: String(30 + k * 6), measurand: 'SoC', unit: 'Percent' },
    { value: (31 + k * 0.8).toFixed(1), measurand: 'Temperature', unit: 'Celsius' },
  ],
});

/** A station with a price, a point with its key, a card, and two sessions from the charger (the second with a meter jump), plus a cleared fault. */
async function seed(page: Page, tag: string): Promise<Seeded> {
  const info = await ok(api<{ providerId: number }>(page, 'POST', '/web/info', {}));
  const station = await ok(
    api<{ id: number }>(page, 'POST', '/web/station/add', {
      stationName: `E2E records ${tag}`,
      providerId: info.providerId,
      country: 'CN',
      address: `${tag} Harbour Road`,
      longitude: 121.47,
      latitude: 31.23,
      timeZone: 'Asia/Shanghai',
    }),
  );
  const fees = { sharpElec: 15000, sharpService: 5000, peakElec: 12345, peakService: 4000, flatElec: 8000, flatService: 3000 };
  await ok(
    api(page, 'POST', '/web/price/add', {
      stationId: station.id,
      effectiveFrom: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      confirmPast: true,
      ...fees,
      valleyElec: 3333,
      valleyService: 1000,
      reserveFeeCents: 0,
      slots,
    }),
  );
  const {
    serialNumber: serial,
    key,
    physicalId: uid,
  } = await pointWithCard(page, 'REC', tag, {
    stationId: station.id,
    providerId: info.providerId,
    ratedPowerW: 7000,
    prepaidCents: 100_000,
  });

  const cp = await connectCharger(serial, key);
  try {
    await cp.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Records' });
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    const run = async (startAt: number, jump: boolean) => {
      const start = await cp.call('StartTransaction', {
        connectorId: 1,
        idTag: uid,
        meterStart: 100_000,
        timestamp: new Date(startAt).toISOString(),
      });
      const transactionId = start.transactionId as number;
      let wh = 100_000;
      for (let k = 1; k <= 8; k++) {
        // ~6.5 kW for 5 minutes ≈ 540 Wh; the invalid session's register leaps by 60 kWh once.
        wh += jump && k === 5 ? 60_000 : 540;
        await cp.call('MeterValues', { connectorId: 1, transactionId, meterValue: [sample(startAt + k * 300_000, wh, k)] });
      }
      await cp.call('StopTransaction', {
        transactionId,
        idTag: uid,
        meterStop: wh + 200,
        timestamp: new Date(startAt + 45 * 60_000).toISOString(),
        reason: 'EVDisconnected',
      });
      return transactionId;
    };
    const now = Date.now();
    const valid = await run(now - 2 * 3_600_000, false);
    const invalid = await run(now - 60 * 60_000, true);
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted', info: 'RCD tripped' });
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    return { serial, valid, invalid };
  } finally {
    cp.close();
  }
}

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale, key, params);
  const lang: Locale = locale;

  test.describe(`charging and alarm records (${locale})`, () => {
    // A browser far from the station (Asia/Shanghai): the lists must still show the station's clock.
    test.use({ timezoneId: 'America/New_York' });

    test('find a session, see its curves, confirm the invalid one, print the bill, export with progress', async ({ page }) => {
      // A long story (two sessions over OCPP, confirm, print, export, alarms, dashboard) on a shared machine.
      test.setTimeout(180_000);
      const errors = watchConsole(page);
      await signIn(page, lang);
      const tag = `${locale.slice(0, 2)}${Date.now().toString(36)}`;
      const s = await seed(page, tag);

      // The list, searched by the transaction: money in $, energy in kWh.
      await page.goto(`${RECORDS}?id=${s.valid}`);
      const row = page.locator('.ant-table-row').filter({ hasText: String(s.valid) });
      await expect(row).toBeVisible();
      await expect(row.getByText(s.serial)).toBeVisible();
      await expect(row.getByText(t('enums.chargeValidity.valid'))).toBeVisible();
      const billed = await api<{ totalCents: number | null; energyWh: number; startTime: string; endTime: string }>(
        page,
        'GET',
        `/web/chargeRecord/get?id=${s.valid}`,
      );
      expect(billed.data.totalCents, 'the valid session is billed on its StopTransaction').toBeGreaterThan(0);
      await expect(row.getByText((billed.data.totalCents! / 100).toFixed(2), { exact: true })).toBeVisible();
      await expect(row.getByText((billed.data.energyWh / 1000).toFixed(3), { exact: true })).toBeVisible();
      // Start and end on the station's clock, as on the detail page and the bill; hovering names the zone.
      const started = row.getByText(wallClockIn(billed.data.startTime, 'Asia/Shanghai'), { exact: true });
      await expect(started).toBeVisible();
      await expect(row.getByText(wallClockIn(billed.data.endTime, 'Asia/Shanghai'), { exact: true })).toBeVisible();
      await expect(page.getByTestId('list-zone-note')).toHaveText(t('chargeRecord.listTimeZoneNote'));
      await started.hover();
      await expect(page.getByRole('tooltip')).toHaveText(t('common.stationTimeZone', { tz: 'Asia/Shanghai' }));
      await expectNoRawKeys(page);

      // All records of this point: the invalid one waits for confirmation.
      await page.goto(`${RECORDS}?validity=invalid`);
      const bad = page.locator('.ant-table-row').filter({ hasText: String(s.invalid) });
      await expect(bad.getByText(t('enums.chargeValidity.invalid'))).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/records-list-${locale}.png`, fullPage: true });

      // Detail: the alert, the six curves, then the confirmation.
      await bad.getByRole('button', { name: withIcon(t('chargeRecord.detail')) }).click();
      await expect(page).toHaveURL(new RegExp(`${RECORDS}/detail/${s.invalid}$`));
      await expect(page.getByTestId('record-alert')).toContainText(t('enums.invalidReason.meterJump'));
      for (const key of ['powerW', 'soc', 'temperatureC', 'currentImportA', 'currentOfferedA', 'voltageV']) {
        const curve = page.getByTestId(`curve-${key}`);
        await expect(curve.getByText(t(`fields.chargeRecord.${key}`))).toBeVisible();
        // Eight samples, drawn by ECharts as one line (and its area).
        await expect(curve.getByTestId('chart-line')).toHaveAttribute('data-points', '8');
        await expect(curve.getByTestId('chart-line').locator('svg')).toBeVisible();
      }
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/record-detail-invalid-${locale}.png`, fullPage: true });
      await page.getByTestId('record-confirm').click();
      const dialog = confirmDialog(page);
      await expect(dialog).toContainText(t('enums.invalidReason.meterJump'));
      await dialog.getByRole('button', { name: loose(t('common.confirm')) }).click();
      // The alert now names who confirmed it.
      await expect(page.getByTestId('record-alert')).toContainText('admin');
      const confirmed = await api<{ validity: string; totalCents: number; lines: unknown[] }>(
        page,
        'GET',
        `/web/chargeRecord/get?id=${s.invalid}`,
      );
      expect(confirmed.data).toMatchObject({ validity: 'confirmed' });
      expect(confirmed.data.totalCents).toBeGreaterThan(0);
      expect(confirmed.data.lines.length).toBeGreaterThan(0);
      await expect(page.getByText(t('chargeRecord.noLines'))).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/record-detail-confirmed-${locale}.png`, fullPage: true });

      // The print page, in the page's language, with Print calling window.print().
      await page.getByTestId('record-print').click();
      await expect(page).toHaveURL(new RegExp(`${RECORDS}/print/${s.invalid}$`));
      const bill = page.getByTestId('print-bill');
      await expect(bill.getByText(t('chargeRecord.bill.title'))).toBeVisible();
      await expect(bill).toContainText(`E2E records ${tag}`);
      await expect(page.getByTestId('bill-total')).toHaveText((confirmed.data.totalCents / 100).toFixed(2));
      await expectNoRawKeys(page);
      await page.evaluate(() => {
        const w = window as unknown as { printed: number; print: () => void };
        w.printed = 0;
        w.print = () => void w.printed++;
      });
      await page.getByTestId('print-button').click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
      await page.screenshot({ path: `${SHOTS}/record-print-${locale}.png`, fullPage: true });
      // On paper only the sheet remains: no menu, no buttons.
      await page.emulateMedia({ media: 'print' });
      await expect(page.locator('.ant-layout-sider')).toBeHidden();
      await expect(page.getByTestId('print-button')).toBeHidden();
      await expect(bill).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/record-print-media-${locale}.png`, fullPage: true });
      await page.emulateMedia({ media: 'screen' });

      // Export the month, with the progress notification while the server works.
      await page.goto(`${RECORDS}?startTime=${encodeURIComponent(new Date(Date.now() - 30 * 86_400_000).toISOString())}`);
      await expect(page.locator('.ant-table-row').first()).toBeVisible();
      await page.route('**/prod-api/web/chargeRecord/export', async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.getByRole('button', { name: withIcon(t('common.export')) }).hover();
      const download = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: t('kit.exportCsv') }).click();
      await expect(page.locator('.ant-notification-notice').filter({ hasText: t('kit.exportWaiting') })).toBeVisible();
      const file = await download;
      await expect(page.locator('.ant-notification-notice').filter({ hasText: t('kit.exportDone') })).toBeVisible();
      const csv = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
      expect(csv).toContain(t('fields.chargeRecord.totalCents'));
      expect(csv).toContain(String(s.valid));
      expect(csv).toContain(String(s.invalid));
      await page.unroute('**/prod-api/web/chargeRecord/export');

      // Alarm records: the fault, cleared, in words.
      await page.goto(`${ALARMS}?serialNumber=${s.serial}`);
      const alarm = page.locator('.ant-table-row').filter({ hasText: s.serial });
      await expect(alarm.getByText(t('enums.chargePointErrorCode.GroundFailure'))).toBeVisible();
      await expect(alarm.getByText(t('enums.alarmLevel.serious'))).toBeVisible();
      await expect(alarm.getByText(t('enums.alarmState.cleared'))).toBeVisible();
      const alarms = await api<{ list: { occurTime: string; clearTime: string }[] }>(
        page,
        'GET',
        `/web/alarmRecord/list?serialNumber=${s.serial}`,
      );
      // Occurred and cleared on the station's clock (the charger may report both within one second).
      const { occurTime, clearTime } = alarms.data.list[0]!;
      const cells = [occurTime, clearTime].map((at) => wallClockIn(at, 'Asia/Shanghai'));
      for (const text of new Set(cells)) {
        await expect(alarm.getByText(text, { exact: true })).toHaveCount(cells.filter((c) => c === text).length);
      }
      await expect(page.getByTestId('list-zone-note')).toHaveText(t('alarmRecord.timeZoneNote'));
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/alarms-${locale}.png`, fullPage: true });

      // The dashboard: today's figures and the revenue trend, as the statistics endpoint says.
      await page.goto('/dashboard');
      const today = await api<{ energyWh: number; incomeCents: number; chargeCount: number }>(page, 'GET', '/web/statistics/today');
      await expect(page.getByTestId('today-count')).toContainText(String(today.data.chargeCount));
      await expect(page.getByTestId('today-income')).toContainText((today.data.incomeCents / 100).toFixed(2));
      await expect(page.getByTestId('widget-revenue').getByTestId('chart-line').locator('svg')).toBeVisible();
      await page.getByTestId('trend-period').getByText(t('enums.trendPeriod.month')).click();
      const months = await api<{ points: { incomeCents: number }[] }>(page, 'GET', '/web/statistics/revenueTrend?period=month');
      const total = months.data.points.reduce((sum, p) => sum + p.incomeCents, 0);
      expect(total).toBeGreaterThanOrEqual(billed.data.totalCents! + confirmed.data.totalCents);
      await expect(page.getByTestId('trend-total')).toContainText((total / 100).toFixed(2));
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/dashboard-${locale}.png`, fullPage: true });
      // A figure drills into its list, filtered to what it counts: today's records.
      const day = await api<{ date: string }>(page, 'GET', '/web/statistics/today');
      await page.getByTestId('drill-today-count').click();
      await expect(page).toHaveURL(new RegExp(`${RECORDS}\\?startTime=${day.data.date}&endTime=${day.data.date}$`));
      await expect(page.locator('.ant-picker-range input').first()).toHaveValue(day.data.date);
      expect(errors, 'console errors').toEqual([]);
    });
  });
}
