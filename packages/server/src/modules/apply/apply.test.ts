import type { ApplyDto, StationDto } from '@csms/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { png } from '../../../test/support/files.js';
import { startSmtpServer } from '../../../test/support/smtp-server.js';
import { TestCharger } from '../../../test/ocpp/support.js';
import { application, card, provider, systemLog, systemUser } from '../../db/schema.js';
import { autoRegister } from '../../ocpp/registry.js';

let s: TestServer;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'platform@csms.test', pass: 'platform-code' });
  s = await startServer({
    outboundAllow: [{ host: '127.0.0.1', port: smtp.port }],
    applyMaxPerIp: 6,
    applyMaxPerEmail: 2,
    applyMaxUploadsPerIp: 100,
  });
  admin = await s.login();
  // The platform's mail settings: the super provider's.
  await s.database.db
    .update(provider)
    .set({ mailAccount: 'platform@csms.test', mailAuthCode: 'platform-code', smtpAddress: '127.0.0.1', smtpPort: smtp.port })
    .where(eq(provider.type, 'super'));
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

async function uploadLicense(bytes: Buffer = png(), name = 'licence.png') {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${s.url}/prod-api/web/apply/uploadLicense`, { method: 'POST', body: form });
  return (await res.json()) as { code: number; msg: string; data: { fileName: string; field?: string } };
}

let seq = 0;
async function applyBody(v: Record<string, unknown> = {}) {
  const n = ++seq;
  return {
    companyName: `Volt Co ${n}`,
    contact: 'Li Lei',
    phone: `139000000${String(n).padStart(2, '0')}`,
    email: `volt${n}@applicant.test`,
    licenseNumber: `91310000MA1K${String(n).padStart(6, '0')}`,
    licenseImage: (await uploadLicense()).data.fileName,
    address: '1 Century Avenue, Shanghai',
    expectedPoints: 20,
    expectedStations: 2,
    remark: 'Depot chargers',
    agreed: true,
    ...v,
  };
}
const submit = (body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<{ referenceNo: string; mailed: boolean }>('POST', '/web/apply/submit', { body, lang });
const idOf = (ref: string) => Number(ref.slice(2));
const mailTo = (to: string) => smtp.received.filter((m) => m.to === to);

describe('the public form', () => {
  it('shows the platform name and its privacy agreement without a session', async () => {
    const r = await s.call<{ platformName: string; privacyAgreementKey: string }>('GET', '/web/apply/formInfo');
    expect(r.code).toBe(200);
    expect(r.data.privacyAgreementKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it('takes an application signed out, answers a reference number and mails a confirmation', async () => {
    const body = await applyBody();
    const r = await submit(body);
    expect(r).toMatchObject({ code: 200, data: { referenceNo: expect.stringMatching(/^AP\d{8}$/), mailed: true } });
    const got = mailTo(body.email).at(-1)!;
    expect(got.subject).toBe(`Application received - ${r.data.referenceNo}`);
    expect(got.text).toContain(body.companyName);
    const [row] = await s.database.db
      .select()
      .from(application)
      .where(eq(application.id, idOf(r.data.referenceNo)));
    expect(row).toMatchObject({ status: 'pending', companyName: body.companyName, lang: 'en' });
    const [log] = await s.database.db.select().from(systemLog).where(eq(systemLog.path, '/web/apply/submit')).orderBy(systemLog.id);
    expect(log).toMatchObject({ operation: 'applySubmit', result: 200 });
  });

  it('names the field at fault, in the caller’s language', async () => {
    const noEmail = await submit({ ...(await applyBody()), email: 'not-an-email' }, 'zh');
    expect(noEmail).toMatchObject({ code: 400, data: { field: 'email' } });
    expect(noEmail.msg).toContain('邮箱');
    const noAgreement = await submit({ ...(await applyBody()), agreed: false });
    expect(noAgreement).toMatchObject({ code: 400, msg: 'Please read and accept the privacy agreement', data: { field: 'agreed' } });
    const noCompany = await submit({ ...(await applyBody()), companyName: '' });
    expect(noCompany).toMatchObject({ code: 400, data: { field: 'companyName' } });
    expect(noCompany.msg).toContain('Company name');
    const badImage = await submit({ ...(await applyBody()), licenseImage: '2025/01/01/00000000-0000-0000-0000-000000000000.png' });
    expect(badImage).toMatchObject({ code: 400, data: { field: 'licenseImage' } });
  });

  it('takes only a jpg or png licence image of at most 2 MB', async () => {
    expect(await uploadLicense(Buffer.from('%PDF-1.4'), 'licence.pdf')).toMatchObject({ code: 400, data: { field: 'file' } });
    expect(await uploadLicense(png(3 * 1024 * 1024))).toMatchObject({ code: 400, data: { field: 'file' } });
    expect(await uploadLicense()).toMatchObject({ code: 200, data: { fileName: expect.stringMatching(/\.png$/) } });
  });

  it('limits applications per e-mail', async () => {
    const email = 'twice@applicant.test';
    expect((await submit(await applyBody({ email }))).code).toBe(200);
    expect((await submit(await applyBody({ email }))).code).toBe(200);
    const third = await submit(await applyBody({ email }));
    expect(third).toMatchObject({ code: 409, data: { field: 'email' } });
    expect(third.msg).toMatch(/Too many applications for this e-mail/);
  });

  it('limits applications per address', async () => {
    // 6 per hour from one address; the earlier tests used some.
    let last = await submit(await applyBody());
    for (let i = 0; i < 6 && last.code === 200; i++) last = await submit(await applyBody());
    expect(last.code).toBe(409);
    expect(last.msg).toMatch(/Too many applications from this network/);
  });
});

describe('review', () => {
  const reviewed = { call: (...a: Parameters<TestServer['call']>) => s.call(...a) } as Pick<TestServer, 'call'>;
  let reviewer: string;
  beforeAll(() => {
    reviewer = admin;
  });

  const pendingApplication = async () => {
    // Each from its own address, after the address limit of the form's tests was reached.
    await s.database.db.execute(sql`delete from login_attempt where key like 'apply:%'`);
    const body = await applyBody();
    const r = await submit(body);
    expect(r.code, r.msg).toBe(200);
    return { id: idOf(r.data.referenceNo), body };
  };

  it('approves for one year and 20 points: provider and administrator, one-time password mailed, 20 points and not a 21st', async () => {
    const { id, body } = await pendingApplication();
    const list = await reviewed.call<{ list: ApplyDto[] }>(
      'GET',
      `/web/apply/list?page=1&limit=10&status=pending&text=${encodeURIComponent(body.email)}`,
      {
        token: reviewer,
      },
    );
    expect(list.data.list.map((a) => a.id)).toEqual([id]);
    const r = await reviewed.call<{ application: ApplyDto; mailed: boolean }>('POST', '/web/apply/approve', {
      token: reviewer,
      body: { id, validity: 1, authCount: 20, username: `volt-admin-${id}` },
    });
    expect(r, r.msg).toMatchObject({ code: 200, data: { mailed: true, application: { status: 'approved', authCount: 20, validity: 1 } } });
    const [p] = await s.database.db.select().from(provider).where(eq(provider.id, r.data.application.providerId!));
    expect(p).toMatchObject({ name: body.companyName, type: 'common', authCount: 20 });
    const days = (p!.expiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(367);

    const got = mailTo(body.email).at(-1)!;
    expect(got.subject).toMatch(/^Application approved - AP/);
    const password = /One-time password: (\S+)/.exec(got.text)?.[1];
    expect(password).toBeDefined();

    // The one-time password signs in, but opens nothing until it is changed.
    const username = `volt-admin-${id}`;
    const first = await s.login(username, password!);
    const info = await s.call<{ mustChangePassword: boolean }>('POST', '/web/info', { token: first });
    expect(info.data.mustChangePassword).toBe(true);
    const refused = await s.call('GET', '/web/station/list?page=1&limit=10', { token: first });
    expect(refused).toMatchObject({ code: 403, msg: 'Please change your initial password first' });
    const changed = await s.call('POST', '/web/userManage/editUserPwd', {
      token: first,
      body: { oldPwd: password, newPwd: 'Fresh-pass-2026', confirmNewPwd: 'Fresh-pass-2026' },
    });
    expect(changed.code, changed.msg).toBe(200);
    const [user] = await s.database.db.select().from(systemUser).where(eq(systemUser.username, username));
    expect(user!.mustChangePassword).toBe(false);
    const op = await s.login(username, 'Fresh-pass-2026');

    const st = await s.call<StationDto>('POST', '/web/station/add', {
      token: op,
      body: { stationName: 'Depot', providerId: p!.id, country: 'CN', address: 'x', longitude: 1, latitude: 2 },
    });
    expect(st.code, st.msg).toBe(200);
    const point = (n: number) =>
      s.call('POST', '/web/point/add', {
        token: op,
        lang: 'zh',
        body: {
          serialNumber: `VOLT-${id}-${n}`,
          pointName: `Bay ${n}`,
          stationId: st.data.id,
          equipmentType: 'ac',
          ratedPowerW: 7000,
          connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type2' }],
        },
      });
    const bay1 = (await point(1)) as { code: number; data: { serialNumber: string; ocppKey: string } };
    expect(bay1.code).toBe(200);
    for (let n = 2; n <= 20; n++) expect((await point(n)).code).toBe(200);
    const refusedPoint = await point(21);
    expect(refusedPoint.code).toBe(409);
    expect(refusedPoint.msg).toBe(`运营商“${body.companyName}”的授权数量为20个充电桩，已满，不能再添加`);
    // A charger registering itself for the provider is refused the same way.
    expect(await autoRegister(s.database.db, `VOLT-${id}-AUTO`, { providerId: p!.id, timeZone: 'UTC', ocppKeyHash: null })).toBeNull();

    // Past its expiration the operator signs in to the expired message, while its chargers keep charging.
    const [c] = await s.database.db
      .insert(card)
      .values({
        providerId: p!.id,
        cardNumber: `C${id}`,
        physicalId: `TAG${id}`,
        balanceCents: 10_000,
        expireAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    await s.database.db
      .update(provider)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(provider.id, p!.id));
    const expired = await s.call('POST', '/web/login', { body: { username, password: 'Fresh-pass-2026' } });
    expect(expired).toMatchObject({
      code: 200,
      msg: 'Your back-office account has expired, please contact after-sales',
      data: { systemUserStatus: 0 },
    });
    expect((await s.call('POST', '/web/info', { token: op })).code).toBe(401);
    const charger = await TestCharger.connect(s.url, bay1.data.serialNumber, { key: bay1.data.ocppKey });
    expect((await charger.ok<{ status: string }>('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' })).status).toBe(
      'Accepted',
    );
    const started = await charger.ok<{ transactionId: number; idTagInfo: { status: string } }>('StartTransaction', {
      connectorId: 1,
      idTag: c!.physicalId,
      meterStart: 0,
      timestamp: new Date().toISOString(),
    });
    expect(started.idTagInfo.status).toBe('Accepted');
    charger.ws.close();
  });

  it('refuses a second decision and changes nothing', async () => {
    const { id } = await pendingApplication();
    const approve = (who: string) =>
      reviewed.call('POST', '/web/apply/approve', { token: reviewer, body: { id, validity: 2, authCount: 5, username: `${who}-${id}` } });
    // Two reviewers at once: one wins, the other is refused and its provider and user are undone.
    const [a, b] = await Promise.all([approve('first'), approve('second')]);
    expect([a.code, b.code].sort()).toEqual([200, 409]);
    const winner = a.code === 200 ? 'first' : 'second';
    const loser = a.code === 200 ? 'second' : 'first';
    expect(
      await s.database.db
        .select()
        .from(systemUser)
        .where(eq(systemUser.username, `${loser}-${id}`)),
    ).toEqual([]);
    const providersBefore = await s.database.db.select().from(provider);
    const reject = await reviewed.call('POST', '/web/apply/reject', { token: reviewer, body: { id, reason: 'Too late' } });
    expect(reject.code).toBe(409);
    expect(reject.msg).toMatch(/has already been reviewed \(Approved\)/);
    const again = await reviewed.call('POST', '/web/apply/approve', {
      token: reviewer,
      body: { id, validity: 2, authCount: 5, username: `thrice-${id}` },
    });
    expect(again.code).toBe(409);
    expect(await s.database.db.select().from(provider)).toEqual(providersBefore);
    const [row] = await s.database.db.select().from(application).where(eq(application.id, id));
    expect(row).toMatchObject({ status: 'approved', rejectReason: null, username: `${winner}-${id}` });
  });

  it('rejects with a reason, which the applicant receives by mail', async () => {
    const { id, body } = await pendingApplication();
    const r = await reviewed.call<{ application: ApplyDto }>('POST', '/web/apply/reject', {
      token: reviewer,
      body: { id, reason: 'The business licence has expired' },
    });
    expect(r).toMatchObject({ code: 200, data: { application: { status: 'rejected', rejectReason: 'The business licence has expired' } } });
    const got = mailTo(body.email).at(-1)!;
    expect(got.subject).toMatch(/^Application not approved - AP/);
    expect(got.text).toContain('Reason: The business licence has expired');
    // The latest by id: without an order PostgreSQL may give the earlier test's refused reject last.
    const logs = await s.database.db.select().from(systemLog).where(eq(systemLog.path, '/web/apply/reject')).orderBy(systemLog.id);
    expect(logs.at(-1)).toMatchObject({ operation: 'reject', result: 200 });
  });

  it('lets a reviewer grant the new administrator no more than the reviewer holds, and a common provider see none', async () => {
    const { id } = await pendingApplication();
    const reviewerOnly = await createOperator(s.database.db, {
      providerId: 1,
      permissions: ['apply:record:list', 'apply:record:query', 'apply:record:approve', 'apply:record:reject'],
      rolePaths: ['/apply', '/apply/applyRecord'],
    });
    const token = await s.login(reviewerOnly.user.username, reviewerOnly.user.password);
    const r = await s.call('POST', '/web/apply/approve', { token, body: { id, validity: 1, authCount: 5, username: `limited-${id}` } });
    expect(r.code).toBe(403);
    expect(r.msg).toMatch(/^You cannot grant the operation permission/);
    // The same reviewer still reads it.
    expect((await s.call('GET', `/web/apply/get?id=${id}`, { token })).code).toBe(200);
    const common = await createOperator(s.database.db, { permissions: ['apply:record:list', 'apply:record:query'], rolePaths: ['/apply'] });
    const other = await s.login(common.user.username, common.user.password);
    expect(await s.call('GET', `/web/apply/get?id=${id}`, { token: other })).toMatchObject({ code: 404 });
    const [row] = await s.database.db.select().from(application).where(eq(application.id, id));
    expect(row!.status).toBe('pending');
  });

  it('names the reviewer’s missing fields and a taken username', async () => {
    const { id } = await pendingApplication();
    const noReason = await reviewed.call('POST', '/web/apply/reject', { token: reviewer, body: { id, reason: '' } });
    expect(noReason).toMatchObject({ code: 400, data: { field: 'reason' } });
    const badValidity = await reviewed.call('POST', '/web/apply/approve', {
      token: reviewer,
      body: { id, validity: 4, authCount: 5, username: 'someone' },
    });
    expect(badValidity).toMatchObject({ code: 400, data: { field: 'validity' } });
    const taken = await reviewed.call('POST', '/web/apply/approve', {
      token: reviewer,
      body: { id, validity: 1, authCount: 5, username: 'admin' },
    });
    expect(taken).toMatchObject({ code: 400, data: { field: 'username' } });
    const [row] = await s.database.db.select().from(application).where(eq(application.id, id));
    expect(row!.status).toBe('pending');
  });
});
