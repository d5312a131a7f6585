import type { DayZone } from '../../lib/day-zone.js';
import { translate, type ocppLogApi } from '@csms/contract';
import type { Config } from '../../config.js';
import { notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { OcppLogRepo } from './ocppLog.repo.js';

interface Deps {
  repo: OcppLogRepo;
  events: EventHub;
  config: Pick<Config, 'exportMaxRows'>;
  columns: ExportColumns;
  dayZone: DayZone;
}

export function ocppLogRoutes({ repo, events, config, columns, dayZone }: Deps): Handlers<typeof ocppLogApi> {
  return {
    async list({ query, ctx }) {
      const { page, limit, ...filter } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, filter), page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...days } = body;
      const filter = await dayZone.bound(p, days);
      type Row = Awaited<ReturnType<OcppLogRepo['page']>>[number];
      const label = (kind: string, v: unknown) =>
        v === null || v === undefined ? null : translate(ctx.lang, `enums.${kind}.${String(v)}`);
      const defaults: ExportColumn<Row>[] = [
        { key: 'id' },
        { key: 'createTime' },
        { key: 'serialNumber' },
        { key: 'direction', value: (r) => label('ocppDirection', r.direction) },
        { key: 'messageType', value: (r) => label('ocppMessageType', r.messageType) },
        { key: 'action' },
        { key: 'messageId' },
        { key: 'responseType', value: (r) => label('ocppMessageType', r.responseType) },
        { key: 'responseTime' },
        { key: 'latencyMs' },
        { key: 'errorCode' },
        { key: 'reason', value: (r) => label('authorizationReason', r.reason) },
        { key: 'payload', value: (r) => (r.payload === null ? null : JSON.stringify(r.payload)) },
        { key: 'responsePayload', value: (r) => (r.responsePayload === null ? null : JSON.stringify(r.responsePayload)) },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'ocppLog',
        fileBase: 'ocpp_log',
        format,
        columns: await columns.columnsFor('ocppLog', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
