import http from 'node:http';
import { api, type InvoiceDto, type LedgerRow, type TransferDto } from '@csms/contract';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createRole, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { createPoint } from '../../../test/ocpp/support.js';
import { exe, gif, jpeg, pdf, png, uploadAs } from '../../../test/support/files.js';
import { startSmtpServer } from '../../../test/support/smtp-server.js';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import {
  card,
  chargeUser,
  corporateTransfer,
  invoice,
  invoiceItem,
  ledger,
  provider,
  systemLog,
  transferAllocation,
} from '../../db/schema.js';
import { insertTransaction } from '../monitor/monitor.fixtures.js';

const account = { user: 'billing@east.test', pass: 'auth-code-123' };
let s: TestServer;
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer(account);
  s = await startServer({ outboundAllow: [{ host: '127.0.0.1', port: smtp.port }] });
  db = s.database.db;
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

const FINANCE = [
  ...['list', 'query', 'register', 'confirm', 'reject', 'export'].map((a) => `finance:transfer:${a}`),
  ...['list', 'export'].map((a) => `finance:transferRecord:${a}`),
  ...['list', 'query', 'apply', 'issue', 'reject', 'export'].map((a) => `finance:invoice:${a}`),
  'finance:recharge:list',
];
let seq = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36)}${++seq}`;

/** A provider with mail settings, a registrar and a second finance user (each holding every finance permission), three charge users and a card. */
async function site() {
  const a = await createOperator(db, { permissions: FINANCE, rolePaths: ['/financialManagement'] });
  await db
    .update(provider)
    .set({ mailAccount: account.user, mailAuthCode: account.pass, smtpAddress: '127.0.0.1', smtpPort: smtp.port })
    .where(eq(provider.id, a.providerId));
  const role = await createRole(db, { providerId: a.providerId, permissions: FINANCE, rolePaths: ['/financialManagement'] });
  const b = await createUser(db, { providerId: a.providerId, roleId: role.id });
  const users = await db
    .insert(chargeUser)
    .values([1, 2, 3].map(() => ({ providerId: a.providerId, account: uniq('fleet'), userType: 'platform' as const })))
    .returning();
  const [c] = await db
    .insert(card)
    .values({
      providerId: a.providerId,
      cardNumber: uniq('C'),
      physicalId: uniq('P').slice(0, 20),
      chargeUserId: users[0]!.id,
      expireAt: new Date(Date.now() + 86_400_000 * 365),
    })
    .returning();
  return {
    providerId: a.providerId,
    users,
    card: c!,
    registrar: await s.login(a.user.username, a.user.password),
    checker: await s.login(b.username, b.password),
  };
}
type Site = Awaited<ReturnType<typeof site>>;

const balances = async (ids: number[]) =>
  (await db.select({ id: chargeUser.id, b: chargeUser.mobileBalanceCents }).from(chargeUser).where(inArray(chargeUser.id, ids)))
    .sort((x, y) => x.id - y.id)
    .map((r) => r.b);
const ledgerRows = async (ref: string) => db.select().from(ledger).where(eq(ledger.thirdPartyTxnId, ref));
const logRows = async () => (await db.select({ n: count() }).from(systemLog))[0]!.n;

function transferBody(x: Site, v: Record<string, unknown> = {}) {
  return {
    providerId: x.providerId,
    payerName: 'Fleet Logistics Ltd',
    payerAccount: '6222 0000 1111 2222',
    payerBank: 'Bank of Shanghai',
    amountCents: 100_000,
    transferDate: '2026-11-20',
    bankReference: uniq('REF-'),
    remark: 'November top-up',
    allocations: [
      { chargeUserId: x.users[0]!.id, amountCents: 33_334 },
      { chargeUserId: x.users[1]!.id, amountCents: 33_333 },
      { chargeUserId: x.users[2]!.id, amountCents: 33_333 },
    ],
    ...v,
  };
}
const register = (token: string, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<TransferDto>('POST', api.corporateTransfer.add.path, { token, body, lang });
const confirm = (token: string, id: number, lang: 'en' | 'zh' = 'en') =>
  s.call<TransferDto>('POST', api.corporateTransfer.confirm.path, { token, body: { id }, lang });

describe('corporate transfers', () => {
  it('credits 1,000.00 split over three users to the cent, through the ledger, on a second user’s confirmation', async () => {
    const x = await site();
    const ids = x.users.map((u) => u.id);
    const r = await register(x.registrar, transferBody(x));
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({ state: 'registered', amountCents: 100_000 });
    expect(r.data.allocations.map((a) => a.ledgerId)).toEqual([null, null, null]);
    expect(await balances(ids)).toEqual([0, 0, 0]);

    const logs = await logRows();
    const c = await confirm(x.checker, r.data.id);
    expect(c.code, c.msg).toBe(200);
    expect(await logRows()).toBe(logs + 1);
    expect(await balances(ids)).toEqual([33_334, 33_333, 33_333]);
    const rows = await ledgerRows(r.data.bankReference);
    expect(rows.map((l) => [l.chargeUserId, l.tradeType, l.source, l.amountCents, l.balanceBeforeCents, l.balanceAfterCents])).toEqual([
      [ids[0], 'transfer', 'transfer', 33_334, 0, 33_334],
      [ids[1], 'transfer', 'transfer', 33_333, 0, 33_333],
      [ids[2], 'transfer', 'transfer', 33_333, 0, 33_333],
    ]);
    expect(rows.reduce((sum, l) => sum + l.amountCents, 0)).toBe(100_000);
    // The transfer record shows the same rows: allocations, ledger ids and balances agree.
    const rec = await s.call<{ list: TransferDto[] }>(
      'GET',
      `${api.transferRecord.list.path}?page=1&limit=10&bankReference=${r.data.bankReference}`,
      { token: x.checker },
    );
    const t = rec.data.list[0]!;
    expect(t).toMatchObject({ state: 'confirmed', deciderName: expect.any(String) });
    expect(t.allocations.map((a) => [a.chargeUserId, a.amountCents, a.ledgerId, a.balanceAfterCents])).toEqual(
      rows.map((l) => [l.chargeUserId, l.amountCents, l.id, l.balanceAfterCents]),
    );
    // The recharge records show each credit with its transfer.
    const led = await s.call<{ list: LedgerRow[] }>(
      'GET',
      `${api.rechargeRecord.list.path}?page=1&limit=10&tradeType=transfer&thirdPartyTxnId=${r.data.bankReference}`,
      { token: x.checker },
    );
    expect(led.data.list.map((l) => [l.id, l.source, l.transferId, l.invoiceId]).sort()).toEqual(
      rows.map((l) => [l.id, 'transfer', r.data.id, null]).sort(),
    );
  });

  it("offers the registrar the provider's cards and charge users to credit, in scope and by permission", async () => {
    const x = await site();
    const y = await site();
    type Opt = { id: number; cardNumber: string; account: string | null; state: string; providerId: number };
    const cards = await s.call<Opt[]>('GET', `${api.card.options.path}?providerId=${x.providerId}&keyword=${x.card.cardNumber.slice(1)}`, {
      token: x.registrar,
    });
    expect(cards).toMatchObject({ code: 200 });
    expect(cards.data).toEqual([
      { id: x.card.id, cardNumber: x.card.cardNumber, account: x.users[0]!.account, state: 'valid', providerId: x.providerId },
    ]);
    // Another provider's registrar finds none of them, even when naming the provider.
    const other = await s.call<Opt[]>('GET', `${api.card.options.path}?providerId=${x.providerId}`, { token: y.registrar });
    expect(other.data).toEqual([]);
    expect((await s.call<Opt[]>('GET', api.card.options.path, { token: y.registrar })).data.map((c) => c.id)).toEqual([y.card.id]);
    const users = await s.call<{ id: number }[]>('GET', `${api.chargeUser.options.path}?providerId=${x.providerId}`, {
      token: x.registrar,
    });
    expect(users.data.map((u) => u.id).sort()).toEqual(x.users.map((u) => u.id).sort());
    // Without a permission that picks cards: refused.
    const role = await createRole(db, {
      providerId: x.providerId,
      permissions: ['finance:transfer:list'],
      rolePaths: ['/financialManagement'],
    });
    const viewer = await createUser(db, { providerId: x.providerId, roleId: role.id });
    const t = await s.login(viewer.username, viewer.password);
    expect((await s.call('GET', api.card.options.path, { token: t })).code).toBe(403);
  });

  it('credits a card as well as a user', async () => {
    const x = await site();
    const r = await register(
      x.registrar,
      transferBody(x, {
        amountCents: 5_000,
        allocations: [
          { cardId: x.card.id, amountCents: 2_000 },
          { chargeUserId: x.users[1]!.id, amountCents: 3_000 },
        ],
      }),
    );
    expect(r.code, r.msg).toBe(200);
    expect((await confirm(x.checker, r.data.id)).code).toBe(200);
    const [cd] = await db.select({ b: card.balanceCents }).from(card).where(eq(card.id, x.card.id));
    expect(cd!.b).toBe(2_000);
    expect(await balances([x.users[1]!.id])).toEqual([3_000]);
  });

  it('refuses a second confirmation, the registrar confirming, a split that does not add up and a reused reference, changing nothing', async () => {
    const x = await site();
    const ids = x.users.map((u) => u.id);
    const r = await register(x.registrar, transferBody(x));
    const snapshot = async () => ({
      balances: await balances(ids),
      ledger: (await ledgerRows(r.data.bankReference)).length,
      transfers: (await db.select({ n: count() }).from(corporateTransfer).where(eq(corporateTransfer.providerId, x.providerId)))[0]!.n,
      state: (await db.select({ s: corporateTransfer.state }).from(corporateTransfer).where(eq(corporateTransfer.id, r.data.id)))[0]!.s,
    });

    // The registrar himself: four eyes.
    let before = await snapshot();
    expect(await confirm(x.registrar, r.data.id)).toEqual({
      code: 409,
      msg: 'A transfer must be confirmed by someone other than the user who registered it (four eyes)',
      data: { field: 'id' },
    });
    expect((await confirm(x.registrar, r.data.id, 'zh')).msg).toBe('转账须由登记人以外的用户确认（四眼原则）');
    expect(await snapshot()).toEqual(before);

    // A split that misses by one cent.
    const bad = transferBody(x);
    bad.allocations[2]!.amountCents = 33_332;
    expect(await register(x.registrar, bad)).toEqual({
      code: 400,
      msg: 'The allocations add up to 999.99, not to the transfer amount 1,000.00; they must match to the cent',
      data: { field: 'allocations' },
    });
    expect((await register(x.registrar, bad, 'zh')).msg).toBe('入账分配合计 999.99 与转账金额 1,000.00 不一致，须精确到分');
    expect(await snapshot()).toEqual(before);

    // The same bank reference again, in another letter case.
    const again = await register(x.registrar, transferBody(x, { bankReference: r.data.bankReference.toLowerCase() }));
    expect(again).toEqual({
      code: 409,
      msg: `Bank reference "${r.data.bankReference.toLowerCase()}" is already registered for this provider (transfer ${r.data.id})`,
      data: { field: 'bankReference' },
    });
    expect(await snapshot()).toEqual(before);

    // Confirmed once, then again.
    expect((await confirm(x.checker, r.data.id)).code).toBe(200);
    before = await snapshot();
    expect(before.balances).toEqual([33_334, 33_333, 33_333]);
    const twice = await confirm(x.checker, r.data.id);
    expect(twice).toEqual({
      code: 409,
      msg: `Transfer ${r.data.id} is "Credited" and cannot be confirmed or rejected again`,
      data: { field: 'id' },
    });
    expect((await confirm(x.checker, r.data.id, 'zh')).msg).toBe(`转账 ${r.data.id} 当前为“已入账”，不能再次确认或驳回`);
    expect(await snapshot()).toEqual(before);
    // Nor rejected afterwards.
    const rej = await s.call('POST', api.corporateTransfer.reject.path, { token: x.checker, body: { id: r.data.id, reason: 'late' } });
    expect(rej.code).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('credits once when two confirmations race', async () => {
    const x = await site();
    const r = await register(x.registrar, transferBody(x));
    const role = await createRole(db, { providerId: x.providerId, permissions: FINANCE, rolePaths: ['/financialManagement'] });
    const third = await createUser(db, { providerId: x.providerId, roleId: role.id });
    const t3 = await s.login(third.username, third.password);
    const answers = await Promise.all([confirm(x.checker, r.data.id), confirm(t3, r.data.id), confirm(x.checker, r.data.id)]);
    expect(answers.map((a) => a.code).sort()).toEqual([200, 409, 409]);
    expect(await ledgerRows(r.data.bankReference)).toHaveLength(3);
    expect(await balances(x.users.map((u) => u.id))).toEqual([33_334, 33_333, 33_333]);
  });

  it('rejects with a reason, moving no money; keeps a receipt that is an uploaded image or PDF', async () => {
    const x = await site();
    const up = await uploadAs(s.url, x.registrar, 'receipt.png', png());
    expect(up.code, up.msg).toBe(200);
    const r = await register(x.registrar, transferBody(x, { receiptFile: up.fileName }));
    expect(r.data).toMatchObject({ receiptFile: up.fileName, receiptUrl: expect.stringContaining('/common/download/resource') });
    // The console's upload kind for a receipt (`scan`): a PDF or a photo, judged by the bytes; nothing else.
    const scan = await uploadAs(s.url, x.registrar, 'receipt.pdf', pdf, 'scan');
    expect(scan.code, scan.msg).toBe(200);
    expect((await uploadAs(s.url, x.registrar, 'receipt.jpg', jpeg, 'scan')).code).toBe(200);
    const scanned = await register(x.registrar, transferBody(x, { receiptFile: scan.fileName }));
    expect(scanned.data).toMatchObject({
      receiptFile: scan.fileName,
      receiptUrl: expect.stringContaining(encodeURIComponent(scan.fileName)),
    });
    for (const [name, bytes] of [
      ['receipt.gif', gif],
      ['receipt.docx', pdf],
      ['receipt.txt', Buffer.from('paid')],
      ['receipt.pdf', exe],
      ['receipt.png', pdf],
    ] as const) {
      const refused = await uploadAs(s.url, x.registrar, name, bytes, 'scan');
      expect(refused.code, name).toBe(400);
      if (name === 'receipt.gif') expect(refused.msg).toContain('pdf/png/jpg/jpeg');
    }
    const bogus = await register(x.registrar, transferBody(x, { receiptFile: '2026/11/not-there.png' }));
    expect(bogus).toMatchObject({ code: 400, data: { field: 'receiptFile' } });
    const rej = await s.call<TransferDto>('POST', api.corporateTransfer.reject.path, {
      token: x.checker,
      body: { id: r.data.id, reason: 'Not our customer' },
    });
    expect(rej.data).toMatchObject({ state: 'rejected', rejectReason: 'Not our customer' });
    expect((await confirm(x.checker, r.data.id)).code).toBe(409);
    expect(await ledgerRows(r.data.bankReference)).toHaveLength(0);
    expect(await db.select().from(transferAllocation).where(eq(transferAllocation.transferId, r.data.id))).toHaveLength(3);
  });

  it('lists by payer, reference, date and state, and exports one row per allocation', async () => {
    const x = await site();
    const r = await register(x.registrar, transferBody(x, { payerName: 'Unique Payer Co', transferDate: '2026-10-05' }));
    const q = (qs: string) =>
      s.call<{ list: TransferDto[]; total: number }>('GET', `${api.corporateTransfer.list.path}?page=1&limit=10&${qs}`, {
        token: x.registrar,
      });
    expect((await q('payerName=unique payer')).data.list.map((t) => t.id)).toEqual([r.data.id]);
    expect((await q(`bankReference=${r.data.bankReference}&state=registered`)).data.total).toBe(1);
    expect((await q(`bankReference=${r.data.bankReference}&state=confirmed`)).data.total).toBe(0);
    expect((await q(`bankReference=${r.data.bankReference}&startTime=2026-10-05&endTime=2026-10-05`)).data.total).toBe(1);
    expect((await q(`bankReference=${r.data.bankReference}&startTime=2026-10-06`)).data.total).toBe(0);
    const res = await fetch(`${s.url}/prod-api${api.transferRecord.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${x.registrar}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', bankReference: r.data.bankReference }),
    });
    const csv = (await res.text()).trim().split(/\r?\n/);
    expect(csv[0]).toContain('Credited amount');
    expect(csv.slice(1)).toHaveLength(3);
    expect(csv[1]).toContain('333.34');
  });
});

describe('invoices', () => {
  async function paidRecords(x: Site, n: number) {
    const { point } = await createPoint(db, { providerId: x.providerId });
    const rows = [];
    for (let i = 0; i < n; i++)
      rows.push(
        await insertTransaction(db, point, {
          chargeUserId: x.users[0]!.id,
          idTag: uniq('T').slice(0, 20),
          startedAt: new Date(Date.now() - (i + 2) * 3_600_000),
          stoppedAt: new Date(Date.now() - (i + 1) * 3_600_000),
          meterStopWh: 11_000,
          energyWh: 10_000,
          totalCents: 1_000 + i * 111,
          billedAt: new Date(),
          paidFrom: 'mobile',
        }),
      );
    return rows;
  }
  const info = {
    principalType: 'company',
    name: 'Fleet Logistics Ltd',
    taxNumber: '91310000MA1FL0001X',
    recipientName: 'Wang Fang',
    mobile: '13900001111',
    email: 'wang.fang@fleet.test',
    address: '1 Harbour Road, Shanghai',
    notifyType: 'mail',
  };
  const apply = (token: string, body: unknown, lang: 'en' | 'zh' = 'en') =>
    s.call<InvoiceDto>('POST', api.invoice.add.path, { token, body, lang });

  it('issues an invoice over five charging records with a PDF, mailed with the attachment; those records cannot be invoiced again', async () => {
    const x = await site();
    const recs = await paidRecords(x, 5);
    const ids = recs.map((r) => r.id);
    const billable = await s.call<{ kind: string; refId: number }[]>('GET', `${api.invoice.billable.path}?chargeUserId=${x.users[0]!.id}`, {
      token: x.registrar,
    });
    expect(
      billable.data
        .filter((b) => b.kind === 'charge')
        .map((b) => b.refId)
        .sort(),
    ).toEqual([...ids].sort());

    const a = await apply(x.registrar, { chargeUserId: x.users[0]!.id, chargeRecordIds: ids, ...info });
    expect(a.code, a.msg).toBe(200);
    expect(a.data).toMatchObject({
      status: 'applied',
      amountCents: 5 * 1_000 + 111 * (0 + 1 + 2 + 3 + 4),
      noticeTime: null,
      finishTime: null,
    });
    expect(a.data.items).toHaveLength(5);

    const up = await uploadAs(s.url, x.checker, 'invoice.pdf', pdf, 'file');
    expect(up.code, up.msg).toBe(200);
    const before = smtp.received.length;
    const issued = await s.call<InvoiceDto>('POST', api.invoice.issue.path, {
      token: x.checker,
      body: { id: a.data.id, fileName: up.fileName },
    });
    expect(issued.code, issued.msg).toBe(200);
    expect(issued.data).toMatchObject({
      status: 'issued',
      fileName: up.fileName,
      noticeTime: expect.any(String),
      finishTime: expect.any(String),
    });
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail).toMatchObject({
      from: account.user,
      to: 'wang.fang@fleet.test',
      subject: expect.stringContaining('Your invoice has been issued'),
    });
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: `invoice-${a.data.id}.pdf`, contentType: 'application/pdf' });
    expect(mail.attachments[0]!.content.equals(pdf)).toBe(true);

    // Nothing of these can be invoiced again: not listed as billable, and refused by name.
    const left = await s.call<{ kind: string; refId: number }[]>('GET', `${api.invoice.billable.path}?chargeUserId=${x.users[0]!.id}`, {
      token: x.registrar,
    });
    expect(left.data.filter((b) => b.kind === 'charge')).toEqual([]);
    const again = await apply(x.registrar, { chargeUserId: x.users[0]!.id, chargeRecordIds: [ids[2]], ...info });
    expect(again).toEqual({
      code: 400,
      msg: `Charging record ${ids[2]} is not this user’s, not paid, or already in another invoice`,
      data: { field: 'chargeRecordIds' },
    });
    expect((await apply(x.registrar, { chargeUserId: x.users[0]!.id, chargeRecordIds: [ids[2]], ...info }, 'zh')).msg).toBe(
      `充电记录 ${ids[2]} 不属于该用户、未支付，或已在其他发票中`,
    );
    // The PDF is kept: its uploader cannot have it deleted.
    const del = await s.call('POST', '/common/download', { token: x.checker, body: { fileName: up.fileName, delete: true } });
    expect(del).toMatchObject({ code: 409, msg: 'This file is an issued invoice or a transfer receipt and cannot be deleted' });
    // Nor through the work orders' file removal, which any signed-in uploader may call.
    const viaWorkOrder = await s.call('POST', api.workOrder.deleteFile.path, { token: x.checker, body: { clearFile: up.fileName } });
    expect(viaWorkOrder).toMatchObject({ code: 409, data: { field: 'clearFile' } });
    const still = await fetch(`${s.url}${issued.data.fileUrl!}`, { headers: { authorization: `Bearer ${x.checker}` } });
    expect(Buffer.from(await still.arrayBuffer()).equals(pdf)).toBe(true);
    // Issued once only.
    const twice = await s.call('POST', api.invoice.issue.path, { token: x.checker, body: { id: a.data.id, fileName: up.fileName } });
    expect(twice).toMatchObject({ code: 409, data: { field: 'id' } });
    expect(smtp.received.length).toBe(before + 1);
  });

  it('refuses a second live invoice over a record in the database itself', async () => {
    const x = await site();
    const [rec] = await paidRecords(x, 1);
    const a = await apply(x.registrar, { chargeUserId: x.users[0]!.id, chargeRecordIds: [rec!.id], ...info });
    expect(a.code).toBe(200);
    // A second request that got past the check (as a concurrent one could): the unique index refuses its line.
    const [inv] = await db
      .insert(invoice)
      .values({
        providerId: x.providerId,
        chargeUserId: x.users[0]!.id,
        amountCents: 1,
        principalType: 'person',
        name: 'x',
        recipientName: 'x',
        mobile: '13900001111',
        email: 'x@fleet.test',
        notifyType: 'mail',
      })
      .returning({ id: invoice.id });
    await expect(
      db.insert(invoiceItem).values({ invoiceId: inv!.id, kind: 'charge', transactionId: rec!.id, amountCents: 1 }),
    ).rejects.toThrow();
  });

  it('offers and invoices, to a user bound to stations, only the charging records of those stations', async () => {
    const x = await site();
    const [here] = await paidRecords(x, 1);
    const [there] = await paidRecords(x, 1);
    const role = await createRole(db, { providerId: x.providerId, permissions: FINANCE, rolePaths: ['/financialManagement'] });
    const user = await createUser(db, { providerId: x.providerId, roleId: role.id, stationIds: [here!.stationId] });
    const token = await s.login(user.username, user.password);
    const offered = await s.call<{ kind: string; refId: number }[]>('GET', `${api.invoice.billable.path}?chargeUserId=${x.users[0]!.id}`, {
      token,
    });
    expect(offered.data.filter((b) => b.kind === 'charge').map((b) => b.refId)).toEqual([here!.id]);
    const refused = await apply(token, { chargeUserId: x.users[0]!.id, chargeRecordIds: [here!.id, there!.id], ...info });
    expect(refused).toMatchObject({ code: 400, data: { field: 'chargeRecordIds' } });
    expect((await apply(token, { chargeUserId: x.users[0]!.id, chargeRecordIds: [here!.id], ...info })).code).toBe(200);
  });

  it('rejects with a reason and frees the records; a recharge can be invoiced; an invoice file must be a PDF', async () => {
    const x = await site();
    const recs = await paidRecords(x, 2);
    const t = await register(x.registrar, transferBody(x));
    expect((await confirm(x.checker, t.data.id)).code).toBe(200);
    const credit = t.data.allocations[0]!;
    const [row] = await db
      .select({ id: ledger.id })
      .from(ledger)
      .where(and(eq(ledger.thirdPartyTxnId, t.data.bankReference), eq(ledger.chargeUserId, credit.chargeUserId!)));
    const body = { chargeUserId: x.users[0]!.id, chargeRecordIds: recs.map((r) => r.id), rechargeIds: [row!.id], ...info };
    const a = await apply(x.registrar, body);
    expect(a.code, a.msg).toBe(200);
    expect(a.data.amountCents).toBe(1_000 + 1_111 + 33_334);
    const linked = await s.call<{ list: LedgerRow[] }>(
      'GET',
      `${api.rechargeRecord.list.path}?page=1&limit=10&tradeType=transfer&thirdPartyTxnId=${t.data.bankReference}`,
      { token: x.checker },
    );
    expect(linked.data.list.find((l) => l.id === row!.id)).toMatchObject({ transferId: t.data.id, invoiceId: a.data.id });

    const img = await uploadAs(s.url, x.checker, 'scan.png', png());
    const notPdf = await s.call('POST', api.invoice.issue.path, { token: x.checker, body: { id: a.data.id, fileName: img.fileName } });
    expect(notPdf).toEqual({ code: 400, msg: 'The invoice file must be a PDF uploaded to this system', data: { field: 'fileName' } });

    const rej = await s.call<InvoiceDto>('POST', api.invoice.reject.path, {
      token: x.checker,
      body: { id: a.data.id, reason: 'Wrong title' },
    });
    expect(rej.data).toMatchObject({ status: 'rejected', rejectReason: 'Wrong title', finishTime: expect.any(String) });
    const b = await apply(x.registrar, body);
    expect(b.code, b.msg).toBe(200);
    expect(b.data.items).toHaveLength(3);
  });

  /** An SMS gateway on loopback (the administrator's CSMS_SMS_WEBHOOK_URL): what it received, and how it answers. */
  async function smsGateway(answer: (res: http.ServerResponse) => void) {
    const hits: { headers: http.IncomingHttpHeaders; body: unknown }[] = [];
    const hook = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        hits.push({ headers: req.headers, body: JSON.parse(b) });
        answer(res);
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const saved = { ...s.config };
    s.config.smsWebhook = `http://127.0.0.1:${(hook.address() as { port: number }).port}/sms`;
    s.config.smsWebhookToken = 'gateway-token-1';
    return {
      hits,
      async close() {
        Object.assign(s.config, { smsWebhook: saved.smsWebhook, smsWebhookToken: saved.smsWebhookToken, smsTimeoutMs: saved.smsTimeoutMs });
        hook.closeAllConnections();
        await new Promise((r) => hook.close(r));
      },
    };
  }
  async function smsInvoice(x: Site) {
    const [rec] = await paidRecords(x, 1);
    const a = await apply(x.registrar, { chargeUserId: x.users[0]!.id, chargeRecordIds: [rec!.id], ...info, notifyType: 'sms' });
    expect(a.code, a.msg).toBe(200);
    const up = await uploadAs(s.url, x.checker, 'invoice.pdf', pdf, 'file');
    return { invoice: a.data, fileName: up.fileName };
  }

  it("texts an issued SMS invoice through the SMS webhook, in the caller's language, and sets the notice time", async () => {
    const x = await site();
    const gw = await smsGateway((res) => res.writeHead(202).end('queued'));
    try {
      const { invoice: inv, fileName } = await smsInvoice(x);
      const before = smtp.received.length;
      const issued = await s.call<InvoiceDto>('POST', api.invoice.issue.path, {
        token: x.checker,
        body: { id: inv.id, fileName },
        lang: 'zh',
      });
      expect(issued.code, issued.msg).toBe(200);
      expect(issued.data).toMatchObject({ status: 'issued', noticeTime: expect.any(String) });
      const [p] = await db.select({ name: provider.name }).from(provider).where(eq(provider.id, x.providerId));
      expect(gw.hits).toHaveLength(1);
      expect(gw.hits[0]!.body).toEqual({
        to: '13900001111',
        text: `【${p!.name}】Wang Fang，您好：您申请的发票（编号 ${inv.id}，金额 10.00 元）已开具，请查收。`,
        providerId: x.providerId,
      });
      expect(gw.hits[0]!.headers).toMatchObject({ authorization: 'Bearer gateway-token-1', 'content-type': 'application/json' });
      expect(smtp.received.length).toBe(before);
      // In English for an English-speaking operator.
      const other = await smsInvoice(x);
      const en = await s.call<InvoiceDto>('POST', api.invoice.issue.path, {
        token: x.checker,
        body: { id: other.invoice.id, fileName: other.fileName },
      });
      expect(en.code, en.msg).toBe(200);
      expect((gw.hits[1]!.body as { text: string }).text).toBe(
        `[${p!.name}] Dear Wang Fang, the invoice you asked for (no. ${other.invoice.id}, amount 10.00) has been issued.`,
      );
    } finally {
      await gw.close();
    }
  });

  it('issues an SMS invoice with a warning and no notice time when the SMS webhook fails or does not answer in time', async () => {
    const x = await site();
    const failing = await smsGateway((res) => res.writeHead(500).end('gateway down'));
    try {
      const { invoice: inv, fileName } = await smsInvoice(x);
      const r = await s.call<InvoiceDto>('POST', api.invoice.issue.path, { token: x.checker, body: { id: inv.id, fileName } });
      expect(r).toMatchObject({
        code: 601,
        msg: 'The invoice is issued, but the SMS could not be sent: the user was not notified',
        data: { status: 'issued', noticeTime: null },
      });
      expect(failing.hits).toHaveLength(1);
      const [row] = await db.select({ noticedAt: invoice.noticedAt }).from(invoice).where(eq(invoice.id, inv.id));
      expect(row!.noticedAt).toBeNull();
    } finally {
      await failing.close();
    }
    const silent = await smsGateway(() => {});
    s.config.smsTimeoutMs = 300;
    try {
      const { invoice: inv, fileName } = await smsInvoice(x);
      const r = await s.call<InvoiceDto>('POST', api.invoice.issue.path, { token: x.checker, body: { id: inv.id, fileName }, lang: 'zh' });
      expect(r).toMatchObject({ code: 601, msg: '发票已开具，但短信发送失败，未能通知用户', data: { status: 'issued', noticeTime: null } });
    } finally {
      await silent.close();
    }
  });

  it('issues an SMS invoice and says that nobody was notified (no SMS gateway)', async () => {
    const x = await site();
    const [rec] = await paidRecords(x, 1);
    const a = await apply(x.registrar, { chargeUserId: x.users[0]!.id, chargeRecordIds: [rec!.id], ...info, notifyType: 'sms' });
    const up = await uploadAs(s.url, x.checker, 'invoice.pdf', pdf, 'file');
    const before = smtp.received.length;
    const issued = await s.call<InvoiceDto>('POST', api.invoice.issue.path, {
      token: x.checker,
      body: { id: a.data.id, fileName: up.fileName },
    });
    expect(issued).toMatchObject({ code: 601, data: { status: 'issued', noticeTime: null } });
    expect(smtp.received.length).toBe(before);
  });
});

describe('SMS webhook settings', () => {
  it('reads CSMS_SMS_WEBHOOK_URL (or its older name CSMS_SMS_WEBHOOK) and the bearer token; refuses two URLs or a non-http one', () => {
    expect(loadConfig({ CSMS_SMS_WEBHOOK_URL: 'https://sms.example/send', CSMS_SMS_WEBHOOK_TOKEN: 'tok' })).toMatchObject({
      smsWebhook: 'https://sms.example/send',
      smsWebhookToken: 'tok',
      smsTimeoutMs: 10_000,
    });
    expect(loadConfig({ CSMS_SMS_WEBHOOK: 'http://10.0.0.9/sms' }).smsWebhook).toBe('http://10.0.0.9/sms');
    expect(loadConfig({}).smsWebhook).toBeUndefined();
    expect(() => loadConfig({ CSMS_SMS_WEBHOOK_URL: 'http://a/sms', CSMS_SMS_WEBHOOK: 'http://b/sms' })).toThrow(/CSMS_SMS_WEBHOOK/);
    expect(() => loadConfig({ CSMS_SMS_WEBHOOK_URL: 'ftp://a/sms' })).toThrow(/CSMS_SMS_WEBHOOK_URL/);
  });
});
