import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { api, chooseOption, confirmDialog, expectNoRawKeys, loose, looseButton, ok, signIn, toast, tr } from './fixtures';

/**
 * Finance (issue 18), the "done means" walk: a transfer of 1,000.00 is registered split over three
 * charge users; its registrar cannot confirm it (four eyes), a second user does, and the three
 * balances, the ledger and the transfer record agree to the cent. An invoice over the credited record
 * is then applied for and issued with a PDF. The screens' words are checked in both languages by
 * screens.spec.ts, so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

async function signOut(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.removeItem('Admin-Token'));
}

test('a 1,000.00 transfer split over three users, confirmed by a second user; an invoice issued with a PDF', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const reference = `E2E-${stamp.toUpperCase()}`;
  await signIn(page, 'en-US');

  // Three fleet drivers, and a second finance user (the administrator role) to confirm.
  const users: { id: number; account: string }[] = [];
  for (const n of ['a', 'b', 'c'])
    users.push(
      await ok(
        api<{ id: number; account: string }>(page, 'POST', '/web/chargeUser/add', {
          account: `fleet${stamp}${n}`,
          userType: 'platform',
          providerId: 1,
        }),
      ),
    );
  const roles = await ok(api<{ id: number; roleKey: string }[]>(page, 'GET', '/web/permissionManage/queryRoles?roleName=Administrator'));
  const checker = { username: `checker${stamp}`, password: 'secret1' };
  await ok(
    api(page, 'POST', '/web/userManage/addUser', {
      ...checker,
      roleId: roles.find((r) => r.roleKey === 'admin')!.id,
      providerId: 1,
      phone: `138${String(Date.now()).slice(-8)}`,
    }),
  );

  // Registered: the amount and its split over the three, to the cent.
  await page.goto('/financialManagement/corporateTransfer');
  await expect(page.getByRole('columnheader', { name: t('fields.corporateTransfer.bankReference'), exact: true })).toBeVisible();
  await page
    .getByRole('button', { name: looseButton(t('common.add')) })
    .first()
    .click();
  const form = page.getByRole('dialog', { name: t('corporateTransfer.createTitle') });
  await expect(form).toBeVisible();
  await chooseOption(page, form.locator('#corporateTransfer-form_providerId'), 'CSMS', 'CSMS');
  await form.locator('#corporateTransfer-form_payerName').fill('Fleet Logistics Ltd');
  await form.locator('#corporateTransfer-form_payerAccount').fill('6222 0000 1111 2222');
  await form.locator('#corporateTransfer-form_payerBank').fill('Bank of Shanghai');
  await form.locator('#corporateTransfer-form_amountCents').fill('1000');
  await form.locator('#corporateTransfer-form_transferDate').fill('2026-11-20');
  await form.locator('#corporateTransfer-form_transferDate').press('Enter');
  await form.locator('#corporateTransfer-form_bankReference').fill(reference);
  const amounts = ['333.34', '333.33', '333.33'];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await form.getByTestId('allocation-add').click();
    const line = form.getByTestId(`allocation-${i}`);
    await chooseOption(page, line.locator('.ant-select input'), users[i]!.account, users[i]!.account);
    await line.locator('.ant-input-number input').fill(amounts[i]!);
  }
  await expect(form.getByTestId('allocation-sum')).toHaveText(t('corporateTransfer.allocated', { sum: '1000.00', amount: '1000.00' }));
  await expectNoRawKeys(page);
  await form.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('corporateTransfer.registered'))).toBeVisible();
  await expect(form).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: reference });
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'registered');

  // The registrar cannot confirm his own registration.
  await row.getByRole('button', { name: looseButton(t('corporateTransfer.confirm')) }).click();
  await confirmDialog(page)
    .getByRole('button', { name: loose(t('common.confirm')) })
    .click();
  await expect(toast(page, t('errors.transfer.sameUser'))).toBeVisible();
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'registered');

  // A second user confirms: every allocation is credited.
  await signOut(page);
  await signIn(page, 'en-US', checker);
  await page.goto('/financialManagement/corporateTransfer');
  await row.getByRole('button', { name: looseButton(t('corporateTransfer.confirm')) }).click();
  await confirmDialog(page)
    .getByRole('button', { name: loose(t('common.confirm')) })
    .click();
  await expect(toast(page, t('corporateTransfer.confirmed'))).toBeVisible();
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'confirmed');
  const balances = [];
  for (const u of users)
    balances.push((await ok(api<{ mobileBalanceCents: number }>(page, 'GET', `/web/chargeUser/get?id=${u.id}`))).mobileBalanceCents);
  expect(balances).toEqual([33_334, 33_333, 33_333]);
  const ledger = await ok(
    api<{ list: { id: number; amountCents: number; balanceAfterCents: number; account: string }[] }>(
      page,
      'GET',
      `/web/rechargeRecord/list?page=1&limit=10&tradeType=transfer&thirdPartyTxnId=${reference}`,
    ),
  );
  expect(ledger.list.map((l) => l.amountCents).sort()).toEqual([33_333, 33_333, 33_334]);

  // The transfer record: its allocations with the ledger rows that credited them.
  await page.goto(`/financialManagement/transferRecord?bankReference=${reference}`);
  const record = page.getByRole('row').filter({ hasText: reference });
  await record.locator('.ant-table-row-expand-icon').click();
  const allocations = page.getByTestId('allocations-table');
  for (const l of ledger.list) {
    const line = allocations.getByRole('row').filter({ hasText: l.account });
    await expect(line).toContainText(String(l.id));
    await expect(line).toContainText((l.balanceAfterCents / 100).toFixed(2));
  }
  await expectNoRawKeys(page);

  // An invoice for the first user over the credited record, issued with a PDF.
  await page.goto('/financialManagement/invoiceRecordManage');
  await page
    .getByRole('button', { name: looseButton(t('common.add')) })
    .first()
    .click();
  const apply = page.getByRole('dialog', { name: t('invoice.createTitle') });
  await chooseOption(page, apply.locator('#invoice-form_chargeUserId'), users[0]!.account, users[0]!.account);
  const credit = ledger.list.find((l) => l.account === users[0]!.account)!;
  const billable = apply
    .getByTestId('invoice-billable')
    .getByRole('row')
    .filter({ hasText: String(credit.id) });
  await billable.locator('.ant-checkbox-input').check();
  await expect(apply.getByTestId('invoice-total')).toHaveText(t('invoice.total', { count: 1, amount: '333.34' }));
  await apply.locator('#invoice-form_name').fill('Fleet Logistics Ltd');
  await apply.locator('#invoice-form_recipientName').fill('Wang Fang');
  await apply.locator('#invoice-form_mobile').fill('13900001111');
  await apply.locator('#invoice-form_email').fill('wang.fang@fleet.test');
  await apply.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('invoice.applied'))).toBeVisible();
  const invoiceRow = page.getByRole('row').filter({ hasText: users[0]!.account });
  await expect(invoiceRow.locator('[data-status]')).toHaveAttribute('data-status', 'applied');

  await invoiceRow.getByRole('button', { name: looseButton(t('invoice.issue')) }).click();
  const issue = page.getByRole('dialog', { name: t('invoice.issueTitle', { id: await invoiceRow.locator('td').first().innerText() }) });
  await expect(issue.getByTestId('invoice-items')).toContainText('333.34');
  const pdf = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-')), 'invoice.pdf');
  fs.writeFileSync(pdf, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  await issue.locator('input[type=file]').setInputFiles(pdf);
  await expect(issue.locator('.ant-upload-list-item-done')).toContainText('invoice.pdf');
  await issue.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('invoice.issued'))).toBeVisible();
  await expect(invoiceRow.locator('[data-status]')).toHaveAttribute('data-status', 'issued');
  await expect(invoiceRow.locator('a').first()).toBeVisible();
  await expectNoRawKeys(page);

  // The credited record is no longer billable.
  const left = await ok(api<{ kind: string; refId: number }[]>(page, 'GET', `/web/invoice/billable?chargeUserId=${users[0]!.id}`));
  expect(left.find((b) => b.kind === 'recharge' && b.refId === credit.id)).toBeUndefined();
});

test('a transfer credited to a card, with a scanned PDF receipt that its row links', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const reference = `E2E-CARD-${stamp.toUpperCase()}`;
  await signIn(page, 'en-US');
  const card = await ok(
    api<{ id: number; cardNumber: string }>(page, 'POST', '/web/card/add', {
      cardNumber: `C${stamp}`,
      physicalId: `P${stamp}`.toUpperCase().slice(0, 20),
      providerId: 1,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      prepaidCents: 0,
      email: 'fleet@e2e.test',
    }),
  );

  await page.goto('/financialManagement/corporateTransfer');
  await page
    .getByRole('button', { name: looseButton(t('common.add')) })
    .first()
    .click();
  const form = page.getByRole('dialog', { name: t('corporateTransfer.createTitle') });
  await chooseOption(page, form.locator('#corporateTransfer-form_providerId'), 'CSMS', 'CSMS');
  await form.locator('#corporateTransfer-form_payerName').fill('Card Fleet Ltd');
  await form.locator('#corporateTransfer-form_payerAccount').fill('6222 0000 3333 4444');
  await form.locator('#corporateTransfer-form_payerBank').fill('Bank of Shanghai');
  await form.locator('#corporateTransfer-form_amountCents').fill('50');
  await form.locator('#corporateTransfer-form_transferDate').fill('2026-11-21');
  await form.locator('#corporateTransfer-form_transferDate').press('Enter');
  await form.locator('#corporateTransfer-form_bankReference').fill(reference);
  const receipt = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'receipt-')), 'receipt.pdf');
  fs.writeFileSync(receipt, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  await form.locator('input[type=file]').setInputFiles(receipt);
  await expect(form.locator('.ant-upload-list-item-done')).toContainText('receipt.pdf');
  const line = form.getByTestId('allocation-0');
  await line.getByText(t('enums.transferTargetKind.card'), { exact: true }).click();
  await chooseOption(page, line.locator('.ant-select input'), card.cardNumber, card.cardNumber);
  await line.locator('.ant-input-number input').fill('50');
  await form.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('corporateTransfer.registered'))).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText(card.cardNumber);
  await expect(row.getByTestId('receipt-link')).toHaveAttribute('href', /common\/download\/resource\?resource=.*\.pdf$/);
});
