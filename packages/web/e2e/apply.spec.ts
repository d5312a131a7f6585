import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { ADMIN, flowLocales, looseButton, submitLogin, toast, tr, type Locale } from './fixtures';

/**
 * Applications (issue 21), end to end in both languages: a newcomer applies signed out on /applyForm,
 * the administrator approves for one year and 20 points, the new operator signs in with the password
 * mailed to a loopback SMTP server, must change it, and signs in again with the new one.
 *
 * The platform's mail goes to a server on loopback, which the server reaches only when allowed
 * (CSMS_OUTBOUND_ALLOW): this spec starts its own server with that allowance, two ports up.
 */
const port = Number(process.env.E2E_PORT ?? 18080) + 2;
const origin = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;
let smtp: SMTPServer;
const mails: { to: string; subject: string; text: string }[] = [];

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, cb) => cb(null, { user: auth.username }),
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (m) => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), subject: m.subject ?? '', text: m.text ?? '' });
          cb();
        },
        (err: Error) => cb(err),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const here = path.dirname(fileURLToPath(import.meta.url));
  server = spawn(process.execPath, [path.join(here, 'serve.mjs')], {
    env: { ...process.env, E2E_PORT: String(port), CSMS_OUTBOUND_ALLOW: `127.0.0.1:${smtpPort}` },
    stdio: 'ignore',
  });
  await expect.poll(async () => (await fetch(`${origin}/prod-api/health`).catch(() => undefined))?.status, { timeout: 120_000 }).toBe(200);
  // The platform (the super provider) sends the applicants' mail through its settings.
  const login = await (
    await fetch(`${origin}/prod-api/web/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
  ).json();
  const token = (login as { data: { token: string } }).data.token;
  const r = await fetch(`${origin}/prod-api/web/userManage/updateProviderInfo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      id: 1,
      providerName: 'CSMS',
      mailAccount: 'platform@csms.test',
      mailAuthCode: 'platform-code',
      smtpAddress: '127.0.0.1',
      smtpPort,
    }),
  });
  expect(((await r.json()) as { code: number }).code).toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** A valid 1×1 PNG: the licence image. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])),
    chunk('IDAT', zlib.deflateSync(Buffer.from([0, 0x44, 0xa3, 0x72, 0xff]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function startIn(page: Page, locale: Locale) {
  await page.context().addCookies([{ name: 'language', value: locale, url: origin }]);
}

const mailFor = (to: string, subject: RegExp) =>
  expect.poll(() => mails.find((m) => m.to === to && subject.test(m.subject)), { timeout: 30_000 }).toBeDefined();

for (const locale of flowLocales('zh-CN')) {
  const t = (key: string, params: Record<string, string | number> = {}) => tr(locale, key, params);
  const field = (page: Page, key: string) => page.getByLabel(t(`fields.apply.${key}`), { exact: true });

  test(`applications (${locale}): apply signed out, approve, sign in with the mailed password and change it`, async ({ page }) => {
    test.slow();
    const stamp = `${locale === 'zh-CN' ? 'zh' : 'en'}${Date.now().toString(36)}`;
    const email = `${stamp}@applicant.test`;
    const company = `Volt ${stamp}`;

    // 1. Signed out, on a phone-sized screen.
    await startIn(page, locale);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/applyForm`);
    await expect(page.getByText(t('apply.formTitle'))).toBeVisible();
    await field(page, 'companyName').fill(company);
    await field(page, 'contact').fill('Li Lei');
    await field(page, 'phone').fill(locale === 'zh-CN' ? '13900000001' : '13900000002');
    await field(page, 'email').fill(email);
    await field(page, 'licenseNumber').fill('91310000MA1K000001');
    await page.locator('input[type=file]').setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: png() });
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(1);
    await expect(page.locator('.ant-upload-list-item-uploading')).toHaveCount(0);
    await field(page, 'address').fill('1 Century Avenue, Shanghai');
    await field(page, 'expectedPoints').fill('20');
    await field(page, 'expectedStations').fill('2');
    // Without the privacy agreement the form says so.
    await page.getByTestId('apply-submit').click();
    await expect(page.getByText(t('validation.applyAgreement'))).toBeVisible();
    await page.getByTestId('apply-agree').click();
    await page.getByTestId('apply-submit').click();
    const reference = page.getByTestId('apply-reference');
    await expect(reference).toHaveText(/^AP\d{8}/);
    const referenceNo = (await reference.textContent())!.trim().slice(0, 10);
    await expect(page.getByText(t('apply.submittedText', { referenceNo, email }))).toBeVisible();
    await mailFor(email, new RegExp(referenceNo));

    // 2. The administrator approves for one year and 20 points.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${origin}/login`);
    await submitLogin(page, ADMIN.username, ADMIN.password);
    await expect(page).toHaveURL(/\/dashboard/);
    await page.goto(`${origin}/apply/applyRecord`);
    const row = page.getByRole('row').filter({ hasText: referenceNo });
    await expect(row).toContainText(company);
    await expect(row).toContainText(t('enums.applyStatus.pending'));
    await row.getByRole('button', { name: looseButton(t('apply.info')) }).click();
    await expect(page.getByTestId('apply-info')).toContainText(email);
    await page.getByTestId('apply-approve').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(t('apply.approveTitle', { referenceNo }));
    await dialog.getByLabel(t('fields.apply.authCount'), { exact: true }).fill('20');
    const username = `op-${stamp}`;
    await dialog.getByLabel(t('fields.apply.username'), { exact: true }).fill(username);
    await dialog.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
    await expect(toast(page, t('apply.approved'))).toBeVisible();
    await expect(page.getByTestId('apply-info')).toContainText(t('enums.applyStatus.approved'));
    await expect(page.getByTestId('apply-approve')).toHaveCount(0);

    // 3. The mailed one-time password signs in, and must be changed first.
    await mailFor(email, new RegExp(`${referenceNo}`));
    await expect.poll(() => mails.filter((m) => m.to === email).length, { timeout: 30_000 }).toBe(2);
    const approval = mails.filter((m) => m.to === email)[1]!;
    expect(approval.text).toContain(username);
    const password = /(?:One-time password|一次性密码)[:：]\s*(\S+)/.exec(approval.text)?.[1];
    expect(password).toBeTruthy();
    await page.evaluate(() => window.localStorage.clear());
    await page.context().clearCookies();
    await startIn(page, locale);
    await page.goto(`${origin}/login`);
    await submitLogin(page, username, password!);
    await expect(page).toHaveURL(/\/dashboard/);
    const forced = page.getByRole('dialog').filter({ has: page.getByTestId('must-change-password') });
    await expect(forced).toBeVisible();
    await expect(forced.getByRole('button', { name: looseButton(t('common.cancel')) })).toHaveCount(0);
    await forced.getByLabel(t('fields.auth.oldPwd')).fill(password!);
    await forced.getByLabel(t('fields.auth.newPwd'), { exact: true }).fill('Fresh-pass-2026');
    await forced.getByLabel(t('fields.auth.confirmNewPwd')).fill('Fresh-pass-2026');
    await forced.getByRole('button', { name: looseButton(t('common.confirm')) }).click();
    await expect(page).toHaveURL(/\/login/);
    await submitLogin(page, username, 'Fresh-pass-2026');
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByTestId('must-change-password')).toHaveCount(0);
  });
}
