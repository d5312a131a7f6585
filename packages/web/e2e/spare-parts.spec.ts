import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { api, chooseOption, expectNoRawKeys, loose, looseButton, ok, pointWithCard, signIn, toast, tr } from './fixtures';

/**
 * Spare parts (issue 17 item 4): parts come in from the import template (a bad row reported), a
 * service man applies for some of them for a work order (opened over the API, as an operator would by
 * hand), the approver agrees, the stock falls and the flow chart shows the decision. The screen's words
 * are the same in both languages (screens.spec.ts renders every menu screen in each), so one run in English.
 */
const t = (key: string, params?: Record<string, string | number>) => tr('en-US', key, params);

/** Opens a tab and waits for its own list: until then the other tab's buttons (its own Add) are still on the page. */
async function openTab(page: Page, tab: 'partsTab' | 'applyTab') {
  await page.getByRole('tab', { name: t(`material.${tab}`) }).click();
  const header = tab === 'applyTab' ? 'fields.materialApply.status' : 'fields.material.partsNumber';
  await expect(page.getByRole('columnheader', { name: t(header), exact: true })).toBeVisible();
}

test('import parts, apply for them on a work order, agree: the stock falls and the flow chart shows it', async ({ page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const partsNumber = `E2E-SP-${stamp}`;
  await signIn(page, 'en-US');
  const { serialNumber } = await pointWithCard(page, 'SP', stamp);
  const order = await ok(
    api<{ taskId: string }>(page, 'POST', '/web/createArtificialOrder', {
      serialNumber,
      connectorNo: 1,
      faultCode: 'ConnectorLockFailure',
      description: 'The connector lock does not engage',
      priority: 'normal',
    }),
  );

  // The template, in the page's language, with one good row and one bad.
  await page.goto('/workOrder/sparePartsManage');
  await expect(page.getByRole('columnheader', { name: t('fields.material.partsNumber'), exact: true })).toBeVisible();
  await page.getByTestId('material-import').click();
  const dialog = page.getByRole('dialog', { name: t('material.importTitle') });
  await expect(dialog).toBeVisible();
  const download = page.waitForEvent('download');
  await dialog.getByTestId('import-template').click();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parts-')), 'parts.xlsx');
  await (await download).saveAs(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0]!;
  expect(ws.getRow(1).getCell(1).text).toBe(`${t('fields.materialImport.partsNumber')} *`);
  ws.addRow([partsNumber, 'Connector lock actuator', 'LA-12', 'pcs', 10, 'CSMS', 'Shelf 3']);
  ws.addRow([`${partsNumber}-X`, 'Fuse', '', '', 'ten', 'CSMS']);
  await wb.xlsx.writeFile(file);
  await dialog.locator('input[type=file]').setInputFiles(file);
  await expect(dialog.locator('.ant-upload-list-item-done')).toContainText('parts.xlsx');
  await dialog.getByTestId('import-start').click();
  await expect(dialog.getByTestId('import-summary')).toContainText(
    t('material.summary', { total: 2, imported: 1, restocked: 0, rejected: 1 }),
  );
  await expect(dialog.locator('.ant-table-tbody tr.ant-table-row')).toContainText(t('errors.materialImport.badCount', { max: 1000000 }));
  await expectNoRawKeys(page);
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: loose(t('common.close')) })
    .click();

  const partRow = page.getByRole('row').filter({ hasText: partsNumber }).filter({ hasText: 'LA-12' });
  await expect(partRow.locator('[data-stock]')).toHaveAttribute('data-stock', '10');

  // The application: the work order by its task ID, the part and a count, the receiver and the delivery.
  await openTab(page, 'applyTab');
  await page
    .getByRole('button', { name: looseButton(t('common.add')) })
    .first()
    .click();
  const apply = page.getByRole('dialog', { name: t('materialApply.createTitle') });
  await expect(apply).toBeVisible();
  await chooseOption(page, apply.locator('#materialApply-form_workOrderTaskId'), order.taskId, new RegExp(order.taskId));
  const line = apply.getByTestId('apply-line-0');
  await chooseOption(page, line.locator('.ant-select input'), partsNumber, new RegExp(`${partsNumber} ·`));
  await line.locator('.ant-input-number input').fill('4');
  await apply.locator('#materialApply-form_receiver').fill('Sam Service');
  await apply.locator('#materialApply-form_receiverPhone').fill('13900001111');
  await apply.locator('#materialApply-form_deliveryAddress').fill('Depot 1, Harbour road');
  await expectNoRawKeys(page);
  await apply.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('materialApply.created'))).toBeVisible();
  await expect(apply).toHaveCount(0);

  const applyRow = page.getByRole('row').filter({ hasText: order.taskId });
  await expect(applyRow.locator('[data-status]')).toHaveAttribute('data-status', 'applied');
  await expect(applyRow).toContainText(`${partsNumber} ×4`);

  // Agreed: the stock falls by the count.
  await applyRow.getByRole('button', { name: looseButton(t('materialApply.approve')) }).click();
  const approve = page.getByRole('dialog');
  await expect(approve).toContainText(partsNumber);
  await approve.getByTestId('approve-result').getByText(t('enums.materialApplyResult.agreed'), { exact: true }).click();
  await page.locator('#materialApply-form_auditOpinion').fill('Ship with the morning van');
  await approve.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
  await expect(toast(page, t('materialApply.approved'))).toBeVisible();
  await expect(applyRow.locator('[data-status]')).toHaveAttribute('data-status', 'agreed');
  await expect(applyRow.getByRole('button', { name: looseButton(t('materialApply.approve')) })).toHaveCount(0);

  // The flow chart: applied passed, agreed current, not agreed never reached; the steps with the opinion.
  await applyRow.getByRole('button', { name: looseButton(t('materialApply.flowChart')) }).click();
  const flow = page.getByRole('dialog');
  await expect(flow.locator('[data-status="agreed"][data-state="current"]')).toBeVisible();
  await expect(flow.locator('[data-status="applied"][data-state="done"]')).toBeVisible();
  await expect(flow.locator('[data-status="notAgreed"][data-state="todo"]')).toBeVisible();
  await expect(flow.getByTestId('apply-steps')).toContainText('Ship with the morning van');
  await expectNoRawKeys(page);
  await flow.locator('.ant-modal-close').click();

  await openTab(page, 'partsTab');
  await expect(partRow.locator('[data-stock]')).toHaveAttribute('data-stock', '6');
});
