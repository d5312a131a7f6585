import { expect, test } from '@playwright/test';
import { api, connectCharger, expectNoRawKeys, ok, setLocaleCookie, signIn, tr } from './fixtures';

/**
 * Issue 19's "done means": a gold member holding a voucher charges during a service-fee activity. The
 * printed bill shows the tariff lines, the member discount, the activity discount and the voucher,
 * totalling to the cent, and the voucher is used. Everything is scoped to this spec's own station and
 * user (the level reached by override, the activity at this station only), so other specs' bills are untouched.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

test('a gold member with a voucher charges during an activity: the printed bill shows every discount, to the cent', async ({ page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  await signIn(page, 'en-US');
  const info = await ok(api<{ providerId: number }>(page, 'POST', '/web/info', {}));
  const providerId = info.providerId;
  const station = await ok(
    api<{ id: number }>(page, 'POST', '/web/station/add', {
      stationName: `E2E ops ${stamp}`,
      providerId,
      country: 'CN',
      address: 'Loyalty road 1',
      longitude: 121.47,
      latitude: 31.23,
      timeZone: 'Asia/Shanghai',
    }),
  );
  // 1.00 electricity + 0.50 service per kWh, all day.
  await ok(
    api(page, 'POST', '/web/price/add', {
      stationId: station.id,
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
  const serial = `E2E-OPS-${stamp}`;
  const point = await ok(
    api<{ ocppKey: string }>(page, 'POST', '/web/point/add', {
      serialNumber: serial,
      pointName: `Bay ${stamp}`,
      equipmentType: 'ac',
      ratedPowerW: 22_000,
      stationId: station.id,
      connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type2' }],
    }),
  );
  const user = await ok(
    api<{ id: number; account: string }>(page, 'POST', '/web/chargeUser/add', { account: `ops${stamp}`, userType: 'card', providerId }),
  );
  const idTag = `OPS${stamp}`.slice(0, 20);
  await ok(
    api(page, 'POST', '/web/card/add', {
      cardNumber: `OPS-${stamp}`,
      physicalId: idTag,
      providerId,
      chargeUserId: user.id,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      prepaidCents: 100_00,
      email: 'driver@example.test',
    }),
  );

  // Gold (10% off the service fee), reached by override; nobody reaches its threshold.
  const gold = await ok(
    api<{ id: number }>(page, 'POST', '/web/memberLevel/add', {
      providerId,
      name: `Gold ${stamp}`,
      sortOrder: 1 + (Date.now() % 98),
      basis: 'spend',
      threshold: 999_999_999,
      discountPercent: 10,
      validityDays: 365,
    }),
  );
  await ok(
    api(page, 'POST', '/web/member/override', {
      id: user.id,
      overrideLevelId: gold.id,
      overrideReason: 'E2E gold member',
      overrideUntil: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }),
  );
  // A 1.00 voucher, and a 20% activity at this station.
  const template = await ok(
    api<{ id: number }>(page, 'POST', '/web/voucherTemplate/add', {
      providerId,
      name: `One off ${stamp}`,
      kind: 'amount',
      value: 100,
      minBillCents: 0,
      stationIds: [station.id],
      // Fixed dates from yesterday: the session below ended before the voucher was issued.
      validDays: null,
      validFrom: new Date(Date.now() - 86_400_000).toISOString(),
      validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }),
  );
  await ok(api(page, 'POST', '/web/voucher/issue', { templateId: template.id, chargeUserIds: [user.id] }));
  const activity = await ok(
    api<{ id: number }>(page, 'POST', '/web/activity/add', {
      providerId,
      name: `Spring ${stamp}`,
      type: 'serviceDiscount',
      startTime: new Date(Date.now() - 86_400_000).toISOString(),
      endTime: new Date(Date.now() + 86_400_000).toISOString(),
      stationIds: [station.id],
      discountKind: 'percent',
      discountValue: 20,
    }),
  );
  await ok(api(page, 'POST', '/web/activity/activate', { id: activity.id }));

  // 10 kWh: 10.00 electricity + 5.00 service; member 0.50, activity 20% of 4.50 = 0.90, voucher 1.00 → 12.60.
  const cp = await connectCharger(serial, point.ocppKey);
  let transactionId: number;
  try {
    await cp.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Ops' });
    const t0 = Date.now() - 60 * 60_000;
    transactionId = (await cp.call('StartTransaction', { connectorId: 1, idTag, meterStart: 0, timestamp: new Date(t0).toISOString() }))
      .transactionId as number;
    await cp.call('StopTransaction', {
      transactionId,
      idTag,
      meterStop: 10_000,
      timestamp: new Date(t0 + 50 * 60_000).toISOString(),
      reason: 'Local',
    });
  } finally {
    cp.close();
  }

  await page.goto(`/historyRecord/chargeRecord/print/${transactionId}`);
  const bill = page.getByTestId('print-bill');
  await expect(bill).toBeVisible();
  const lines = page.getByTestId('bill-lines');
  await expect(lines.locator('tbody tr').filter({ hasText: t('enums.feeKind.elec') })).toContainText('10.00');
  await expect(lines.locator('tbody tr').filter({ hasText: t('enums.feeKind.service') })).toContainText('5.00');
  await expect(lines.locator('[data-discount="member"]')).toContainText(t('enums.discountKind.member'));
  await expect(lines.locator('[data-discount="member"]')).toContainText('-0.50');
  await expect(lines.locator('[data-discount="activity"]')).toContainText(`Spring ${stamp}`);
  await expect(lines.locator('[data-discount="activity"]')).toContainText('-0.90');
  await expect(lines.locator('[data-discount="voucher"]')).toContainText('-1.00');
  await expect(page.getByTestId('bill-discount-total')).toHaveText('-2.40');
  await expect(page.getByTestId('bill-total')).toHaveText('12.60');
  await expectNoRawKeys(page);

  // The same bill printed in Chinese.
  await setLocaleCookie(page, 'zh-CN');
  await page.reload();
  const zh = (key: string) => tr('zh-CN', key);
  await expect(page.getByTestId('print-bill')).toContainText(zh('chargeRecord.bill.title'));
  await expect(lines.locator('tbody tr').filter({ hasText: zh('enums.feeKind.elec') })).toContainText('10.00');
  await expect(lines.locator('tbody tr').filter({ hasText: zh('enums.feeKind.service') })).toContainText('5.00');
  await expect(lines.locator('[data-discount="member"]')).toContainText(zh('enums.discountKind.member'));
  await expect(lines.locator('[data-discount="activity"]')).toContainText(zh('enums.discountKind.activity'));
  await expect(lines.locator('[data-discount="voucher"]')).toContainText(zh('enums.discountKind.voucher'));
  await expect(lines.locator('[data-discount="voucher"]')).toContainText('-1.00');
  await expect(page.getByTestId('bill-total')).toHaveText('12.60');
  await expectNoRawKeys(page);

  // The voucher is used, on this session.
  const vouchers = await ok(
    api<{ list: { status: string; transactionId: number | null; discountCents: number | null }[] }>(
      page,
      'GET',
      `/web/voucher/list?page=1&limit=10&templateId=${template.id}`,
    ),
  );
  expect(vouchers.list).toEqual([expect.objectContaining({ status: 'used', transactionId, discountCents: 100 })]);
});
