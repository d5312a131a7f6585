import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoRawKeys, flowLocales, loose, signIn, toast, tr, watchConsole } from './fixtures';

/**
 * A card's physical id is the charger's idTag, an OCPP 1.6 IdToken: the issue form takes a contract
 * id such as `NL-TNM-C12345678-X` as typed, and refuses what OCPP does not allow, in both languages.
 */
const withIcon = (text: string) => new RegExp(`^(?:[\\w-]+\\s+)?${loose(text).source.slice(1)}`);

/** Choose an option of an antd select: type to search, click the option whose text contains `option`. */
async function choose(page: Page, field: Locator, option: string) {
  await field.click();
  await field.fill(option);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params?: Record<string, string | number>) => tr(locale, key, params);

  test(`issue a card whose physical id is a contract id (${locale})`, async ({ page }) => {
    const errors = watchConsole(page);
    const stamp = Date.now().toString(36).toUpperCase().slice(-6);
    // Contract ids are 18 characters; lower case is kept as issued too.
    const idTag = locale === 'zh-CN' ? `NL-TNM-C${stamp}12-X` : `nl-tnm-c${stamp.toLowerCase()}34-y`;
    const cardNumber = `CONTRACT-${locale}-${stamp}`;
    await signIn(page, locale);
    await page.goto('/userManagement/cardManage');
    await page.getByRole('button', { name: withIcon(t('common.add')) }).click();
    const issue = page.getByRole('dialog', { name: t('card.issue') });
    await expect(issue).toBeVisible();

    // Not printable ASCII: refused on the field, in the user's language.
    const physicalId = issue.getByTestId('physical-id-input');
    await physicalId.fill('卡-0001');
    await issue.getByRole('button', { name: loose(t('common.confirm')) }).click();
    await expect(issue.getByText(t('validation.idToken', { field: t('fields.card.physicalId') }))).toBeVisible();

    await physicalId.fill(` ${idTag} `);
    await issue.getByLabel(t('fields.card.cardNumber'), { exact: true }).fill(cardNumber);
    await choose(page, issue.getByLabel(t('fields.card.providerId'), { exact: true }), 'CSMS');
    const expiry = issue.getByLabel(t('fields.card.expireTime'), { exact: true });
    await expiry.click();
    await expiry.fill('2031-12-31 23:59:59');
    await expiry.press('Enter');
    await issue.getByLabel(t('fields.card.email'), { exact: true }).fill('driver@example.test');
    await issue.getByLabel(t('fields.card.prepaidCents'), { exact: true }).fill('10');
    await issue.getByRole('button', { name: loose(t('common.confirm')) }).click();
    await expect(toast(page, t('common.success'))).toBeVisible();
    await expect(issue).toBeHidden();

    // Listed as issued: trimmed, case kept.
    const row = page.getByRole('row').filter({ hasText: cardNumber });
    await expect(row).toContainText(idTag);
    await expectNoRawKeys(page);
    expect(errors).toEqual([]);
  });
}
