import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { prebuilt } from '../../db/prebuilt.js';
import { card, chargeUser, ledger } from '../../db/schema.js';

export type LedgerAccount = { kind: 'card'; cardId: number } | { kind: 'mobile'; chargeUserId: number };
export type TradeType = 'recharge' | 'refund' | 'charge' | 'transfer' | 'adjustment' | 'bonus';
export type LedgerEntry = typeof ledger.$inferSelect;

export interface PostInput {
  account: LedgerAccount;
  tradeType: TradeType;
  /**
   * Signed integer cents: recharge > 0, refund < 0 (spec: refund amount negative), charge ≤ 0, transfer ≠ 0,
   * adjustment ≠ 0 (the correction of a settled charge: < 0 takes more, > 0 gives back), bonus > 0 (an
   * activity's credit for a recharge, issue 19).
   */
  amountCents: number;
  operatorUserId?: number | null | undefined;
  /** Where the money came from: 'console', 'ocpp', 'app', 'import', … */
  source: string;
  thirdPartyTxnId?: string | null | undefined;
  /** The charging transaction a charge settles or an adjustment corrects; makes either idempotent per account. */
  transactionRef?: string | null | undefined;
}

/**
 * The reference of an operator's recharge or refund: its dialog's request id, the same when the request is
 * sent again. The partial unique indexes `ledger_{card,mobile}_console_ref` keep it to one entry per
 * account and trade type, which `post` then returns as replayed.
 */
export const consoleRef = (requestId: string | undefined) => (requestId ? `console:${requestId}` : null);

export class LedgerError extends Error {
  constructor(
    readonly code: 'badAmount' | 'accountNotFound',
    message: string,
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

function checkAmount(tradeType: TradeType, amount: number): void {
  if (!Number.isSafeInteger(amount)) throw new LedgerError('badAmount', `amount must be whole cents, got ${amount}`);
  const ok = {
    recharge: amount > 0,
    refund: amount < 0,
    charge: amount <= 0,
    transfer: amount !== 0,
    adjustment: amount !== 0,
    bonus: amount > 0,
  }[tradeType];
  if (!ok) throw new LedgerError('badAmount', `a ${tradeType} of ${amount} cents has the wrong sign`);
}

/**
 * The append-only ledger of DESIGN.md §3: the only way a card balance or a mobile balance changes.
 *
 * `post` locks the account row (`select … for update`), so concurrent posts on one account
 * serialize and every row satisfies before + amount = after (also a check constraint), each
 * row's before being the previous row's after. The ledger checks signs, not balances: it records
 * what happened and the callers decide (authorization requires a minimum balance to start; the
 * refund screen checks what may be refunded). In particular a charge — the final settlement of a
 * session — may leave a small debt (negative balance), as DESIGN.md §9 allows; the next recharge
 * pays it off.
 *
 * A charge (or an adjustment) carrying a `transactionRef` already posted to the same account returns
 * the existing row (`replayed: true`) instead of posting twice: the partial unique indexes
 * `ledger_{card,mobile}_{charge,adjustment}_ref` refuse the second entry, and its balance change goes with it.
 * A post is two statements: the lock, then the entry with the balance.
 */
/**
 * What follows a recharge inside its transaction (issue 19: an activity's bonus, posted through `post` on
 * the same transaction), so the recharge and its bonus commit together or not at all.
 */
export interface LedgerHooks {
  recharged(tx: Tx, entry: LedgerEntry, post: (input: PostInput) => Promise<LedgerEntry>): Promise<void>;
}

export function createLedger({ db, hooks }: { db: Db; hooks?: LedgerHooks }) {
  /**
   * The entry, and the account's new balance only if the entry was written. A charge or an adjustment already
   * posted for the same transaction to this account meets its partial unique index (`ledger_*_ref`): nothing
   * is written, and no row comes back.
   */
  const entryStatement = (kind: LedgerAccount['kind']) =>
    prebuilt(db, (d) => {
      const p = (name: string) => sql.placeholder(name);
      const entry = d.$with('entry').as(
        d
          .insert(ledger)
          .values({
            providerId: p('providerId'),
            accountKind: kind,
            cardId: kind === 'card' ? p('accountId') : null,
            chargeUserId: kind === 'mobile' ? p('accountId') : null,
            tradeType: p('tradeType'),
            amountCents: p('amountCents'),
            balanceBeforeCents: p('before'),
            balanceAfterCents: p('after'),
            operatorUserId: p('operatorUserId'),
            source: p('source'),
            thirdPartyTxnId: p('thirdPartyTxnId'),
            transactionRef: p('transactionRef'),
            createdAt: sql`now()`,
          })
          .onConflictDoNothing()
          .returning(),
      );
      const posted = sql`exists (select 1 from ${entry})`;
      const balance = d.$with('balance').as(
        kind === 'card'
          ? d
              .update(card)
              .set({ balanceCents: sql`${p('after')}` })
              .where(and(eq(card.id, p('accountId')), posted))
              .returning({ id: sql<number>`${card.id}` })
          : d
              .update(chargeUser)
              .set({ mobileBalanceCents: sql`${p('after')}` })
              .where(and(eq(chargeUser.id, p('accountId')), posted))
              .returning({ id: sql<number>`${chargeUser.id}` }),
      );
      return d.with(entry, balance).select().from(entry);
    });
  const postToCard = entryStatement('card');
  const postToMobile = entryStatement('mobile');
  // The account's row locked, with its provider and balance (built once, as the entry).
  const lockCard = prebuilt(db, (d) =>
    d
      .select({ providerId: card.providerId, balance: card.balanceCents })
      .from(card)
      .where(eq(card.id, sql.placeholder('id')))
      .for('update'),
  );
  const lockMobile = prebuilt(db, (d) =>
    d
      .select({ providerId: chargeUser.providerId, balance: chargeUser.mobileBalanceCents })
      .from(chargeUser)
      .where(eq(chargeUser.id, sql.placeholder('id')))
      .for('update'),
  );

  /** The account's entry of this trade type with this reference, if any (a replay finds what the first post wrote). */
  async function postedEntry(tx: Tx, account: LedgerAccount, tradeType: TradeType, transactionRef: string) {
    const [row] = await tx
      .select()
      .from(ledger)
      .where(
        and(
          account.kind === 'card'
            ? and(eq(ledger.cardId, account.cardId), eq(ledger.accountKind, 'card'))
            : and(eq(ledger.chargeUserId, account.chargeUserId), eq(ledger.accountKind, 'mobile')),
          eq(ledger.tradeType, tradeType),
          eq(ledger.transactionRef, transactionRef),
        ),
      )
      .limit(1);
    return row;
  }

  async function postIn(tx: Tx, input: PostInput): Promise<LedgerEntry & { replayed: boolean }> {
    checkAmount(input.tradeType, input.amountCents);
    const { account } = input;
    const locked = await (account.kind === 'card' ? lockCard : lockMobile)(tx, {
      id: account.kind === 'card' ? account.cardId : account.chargeUserId,
    });
    const acc = locked[0];
    if (!acc)
      throw new LedgerError(
        'accountNotFound',
        `${account.kind} account ${account.kind === 'card' ? account.cardId : account.chargeUserId} not found`,
      );

    const before = acc.balance;
    const after = before + input.amountCents;
    // The entry and the new balance in one statement (built once per kind of account).
    const [row] = await (account.kind === 'card' ? postToCard : postToMobile)(tx, {
      accountId: account.kind === 'card' ? account.cardId : account.chargeUserId,
      providerId: acc.providerId,
      tradeType: input.tradeType,
      amountCents: input.amountCents,
      before,
      after,
      operatorUserId: input.operatorUserId ?? null,
      source: input.source,
      thirdPartyTxnId: input.thirdPartyTxnId ?? null,
      transactionRef: input.transactionRef ?? null,
    });
    if (!row) {
      const existing = await postedEntry(tx, account, input.tradeType, input.transactionRef ?? '');
      if (!existing) throw new Error(`ledger: the ${input.tradeType} of ${account.kind} account was neither posted nor found`);
      return { ...existing, replayed: true };
    }
    if (input.tradeType === 'recharge' && hooks) await hooks.recharged(tx, row, (bonus) => postIn(tx, bonus));
    return { ...row, replayed: false };
  }

  return {
    /** Whether an entry of this trade type with this reference is on the account already (a request sent again). */
    async posted(account: LedgerAccount, tradeType: TradeType, transactionRef: string | null, tx: Tx): Promise<boolean> {
      return transactionRef ? (await postedEntry(tx, account, tradeType, transactionRef)) !== undefined : false;
    },
    /** Post one balance change; inside `tx` when given, else in a transaction of its own. */
    post(input: PostInput, tx?: Tx): Promise<LedgerEntry & { replayed: boolean }> {
      return tx ? postIn(tx, input) : db.transaction((t) => postIn(t, input));
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
