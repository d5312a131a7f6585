import type { DayZone } from '../../lib/day-zone.js';
import { hasKey, translate, type rechargeRecordApi } from '@csms/contract';
import type { Config } from '../../config.js';
import { notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { centsValue } from './common.js';
import type { LedgerRowRaw, RechargeRecordRepo } from './recharge-record.repo.js';

interface Deps {
  repo: RechargeRecordRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  dayZone: DayZone;
}

/** Recharge records under finance: the ledger, read-only. */
export function rechargeRecordRoutes({ repo, events, columns, config, dayZone }: Deps): Handlers<typeof rechargeRecordApi> {
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...days } = body;
      const filter = await dayZone.bound(p, days);
      const t = (key: string) => translate(ctx.lang, key);
      const money = (
        key: 'amountCents' | 'balanceBeforeCents' | 'balanceAfterCents',
      ): ExportColumn<LedgerRowRaw & Record<string, unknown>> => ({
        key,
        value: (r) => centsValue(r[key]),
      });
      const defaults: ExportColumn<LedgerRowRaw & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
        { key: 'tradeType', value: (r) => t(`enums.tradeType.${r.tradeType}`) },
        { key: 'accountKind', value: (r) => t(`enums.accountKind.${r.accountKind}`) },
        { key: 'cardNumber' },
        { key: 'account' },
        money('amountCents'),
        { key: 'discountCents', value: (r) => (r.discountCents === null ? null : centsValue(Number(r.discountCents))) },
        money('balanceBeforeCents'),
        money('balanceAfterCents'),
        { key: 'operatorName' },
        // The ledger takes any source name; the known ones are translated.
        {
          key: 'source',
          value: (r) => (hasKey(ctx.lang, `enums.ledgerSource.${r.source}`) ? t(`enums.ledgerSource.${r.source}`) : r.source),
        },
        { key: 'thirdPartyTxnId' },
        { key: 'transferId' },
        { key: 'invoiceId' },
        { key: 'providerName' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'rechargeRecord',
        fileBase: 'rechargeRecord',
        format,
        columns: await columns.columnsFor('rechargeRecord', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (LedgerRowRaw & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
