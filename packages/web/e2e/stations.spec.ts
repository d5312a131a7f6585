import { expect, test, type Locator, type Page } from '@playwright/test';
import { flowLocales, api, chooseFromDropdown, expectNoRawKeys, loose, signIn, toast, tr, watchConsole, type Locale } from './fixtures';

const SCREEN = '/configurationManagement/stationManagement';
/** This screen's own catalogue parts, beside the fixtures' list of raw-key prefixes. */
const OWN_RAW_KEY = /\b(?:station|point)\.[a-z][\w.]*/;

async function expectNoOwnRawKeys(page: Page) {
  await expectNoRawKeys(page);
  const text = await page.evaluate(() => document.body.innerText);
  expect(text.match(OWN_RAW_KEY)?.[0], 'raw i18n key on the page').toBeUndefined();
}

/** A button by its text (icons add their names to the accessible name, e.g. "plus Add"). */
const button = (scope: Page | Locator, text: string) => scope.locator('button').filter({ hasText: loose(text) });
const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });
const formDialog = (page: Page) =>
  page
    .locator('.ant-modal:not(.ant-modal-confirm)')
    .filter({ has: page.locator('form') })
    .last();

/** A row action: a button in the row, or an entry of the row's "more" menu. */
async function rowAction(page: Page, r: Locator, text: string, more: string) {
  const inline = button(r, text);
  if (await inline.count()) return inline.first().click();
  await chooseFromDropdown(page, button(r, more), loose(text));
}

/**
 * Pick an option of an antd Select, typing to narrow long lists: the list is virtual, so an option
 * past the first screenful is not in the page until typing brings it up (other specs add stations).
 */
async function choose(page: Page, select: Locator, option: string, typed?: string) {
  await select.click();
  if (typed) await select.locator('input').fill(typed);
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

/**
 * Open a tab of the screen and wait until it is the one shown: the points table's rows name their station,
 * so a row looked up by a station's name before the switch is drawn can be the point's (a full run on a
 * loaded machine deleted the moved point instead of trying to delete its new station).
 */
async function openTab(page: Page, title: string) {
  const tab = page.locator('.ant-card-head').getByRole('tab', { name: title });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

for (const locale of flowLocales('en-US')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale as Locale, key, params);
  const stamp = `${locale === 'zh-CN' ? 'zh' : 'en'}${Date.now().toString(36)}`;
  const stationName = `E2E Station ${stamp}`;
  const otherStation = `E2E Other ${stamp}`;
  const serial = `E2E-${stamp}`.toUpperCase();

  test.describe(`stations and charge points (${locale})`, () => {
    test('new station page, a point with two connectors and its key once, edit, move, refused removal', async ({ page }) => {
      const errors = watchConsole(page);
      await signIn(page, locale);
      await page.goto(SCREEN);
      await expect(page.locator('.ant-card-head').getByRole('tab', { name: t('station.tab') })).toBeVisible();
      await expect(page.locator('.ant-card-head').getByRole('tab', { name: t('point.tab') })).toBeVisible();
      await expect(page.getByRole('columnheader', { name: t('fields.station.stationName') })).toBeVisible();
      await expectNoOwnRawKeys(page);

      // 1. A station through its own page: an empty form is refused on its fields, in the page's language.
      await button(page, t('common.add')).click();
      await expect(page).toHaveURL(new RegExp(`${SCREEN}/station/new$`));
      // Visited screens stay mounted (hidden) behind the active one: address the station form itself.
      const form = page.locator('form#station-form');
      await expect(form.getByText(t('station.sectionLocation'))).toBeVisible();
      await expectNoOwnRawKeys(page);
      await button(page, t('common.save')).click();
      await expect(form.getByText(t('validation.required', { field: t('fields.station.stationName') }))).toBeVisible();
      await form.getByLabel(t('fields.station.stationName')).fill(stationName);
      await form.getByLabel(t('fields.station.address')).fill('1 Century Avenue');
      await form.getByLabel(t('fields.station.longitude')).fill('121.5');
      await form.getByLabel(t('fields.station.latitude')).fill('31.2');
      await choose(
        page,
        page
          .locator('.ant-form-item')
          .filter({ hasText: t('fields.station.country') })
          .locator('.ant-select'),
        '(CN)',
        'CN',
      );
      await form.getByLabel(t('enums.amenity.parking')).check();
      await button(page, t('common.save')).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${SCREEN}(\\?|$)`));
      await expect(row(page, stationName)).toBeVisible();
      await expect(row(page, stationName)).toContainText(t('enums.stationStatus.operating'));
      // The same name again is refused by the server.
      expect(
        (
          await api(page, 'POST', '/web/station/add', {
            stationName,
            providerId: 1,
            country: 'CN',
            address: 'x',
            longitude: 1,
            latitude: 1,
          })
        ).code,
      ).toBe(409);
      const other = await api<{ id: number }>(page, 'POST', '/web/station/add', {
        stationName: otherStation,
        providerId: 1,
        country: 'DE',
        address: 'Quay 3',
        longitude: 13.4,
        latitude: 52.5,
      });
      expect(other.code).toBe(200);

      // 2. A charge point with two connectors; its key shows once.
      await openTab(page, t('point.tab'));
      await expect(page.getByRole('columnheader', { name: t('fields.point.serialNumber') })).toBeVisible();
      await button(page, t('common.add')).click();
      const dialog = formDialog(page);
      await expect(dialog).toBeVisible();
      await expectNoOwnRawKeys(page);
      await dialog.getByLabel(t('fields.point.serialNumber')).fill(serial);
      await dialog.getByLabel(t('fields.point.pointName')).fill('Bay 1');
      await choose(
        page,
        dialog
          .locator('.ant-form-item')
          .filter({ hasText: t('fields.point.stationId') })
          .locator('.ant-select'),
        stationName,
        stationName,
      );
      await choose(
        page,
        dialog
          .locator('.ant-form-item')
          .filter({ hasText: t('fields.point.equipmentType') })
          .locator('.ant-select'),
        t('enums.equipmentType.dc'),
      );
      await dialog.getByLabel(t('fields.point.ratedPowerKw')).fill('120');
      await button(dialog, t('point.addConnector')).click();
      await expect(dialog.getByTestId('connector-row-2')).toContainText('#2');
      await choose(page, dialog.getByTestId('connector-row-2').locator('.ant-select').last(), t('enums.connectorType.CHAdeMO'));
      await button(dialog, t('common.confirm')).click();
      const keyDialog = page.locator('.ant-modal-confirm').filter({ hasText: t('point.keyTitle', { serial }) });
      await expect(keyDialog).toBeVisible();
      await expect(keyDialog).toContainText(t('point.keyWarning'));
      const key = ((await keyDialog.getByTestId('ocpp-key').textContent()) ?? '').trim();
      expect(key).toMatch(/^[0-9a-f]{40}$/);
      await expect(keyDialog.getByTestId('ocpp-url')).toContainText(`/ocpp/${serial}`);
      await expectNoOwnRawKeys(page);
      await button(keyDialog, t('point.keyDone')).click();
      await expect(keyDialog).toBeHidden();
      const pointRow = row(page, serial);
      await expect(pointRow).toContainText(stationName);
      await expect(pointRow.locator('svg[data-connector-type]')).toHaveCount(2);
      await expect(pointRow.locator('svg[data-connector-type="CHAdeMO"]')).toHaveCount(1);
      // Never again: not in the list, not in the record.
      expect(await page.locator('body').innerText()).not.toContain(key);
      const listed = await api<{ list: { id: number; connectorCount: number }[] }>(
        page,
        'GET',
        `/web/point/list?page=1&limit=10&serialNumber=${serial}`,
      );
      expect(JSON.stringify(listed)).not.toContain(key);
      expect(listed.data.list[0]!.connectorCount).toBe(2);
      const pointId = listed.data.list[0]!.id;
      expect(JSON.stringify(await api(page, 'GET', `/web/point/get?id=${pointId}`))).not.toContain(key);

      // 3. Edit the point.
      await rowAction(page, pointRow, t('common.edit'), t('common.more'));
      const edit = formDialog(page);
      await expect(edit.getByLabel(t('fields.point.pointName'))).toHaveValue('Bay 1');
      await edit.getByLabel(t('fields.point.pointName')).fill('Bay 1 renamed');
      await button(edit, t('common.confirm')).click();
      await expect(edit).toBeHidden();
      await expect(pointRow).toContainText('Bay 1 renamed');

      // 4. Move it to the other station.
      await rowAction(page, pointRow, t('point.move'), t('common.more'));
      const move = page.locator('.ant-modal').filter({ hasText: t('point.moveTitle') });
      await expect(move).toContainText(t('point.moveHint', { serial, station: stationName }));
      await choose(page, move.locator('.ant-select'), otherStation, otherStation);
      await button(move, t('common.confirm')).click();
      await expect(toast(page, t('point.moved'))).toBeVisible();
      await expect(pointRow).toContainText(otherStation);

      // 5. The other station now has a point: removing it is refused with the reason.
      await openTab(page, t('station.tab'));
      const otherRow = row(page, otherStation);
      await expect(otherRow).toBeVisible();
      await rowAction(page, otherRow, t('common.delete'), t('common.more'));
      // The server's answer is awaited with the click (this step failed twice in full runs on a loaded machine,
      // with no toast and no way to tell whether the request was made: now the failure says which).
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/web/station/remove')),
        button(page.locator('.ant-modal-confirm'), t('common.confirm')).click(),
      ]);
      const hasPoints = t('errors.station.hasPoints', { name: otherStation, count: 1 });
      expect(await refused.json()).toMatchObject({ code: 409, msg: hasPoints });
      await expect(toast(page, hasPoints)).toBeVisible();
      await expect(otherRow).toBeVisible();

      // 6. Edit the first station on its page; its derived counts follow its points.
      const firstRow = row(page, stationName);
      await rowAction(page, firstRow, t('common.edit'), t('common.more'));
      await expect(page).toHaveURL(new RegExp(`${SCREEN}/station/edit/\\d+$`));
      await expect(form.getByLabel(t('fields.station.stationName'))).toHaveValue(stationName);
      await form.getByLabel(t('fields.station.address')).fill('2 Century Avenue');
      await button(page, t('common.save')).click();
      await expect(toast(page, t('common.success'))).toBeVisible();
      await expect(row(page, stationName)).toContainText('2 Century Avenue');
      await expect(row(page, otherStation).locator('td').filter({ hasText: /^120$/ })).toHaveCount(1);
      await expectNoOwnRawKeys(page);
      expect(errors, 'console errors').toEqual([]);
    });
  });
}
