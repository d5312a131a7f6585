import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { card, chargeUser, ledger, userGroup } from '../../db/schema.js';
import { createAuthorizationService, type AuthorizationContext, type AuthorizationService } from './authorize.js';
import { createLedger, LedgerError, type PostInput, type TradeType } from './ledger.js';

let s: TestServer;
let db: Db;
let providerId: number;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  providerId = (await createProvider(db)).id;
});
afterAll(() => s.close());

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;
const DAY = 86_400_000;
const NOW = new Date('2026-06-15T10:00:00Z');

async function newUser(v: Partial<typeof chargeUser.$inferInsert> = {}) {
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId, account: uniq('acct'), userType: 'card', ...v })
    .returning();
  return u!;
}
async function newCard(v: Partial<typeof card.$inferInsert> = {}) {
  const [c] = await db
    .insert(card)
    .values({
      providerId,
      cardNumber: uniq('no'),
      physicalId: uniq('UID').toUpperCase().slice(0, 20),
      expireAt: new Date(NOW.getTime() + 365 * DAY),
      ...v,
    })
    .returning();
  return c!;
}
const rowsOf = (cardId: number) => db.select().from(ledger).where(eq(ledger.cardId, cardId)).orderBy(asc(ledger.id));

describe('ledger', () => {
  it('checks signs and writes before + amount = after on the account', async () => {
    const l = createLedger({ db });
    const c = await newCard();
    const acc = { kind: 'card' as const, cardId: c.id };
    const r1 = await l.post({
      account: acc,
      tradeType: 'recharge',
      amountCents: 5000,
      operatorUserId: 1,
      source: 'console',
      thirdPartyTxnId: 'wx-1',
    });
    expect(r1).toMatchObject({
      providerId,
      accountKind: 'card',
      cardId: c.id,
      chargeUserId: null,
      amountCents: 5000,
      balanceBeforeCents: 0,
      balanceAfterCents: 5000,
      operatorUserId: 1,
      source: 'console',
      thirdPartyTxnId: 'wx-1',
      replayed: false,
    });
    const r2 = await l.post({ account: acc, tradeType: 'refund', amountCents: -1200, source: 'console' });
    expect(r2).toMatchObject({ balanceBeforeCents: 5000, balanceAfterCents: 3800 });

    const bad: [TradeType, number][] = [
      ['recharge', 0],
      ['recharge', -1],
      ['refund', 0],
      ['refund', 100],
      ['charge', 1],
      ['transfer', 0],
      ['recharge', 1.5],
    ];
    for (const [tradeType, amountCents] of bad) {
      await expect(
        l.post({ account: acc, tradeType, amountCents, source: 'console' }),
        `${tradeType} ${amountCents}`,
      ).rejects.toBeInstanceOf(LedgerError);
    }
    await expect(
      l.post({ account: { kind: 'card', cardId: 999_999 }, tradeType: 'recharge', amountCents: 1, source: 'console' }),
    ).rejects.toMatchObject({ code: 'accountNotFound' });

    // A charge may leave a small debt.
    expect(await l.post({ account: acc, tradeType: 'charge', amountCents: -4000, source: 'ocpp', transactionRef: 'tx-1' })).toMatchObject({
      balanceAfterCents: -200,
    });
    expect(await l.post({ account: acc, tradeType: 'charge', amountCents: 0, source: 'ocpp' })).toMatchObject({ balanceAfterCents: -200 });
    const [after] = await db.select().from(card).where(eq(card.id, c.id));
    expect(after!.balanceCents).toBe(-200);
    expect((await rowsOf(c.id)).map((r) => r.tradeType)).toEqual(['recharge', 'refund', 'charge', 'charge']);
  });

  it('charges a transaction once per account', async () => {
    const l = createLedger({ db });
    const c = await newCard();
    const other = await newCard();
    const acc = { kind: 'card' as const, cardId: c.id };
    await l.post({ account: acc, tradeType: 'recharge', amountCents: 1000, source: 'console' });
    const first = await l.post({ account: acc, tradeType: 'charge', amountCents: -300, source: 'ocpp', transactionRef: '42' });
    const again = await Promise.all(
      [1, 2, 3].map(() => l.post({ account: acc, tradeType: 'charge', amountCents: -300, source: 'ocpp', transactionRef: '42' })),
    );
    for (const r of again) expect(r).toMatchObject({ id: first.id, replayed: true, balanceAfterCents: 700 });
    expect((await db.select().from(card).where(eq(card.id, c.id)))[0]!.balanceCents).toBe(700);
    expect(await rowsOf(c.id)).toHaveLength(2);
    // The same reference on another account is another charge.
    await l.post({ account: { kind: 'card', cardId: other.id }, tradeType: 'recharge', amountCents: 500, source: 'console' });
    expect(
      await l.post({
        account: { kind: 'card', cardId: other.id },
        tradeType: 'charge',
        amountCents: -300,
        source: 'ocpp',
        transactionRef: '42',
      }),
    ).toMatchObject({ replayed: false, balanceAfterCents: 200 });
    // The partial unique index backs it up for writers that bypass post().
    await expect(
      db.insert(ledger).values({
        providerId,
        accountKind: 'card',
        cardId: c.id,
        tradeType: 'charge',
        amountCents: -1,
        balanceBeforeCents: 700,
        balanceAfterCents: 699,
        source: 'x',
        transactionRef: '42',
      }),
    ).rejects.toThrow();
  });

  it('works on a mobile account and inside a caller transaction', async () => {
    const l = createLedger({ db });
    const u = await newUser({ userType: 'phone' });
    const acc = { kind: 'mobile' as const, chargeUserId: u.id };
    await l.post({ account: acc, tradeType: 'recharge', amountCents: 800, source: 'app' });
    await expect(
      db.transaction(async (tx) => {
        await l.post({ account: acc, tradeType: 'charge', amountCents: -500, source: 'ocpp', transactionRef: 't1' }, tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const r = await l.post({ account: acc, tradeType: 'charge', amountCents: -500, source: 'ocpp', transactionRef: 't1' });
    expect(r).toMatchObject({
      accountKind: 'mobile',
      chargeUserId: u.id,
      cardId: null,
      balanceBeforeCents: 800,
      balanceAfterCents: 300,
      replayed: false,
    });
    expect((await db.select().from(chargeUser).where(eq(chargeUser.id, u.id)))[0]!.mobileBalanceCents).toBe(300);
  });

  it('property: 50 concurrent recharges, refunds and charges on one account chain exactly', async () => {
    const l = createLedger({ db });
    const initial = 10_000;
    const c = await newCard();
    await l.post({ account: { kind: 'card', cardId: c.id }, tradeType: 'recharge', amountCents: initial, source: 'console' });
    let seed = 12345;
    const rand = (m: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % m;
    };
    const ops: PostInput[] = Array.from({ length: 50 }, (_, i) => {
      const kind = (['recharge', 'refund', 'charge'] as const)[rand(3)]!;
      const cents = 1 + rand(5000);
      const amountCents = kind === 'recharge' ? cents : -cents;
      return {
        account: { kind: 'card', cardId: c.id },
        tradeType: kind,
        amountCents,
        source: 'test',
        ...(kind === 'charge' ? { transactionRef: `p${i}` } : {}),
      };
    });
    const results = await Promise.all(ops.map((op) => l.post(op)));
    expect(results.every((r) => !r.replayed)).toBe(true);

    const rows = await rowsOf(c.id);
    expect(rows).toHaveLength(51);
    for (const r of rows) expect(r.balanceBeforeCents + r.amountCents).toBe(r.balanceAfterCents);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.balanceBeforeCents, `row ${i}`).toBe(rows[i - 1]!.balanceAfterCents);
    expect(rows[0]!.balanceBeforeCents).toBe(0);
    const sum = ops.reduce((a, o) => a + o.amountCents, 0);
    const [final] = await db.select().from(card).where(eq(card.id, c.id));
    expect(final!.balanceCents).toBe(initial + sum);
    expect(rows.at(-1)!.balanceAfterCents).toBe(initial + sum);
  });
});

describe('authorization', () => {
  const ctx = (o: { active?: string[]; usedWh?: number } = {}) => ({
    now: NOW,
    hasActiveTransaction: (idTag: string) => (o.active ?? []).includes(idTag),
    usedWhThisMonth: () => o.usedWh ?? 0,
  });

  /** The decision without the owner ids (asserted on their own). */
  const decide = async (auth: AuthorizationService, idTag: string, c: AuthorizationContext) => {
    const { owner: _owner, ...decision } = await auth.authorize(idTag, c);
    return decision;
  };

  it('names the card and charge user behind every decision on a known card', async () => {
    const auth = createAuthorizationService({ db, minBalanceCents: 0 });
    const user = await newUser();
    const c = await newCard({ chargeUserId: user.id, balanceCents: 1000 });
    const lost = await newCard({ status: 'lost' });
    expect((await auth.authorize(c.physicalId, ctx())).owner).toEqual({ cardId: c.id, chargeUserId: user.id });
    expect((await auth.authorize(lost.physicalId, ctx())).owner).toEqual({ cardId: lost.id, chargeUserId: null });
    expect((await auth.authorize('NOSUCHCARD', ctx())).owner).toBeUndefined();
  });

  it('with a cache, reads a card and the month energy once until forgotten or expired', async () => {
    const auth = createAuthorizationService({ db, minBalanceCents: 0, cacheMs: 60_000 });
    const [group] = await db
      .insert(userGroup)
      .values({ providerId, name: uniq('g'), monthlyLimitWh: 10_000 })
      .returning();
    const user = await newUser({ groupId: group!.id });
    const c = await newCard({ chargeUserId: user.id, balanceCents: 1000 });
    let counted = 0;
    const used = { ...ctx(), monthKey: '2026-11', usedWhThisMonth: () => (counted++, 0) };
    expect(await decide(auth, c.physicalId, used)).toMatchObject({ status: 'Accepted' });
    // Changed behind the cache's back: the cached row still answers, and the energy is not counted again.
    await db.update(card).set({ status: 'lost' }).where(eq(card.id, c.id));
    expect(await decide(auth, c.physicalId.toLowerCase(), used)).toMatchObject({ status: 'Accepted' });
    expect(counted).toBe(1);
    // Another month is counted anew.
    await auth.authorize(c.physicalId, { ...used, monthKey: '2026-12' });
    expect(counted).toBe(2);
    // Forgetting the idTag (this node changed it) reads it again.
    auth.forget(c.physicalId);
    expect(await decide(auth, c.physicalId, used)).toEqual({ status: 'Blocked', reason: 'lost' });
    await db.update(card).set({ status: 'valid' }).where(eq(card.id, c.id));
    auth.forget();
    expect(await decide(auth, c.physicalId, used)).toMatchObject({ status: 'Accepted' });
    // Without a cache every call reads.
    const direct = createAuthorizationService({ db, minBalanceCents: 0 });
    await db.update(card).set({ status: 'lost' }).where(eq(card.id, c.id));
    expect(await decide(direct, c.physicalId, used)).toEqual({ status: 'Blocked', reason: 'lost' });
    // And an entry older than cacheMs is read again.
    const brief = createAuthorizationService({ db, minBalanceCents: 0, cacheMs: 1 });
    expect(await decide(brief, c.physicalId, used)).toEqual({ status: 'Blocked', reason: 'lost' });
    await db.update(card).set({ status: 'valid' }).where(eq(card.id, c.id));
    await new Promise((r) => setTimeout(r, 5));
    expect(await decide(brief, c.physicalId, used)).toMatchObject({ status: 'Accepted' });
  });

  it('answers each card state with the OCPP status and the reason', async () => {
    const auth = createAuthorizationService({ db, minBalanceCents: 100 });
    const [group] = await db
      .insert(userGroup)
      .values({ providerId, name: uniq('g'), monthlyLimitWh: 50_000 })
      .returning();
    const owner = await newUser({ groupId: group!.id, account: uniq('Owner') });
    const expireAt = new Date(NOW.getTime() + 30 * DAY);
    const valid = await newCard({ chargeUserId: owner.id, balanceCents: 5000, expireAt, physicalId: uniq('AbCd').slice(0, 20) });
    const lone = await newCard({ balanceCents: 5000 });
    const lost = await newCard({ status: 'lost', balanceCents: 5000 });
    const byDate = await newCard({ balanceCents: 5000, expireAt: new Date(NOW.getTime() - 1) });
    const byStatus = await newCard({ status: 'expired', balanceCents: 5000 });
    const poor = await newCard({ balanceCents: 99 });
    const indebted = await newCard({ balanceCents: -50 });
    const disabled = await newCard({ chargeUserId: (await newUser({ status: 0 })).id, balanceCents: 5000 });

    expect(await decide(auth, valid.physicalId.toLowerCase(), ctx())).toEqual({
      status: 'Accepted',
      reason: 'accepted',
      expiryDate: expireAt.toISOString(),
      parentIdTag: owner.account,
    });
    expect(await decide(auth, valid.physicalId.toUpperCase(), ctx())).toMatchObject({ status: 'Accepted' });
    expect(await decide(auth, lone.physicalId, ctx())).toEqual({
      status: 'Accepted',
      reason: 'accepted',
      expiryDate: lone.expireAt.toISOString(),
    });
    expect(await decide(auth, 'NOSUCHCARD', ctx())).toEqual({ status: 'Invalid', reason: 'unknown' });
    expect(await decide(auth, lost.physicalId, ctx())).toEqual({ status: 'Blocked', reason: 'lost' });
    expect(await decide(auth, byDate.physicalId, ctx())).toEqual({ status: 'Expired', reason: 'expired' });
    expect(await decide(auth, byStatus.physicalId, ctx())).toEqual({ status: 'Expired', reason: 'expiredByOperator' });
    expect(await decide(auth, poor.physicalId, ctx())).toEqual({ status: 'Blocked', reason: 'insufficientBalance' });
    expect(await decide(auth, indebted.physicalId, ctx())).toEqual({ status: 'Blocked', reason: 'insufficientBalance' });
    expect(await decide(auth, disabled.physicalId, ctx())).toEqual({ status: 'Blocked', reason: 'userDisabled' });
    expect(await decide(auth, valid.physicalId, ctx({ usedWh: 49_999 }))).toMatchObject({ status: 'Accepted' });
    expect(await decide(auth, valid.physicalId, ctx({ usedWh: 50_000 }))).toEqual({ status: 'Blocked', reason: 'groupLimit' });
    expect(await decide(auth, valid.physicalId, ctx({ active: [valid.physicalId] }))).toEqual({
      status: 'ConcurrentTx',
      reason: 'concurrentTx',
    });
    // A zero minimum still needs a positive balance.
    const lenient = createAuthorizationService({ db, minBalanceCents: 0 });
    expect(await decide(lenient, poor.physicalId, ctx())).toMatchObject({ status: 'Accepted' });
    expect(await decide(lenient, (await newCard({ balanceCents: 0 })).physicalId, ctx())).toEqual({
      status: 'Blocked',
      reason: 'insufficientBalance',
    });
  });

  it("accepts a card at its provider's chargers and those of providers below it, and nowhere else", async () => {
    const auth = createAuthorizationService({ db, minBalanceCents: 0 });
    const child = (await createProvider(db, { parentId: providerId })).id;
    const stranger = (await createProvider(db)).id;
    const c = await newCard({ balanceCents: 1000 });
    const at = (pid: number) => decide(auth, c.physicalId, { ...ctx(), providerId: pid });
    expect(await at(providerId)).toMatchObject({ status: 'Accepted' });
    expect(await at(child)).toMatchObject({ status: 'Accepted' });
    expect(await at(stranger)).toEqual({ status: 'Invalid', reason: 'otherProvider' });
    const list = async (pid: number) => (await auth.localList(pid, NOW)).entries.map((e) => e.idTag);
    expect(await list(child)).toContain(c.physicalId);
    expect(await list(stranger)).not.toContain(c.physicalId);
  });

  it('answers a master pass with its group to stop, whatever its balance or sessions, and refuses it to start', async () => {
    const auth = createAuthorizationService({ db, minBalanceCents: 100, masterPassGroupId: 'POLICE' });
    const p = (await createProvider(db)).id;
    const officer = await newUser({ providerId: p, account: uniq('officer') });
    // No balance, a session running: neither matters to a card that charges nothing.
    const pass = await newCard({ providerId: p, chargeUserId: officer.id, masterPass: true, balanceCents: 0 });
    const busy = ctx({ active: [pass.physicalId] });
    const expiryDate = pass.expireAt.toISOString();
    expect(await decide(auth, pass.physicalId, { ...busy, providerId: p })).toEqual({
      status: 'Accepted',
      reason: 'accepted',
      expiryDate,
      parentIdTag: 'POLICE',
    });
    expect(await decide(auth, pass.physicalId, { ...busy, providerId: p, start: true })).toEqual({
      status: 'Invalid',
      reason: 'masterPass',
    });
    // Its provider's chargers only, and a lost master pass is lost.
    expect(await decide(auth, pass.physicalId, { ...busy, providerId: (await createProvider(db)).id })).toEqual({
      status: 'Invalid',
      reason: 'otherProvider',
    });
    await db.update(card).set({ status: 'lost' }).where(eq(card.id, pass.id));
    expect(await decide(auth, pass.physicalId, busy)).toEqual({ status: 'Blocked', reason: 'lost' });
    // The local list carries it with the group, so that a charger recognises it offline; making a card a
    // master pass is a new version of the list.
    await db.update(card).set({ status: 'valid' }).where(eq(card.id, pass.id));
    const other = await newCard({ providerId: p, balanceCents: 500 });
    const before = await auth.localList(p, NOW);
    expect(before.entries).toContainEqual({ idTag: pass.physicalId, idTagInfo: { status: 'Accepted', expiryDate, parentIdTag: 'POLICE' } });
    // A 1.6 charger's list leaves it out: it knows no master pass and would let one start offline.
    const for16 = (await auth.localList(p, NOW, { masterPasses: false })).entries.map((e) => e.idTag);
    expect(for16).toContain(other.physicalId);
    expect(for16).not.toContain(pass.physicalId);
    await db.update(card).set({ masterPass: true }).where(eq(card.id, other.id));
    expect((await auth.localList(p, NOW)).version).toBeGreaterThan(before.version);
    // A user whose account happens to read as the group (ids compare without regard to case) is not made a
    // master pass by it: that card carries no group.
    const namesake = await newUser({ providerId: p, account: 'police' });
    const plain = await newCard({ providerId: p, chargeUserId: namesake.id, balanceCents: 500 });
    const answer = await decide(auth, plain.physicalId, { ...ctx(), providerId: p });
    expect(answer).toMatchObject({ status: 'Accepted' });
    expect(answer).not.toHaveProperty('parentIdTag');
    expect((await auth.localList(p, NOW)).entries.find((e) => e.idTag === plain.physicalId)?.idTagInfo).not.toHaveProperty('parentIdTag');
  });

  it('keeps physical ids unique regardless of case', async () => {
    const c = await newCard();
    await expect(newCard({ physicalId: c.physicalId.toLowerCase() })).rejects.toThrow();
  });

  it('lists cards for SendLocalList with a version that grows on changes', async () => {
    const auth = createAuthorizationService({ db, minBalanceCents: 100 });
    const p = (await createProvider(db)).id;
    const owner = await newUser({ providerId: p, account: uniq('Fleet') });
    const expireAt = new Date(NOW.getTime() + 10 * DAY);
    const a = await newCard({ providerId: p, chargeUserId: owner.id, expireAt, balanceCents: 0 });
    const b = await newCard({ providerId: p, status: 'lost' });
    const e = await newCard({ providerId: p, expireAt: new Date(NOW.getTime() - DAY) });

    const l0 = await auth.localList(p, NOW);
    // Nothing left on the card: Blocked until it is recharged.
    expect(l0.entries[0]).toEqual({ idTag: a.physicalId, idTagInfo: { status: 'Blocked' } });
    const recharge = (amountCents: number) =>
      createLedger({ db }).post({ account: { kind: 'card', cardId: a.id }, tradeType: 'recharge', amountCents, source: 'console' });
    await recharge(50);
    const l1 = await auth.localList(p, NOW);
    // The balance crossed zero: a new version.
    expect(l1.version).toBeGreaterThan(l0.version);
    expect(l1.entries).toEqual([
      // The minimum balance is not part of the list: it needs the central system.
      { idTag: a.physicalId, idTagInfo: { status: 'Accepted', expiryDate: expireAt.toISOString(), parentIdTag: owner.account } },
      { idTag: b.physicalId, idTagInfo: { status: 'Blocked' } },
      { idTag: e.physicalId, idTagInfo: { status: 'Expired' } },
    ]);
    const all = await auth.localList(undefined, NOW);
    expect(all.version).toBe(l1.version);
    expect(all.entries.length).toBeGreaterThan(l1.entries.length);

    // A balance change that stays above zero does not touch the list; a status change does.
    await recharge(100);
    expect((await auth.localList(p, NOW)).version).toBe(l1.version);
    await db.update(card).set({ status: 'lost' }).where(eq(card.id, a.id));
    const l2 = await auth.localList(p, NOW);
    expect(l2.version).toBeGreaterThan(l1.version);
    expect(l2.entries[0]).toEqual({ idTag: a.physicalId, idTagInfo: { status: 'Blocked' } });
    await db
      .update(chargeUser)
      .set({ account: uniq('renamed') })
      .where(eq(chargeUser.id, owner.id));
    const l3 = await auth.localList(p, NOW);
    expect(l3.version).toBeGreaterThan(l2.version);
    await newCard({ providerId: p });
    const l4 = await auth.localList(p, NOW);
    expect(l4.version).toBeGreaterThan(l3.version);
    expect(l4.entries).toHaveLength(4);
  });
});
