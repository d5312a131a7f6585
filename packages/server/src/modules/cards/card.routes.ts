import { CARD_DETAIL_LEDGER_ROWS, Code, translate, type cardApi, type Lang } from '@csms/contract';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { card } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { isUniqueViolation } from '../../lib/scope.js';
import { cardState, toCardDto, type CardRepo, type CardRow } from './card.repo.js';
import { blank, centsText, centsValue, type Refs } from './common.js';
import { consoleRef, type Ledger } from './ledger.js';
import type { RechargeRecordRepo } from './recharge-record.repo.js';

interface Deps {
  db: Db;
  repo: CardRepo;
  records: RechargeRecordRepo;
  refs: Refs;
  ledger: Ledger;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

const stateName = (lang: Lang, row: Pick<CardRow, 'status' | 'expireAt'>) => translate(lang, `enums.cardState.${cardState(row).state}`);

export function cardRoutes({ db, repo, records, refs, ledger, events, columns, config }: Deps): Handlers<typeof cardApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toCardDto((await repo.get(p, id))!);
  const numberTaken = (cardNumber: string) => conflict('errors.card.numberTaken', { cardNumber }, 'cardNumber');
  const physicalIdTaken = (physicalId: string) => conflict('errors.card.physicalIdTaken', { physicalId }, 'physicalId');

  /** The owner must be a charge user the caller sees (else 404) of the card's provider. */
  async function checkOwner(p: Principal, chargeUserId: number | null | undefined, providerId: number) {
    if (!chargeUserId) return;
    const u = await refs.chargeUser(p, chargeUserId);
    if (!u) throw notFound();
    if (u.providerId !== providerId) throw badField('chargeUserId', 'errors.card.userMismatch');
  }

  /** valid → lost, lost → valid, valid → expired (marked); anything else is refused with the card's state. */
  async function transition(p: Principal, lang: Lang, id: number, from: 'valid' | 'lost', to: 'valid' | 'lost' | 'expired') {
    const current = await mustGet(p, id);
    if (current.status !== from || !(await repo.transition(id, from, to))) {
      const now = (await repo.get(p, id)) ?? current;
      throw conflict('errors.card.badState', { cardNumber: current.cardNumber, state: stateName(lang, now) });
    }
    return { current, dto: await reread(p, id) };
  }

  /**
   * Lock the card, let `check` refuse, then post: a balance change that cannot race another. A request sent
   * again (its reference already posted) is answered as the first was, before any check.
   */
  async function move(p: Principal, id: number, check: (locked: typeof card.$inferSelect) => void, post: Parameters<Ledger['post']>[0]) {
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(card).where(eq(card.id, id)).for('update');
      if (!locked) throw notFound();
      if (await ledger.posted(post.account, post.tradeType, post.transactionRef ?? null, tx)) return;
      check(locked);
      await ledger.post(post, tx);
    });
    return reread(p, id);
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async options({ query, ctx }) {
      return repo.options(ctx.principal, query.keyword, query.providerId);
    },
    async get({ query, ctx }) {
      const row = await mustGet(ctx.principal, query.id);
      return { ...toCardDto(row), ledger: await records.ofCard(row.id, CARD_DETAIL_LEDGER_ROWS) };
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `card:${body.cardNumber}`;
      if (!(await refs.provider(p, body.providerId))) throw notFound();
      await checkOwner(p, body.chargeUserId, body.providerId);
      if (await repo.numberTaken(body.providerId, body.cardNumber)) throw numberTaken(body.cardNumber);
      if (await repo.physicalIdTaken(body.physicalId)) throw physicalIdTaken(body.physicalId);
      try {
        // The card and its prepaid recharge are one: either both exist or neither.
        const id = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(card)
            .values({
              providerId: body.providerId,
              cardNumber: body.cardNumber,
              physicalId: body.physicalId,
              chargeUserId: body.chargeUserId ?? null,
              expireAt: new Date(body.expireTime),
              email: body.email,
              masterPass: body.masterPass ?? false,
            })
            .returning({ id: card.id });
          if (body.prepaidCents > 0) {
            await ledger.post(
              {
                account: { kind: 'card', cardId: row!.id },
                tradeType: 'recharge',
                amountCents: body.prepaidCents,
                operatorUserId: p.userId,
                source: 'console',
                thirdPartyTxnId: blank(body.thirdPartyTxnId),
              },
              tx,
            );
          }
          return row!.id;
        });
        return reread(p, id);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        throw (await repo.physicalIdTaken(body.physicalId)) ? physicalIdTaken(body.physicalId) : numberTaken(body.cardNumber);
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `card:${current.cardNumber}`;
      await checkOwner(p, body.chargeUserId, current.providerId);
      await repo.update(body.id, {
        chargeUserId: body.chargeUserId ?? null,
        expireAt: new Date(body.expireTime),
        email: body.email,
        // Left as it is when the form does not send it.
        ...(body.masterPass !== undefined ? { masterPass: body.masterPass } : {}),
      });
      return reread(p, body.id);
    },
    async reportLoss({ body, ctx, audit }) {
      const { current, dto } = await transition(ctx.principal, ctx.lang, body.id, 'valid', 'lost');
      audit.operand = `card:${current.cardNumber}`;
      return dto;
    },
    async cancelLoss({ body, ctx, audit }) {
      const { current, dto } = await transition(ctx.principal, ctx.lang, body.id, 'lost', 'valid');
      audit.operand = `card:${current.cardNumber}`;
      return dto;
    },
    async expire({ body, ctx, audit }) {
      const { current, dto } = await transition(ctx.principal, ctx.lang, body.id, 'valid', 'expired');
      audit.operand = `card:${current.cardNumber}`;
      return dto;
    },
    async recharge({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `card:${current.cardNumber}`;
      // A lost or expired card takes no money; a refund of what is left is always possible.
      return move(
        p,
        body.id,
        (locked) => {
          if (cardState({ status: locked.status, expireAt: locked.expireAt }).state !== 'valid') {
            throw conflict('errors.card.notUsable', { cardNumber: locked.cardNumber, state: stateName(ctx.lang, locked) });
          }
        },
        {
          account: { kind: 'card', cardId: body.id },
          tradeType: 'recharge',
          amountCents: body.amountCents,
          operatorUserId: p.userId,
          source: 'console',
          thirdPartyTxnId: blank(body.thirdPartyTxnId),
          transactionRef: consoleRef(body.requestId),
        },
      );
    },
    async refund({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `card:${current.cardNumber}`;
      return move(
        p,
        body.id,
        (locked) => {
          if (body.amountCents > locked.balanceCents) {
            throw new AppError(
              Code.CONFLICT,
              'errors.card.refundTooLarge',
              { balance: centsText(Math.max(0, locked.balanceCents)) },
              'amountCents',
            );
          }
        },
        {
          account: { kind: 'card', cardId: body.id },
          tradeType: 'refund',
          amountCents: -body.amountCents,
          operatorUserId: p.userId,
          source: 'console',
          thirdPartyTxnId: blank(body.thirdPartyTxnId),
          transactionRef: consoleRef(body.requestId),
        },
      );
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const now = new Date();
      const defaults: ExportColumn<CardRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'cardNumber' },
        { key: 'physicalId' },
        { key: 'account' },
        { key: 'phone' },
        { key: 'email' },
        { key: 'balanceCents', value: (r) => centsValue(r.balanceCents) },
        { key: 'state', value: (r) => translate(ctx.lang, `enums.cardState.${cardState(r, now).state}`) },
        { key: 'expireTime', value: (r) => r.expireAt.toISOString() },
        { key: 'masterPass', value: (r) => translate(ctx.lang, `enums.yesNo.${r.masterPass ? '1' : '0'}`) },
        { key: 'providerName' },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'card',
        fileBase: 'card',
        format,
        columns: await columns.columnsFor('card', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<(CardRow & Record<string, unknown>)[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
