import { translate, type TransferDto, type corporateTransferApi, type transferRecordApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Principal, RequestCtx } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { canSeeProvider, isUniqueViolation } from '../../lib/scope.js';
import { IMAGE_TYPES } from '../../lib/stored-files.js';
import { centsValue } from '../cards/common.js';
import type { Ledger } from '../cards/ledger.js';
import { visibleUpload } from './stored-upload.js';
import { money, type TransferFilter, type TransferRepo } from './transfer.repo.js';

interface Deps {
  db: Db;
  repo: TransferRepo;
  ledger: Ledger;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

/** The ledger's source of a transfer's credits; the bank reference is its third-party id. */
export const TRANSFER_SOURCE = 'transfer';

/**
 * Corporate transfers (issue 18 item 1; DESIGN.md §3): registered → confirmed | rejected. Confirming is
 * a conditional update from `registered` by someone other than the registrar, and every allocation's
 * ledger credit follows in the request's transaction: a refusal or a failure leaves nothing behind.
 */
export function transferRoutes({ db, repo, ledger, events, columns, config }: Deps) {
  const stateWord = (ctx: RequestCtx, s: string) => translate(ctx.lang, `enums.transferState.${s}`);

  async function transfer(p: Principal, id: number): Promise<TransferDto> {
    return (await repo.get(p, id)) ?? Promise.reject(notFound());
  }

  async function exportTransfers(
    kind: 'corporateTransfer' | 'transferRecord',
    args: Parameters<Handlers<typeof corporateTransferApi>['export']>[0],
  ) {
    const { body, ctx, reply } = args;
    const p = ctx.principal;
    const { format, exportId, ...filter } = body;
    const word = (group: string, v: string) => translate(ctx.lang, `enums.${group}.${v}`);
    type Row = Record<string, unknown> & { id: number };
    const head = (t: TransferDto) => ({
      id: t.id,
      state: word('transferState', t.state),
      payerName: t.payerName,
      payerAccount: t.payerAccount,
      payerBank: t.payerBank,
      amountCents: centsValue(t.amountCents),
      transferDate: t.transferDate,
      bankReference: t.bankReference,
      summary: t.summary,
      remark: t.remark,
      registrarName: t.registrarName,
      deciderName: t.deciderName,
      decideTime: t.decideTime,
      rejectReason: t.rejectReason,
      providerName: t.providerName,
      createTime: t.createTime,
    });
    // Transfer records: one row per allocation with its ledger row; the list: one row per transfer.
    const rowsOf = (t: TransferDto): Row[] =>
      kind === 'corporateTransfer'
        ? [head(t)]
        : t.allocations.map((a) => ({
            ...head(t),
            targetKind: word('transferTargetKind', a.targetKind),
            account: a.account,
            cardNumber: a.cardNumber,
            allocationCents: centsValue(a.amountCents),
            ledgerId: a.ledgerId,
            balanceBeforeCents: a.balanceBeforeCents === null ? null : centsValue(a.balanceBeforeCents),
            balanceAfterCents: a.balanceAfterCents === null ? null : centsValue(a.balanceAfterCents),
          }));
    const keys =
      kind === 'corporateTransfer'
        ? Object.keys(head({ allocations: [] } as unknown as TransferDto))
        : [
            'id',
            'state',
            'payerName',
            'bankReference',
            'transferDate',
            'amountCents',
            'targetKind',
            'account',
            'cardNumber',
            'allocationCents',
            'ledgerId',
            'balanceBeforeCents',
            'balanceAfterCents',
            'deciderName',
            'decideTime',
            'providerName',
          ];
    const defaults: ExportColumn<Row>[] = keys.map((key) => ({ key }));
    const batches = keysetBatches((after, size) => repo.page(p, filter as TransferFilter, after, size));
    async function* flat() {
      for await (const batch of batches) yield batch.flatMap(rowsOf);
    }
    await streamExport(reply, {
      lang: ctx.lang,
      resource: kind,
      fileBase: kind === 'corporateTransfer' ? 'corporate-transfers' : 'transfer-records',
      format,
      columns: await columns.columnsFor(kind, defaults, ctx),
      total: await repo.count(p, filter as TransferFilter),
      batches: flat(),
      maxRows: config.exportMaxRows,
      progress: { hub: events, userId: p.userId, exportId },
    });
  }

  const corporateTransfer: Handlers<typeof corporateTransferApi> = {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return transfer(ctx.principal, query.id);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `corporateTransfer:${body.bankReference}`;
      if (!canSeeProvider(p, body.providerId)) throw notFound();
      const sum = body.allocations.reduce((s, a) => s + a.amountCents, 0);
      if (sum !== body.amountCents)
        throw badField('allocations', 'errors.transfer.splitMismatch', { sum: money(sum), amount: money(body.amountCents) });
      const taken = await repo.byReference(body.providerId, body.bankReference);
      if (taken) throw conflict('errors.transfer.referenceTaken', { reference: body.bankReference, id: taken.id }, 'bankReference');
      const userIds = body.allocations.flatMap((a) => (a.cardId ? [] : [a.chargeUserId!]));
      const cardIds = body.allocations.flatMap((a) => (a.cardId ? [a.cardId] : []));
      const users = new Set((await repo.users(body.providerId, userIds)).map((u) => u.id));
      const cards = new Set((await repo.cards(body.providerId, cardIds)).map((c) => c.id));
      const t = (key: string) => translate(ctx.lang, key);
      for (const id of userIds)
        if (!users.has(id))
          throw badField('allocations', 'errors.transfer.targetNotFound', {
            target: `${t('fields.corporateTransfer.chargeUserId')} ${id}`,
          });
      for (const id of cardIds)
        if (!cards.has(id))
          throw badField('allocations', 'errors.transfer.targetNotFound', { target: `${t('fields.corporateTransfer.cardId')} ${id}` });
      if (body.receiptFile) {
        const file = await visibleUpload(db, p, body.receiptFile);
        if (!file || !(IMAGE_TYPES.has(file.type) || file.type === 'application/pdf'))
          throw badField('receiptFile', 'errors.transfer.receiptInvalid');
      }
      let id: number;
      try {
        id = await repo.insert(
          {
            providerId: body.providerId,
            payerName: body.payerName,
            payerAccount: body.payerAccount,
            payerBank: body.payerBank,
            amountCents: body.amountCents,
            transferDate: body.transferDate,
            bankReference: body.bankReference,
            receiptFile: body.receiptFile || null,
            remark: body.remark || null,
            registeredBy: p.userId,
          },
          body.allocations,
        );
      } catch (err) {
        // Another registration of the same reference committed first.
        if (isUniqueViolation(err))
          throw conflict('errors.transfer.referenceTaken', { reference: body.bankReference, id: '-' }, 'bankReference');
        throw err;
      }
      audit.operand = `corporateTransfer:${id}:${body.bankReference}`;
      return transfer(p, id);
    },
    async confirm({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `corporateTransfer:${body.id}`;
      const t = await transfer(p, body.id);
      if (t.state !== 'registered') throw conflict('errors.transfer.decided', { id: t.id, state: stateWord(ctx, t.state) }, 'id');
      if ((await repo.registrar(t.id)) === p.userId) throw conflict('errors.transfer.sameUser', {}, 'id');
      if (!(await repo.decide(t.id, 'confirmed', p.userId, null))) {
        const now = await transfer(p, body.id);
        throw conflict('errors.transfer.decided', { id: now.id, state: stateWord(ctx, now.state) }, 'id');
      }
      // Every credit in this request's transaction: one failing undoes the state change and the others.
      for (const a of await repo.allocations(t.id)) {
        const row = await ledger.post({
          account: a.cardId ? { kind: 'card', cardId: a.cardId } : { kind: 'mobile', chargeUserId: a.chargeUserId! },
          tradeType: 'transfer',
          amountCents: a.amountCents,
          operatorUserId: p.userId,
          source: TRANSFER_SOURCE,
          thirdPartyTxnId: t.bankReference,
        });
        await repo.setLedger(a.id, row.id);
      }
      return transfer(p, t.id);
    },
    async reject({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `corporateTransfer:${body.id}`;
      const t = await transfer(p, body.id);
      if (t.state !== 'registered' || !(await repo.decide(t.id, 'rejected', p.userId, body.reason))) {
        const now = await transfer(p, body.id);
        throw conflict('errors.transfer.decided', { id: now.id, state: stateWord(ctx, now.state) }, 'id');
      }
      return transfer(p, t.id);
    },
    export: (args) => exportTransfers('corporateTransfer', args),
  };

  const transferRecord: Handlers<typeof transferRecordApi> = {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    export: (args) => exportTransfers('transferRecord', args),
  };

  return { corporateTransfer, transferRecord };
}
