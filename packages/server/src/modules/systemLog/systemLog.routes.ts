import { dictEntries, translate, type systemLogApi } from '@csms/contract';
import type { Config } from '../../config.js';
import { notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { toDto, type SystemLogRepo } from './systemLog.repo.js';

interface Deps {
  repo: SystemLogRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

export function systemLogRoutes({ repo, events, columns, config }: Deps): Handlers<typeof systemLogApi> {
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async search({ body, ctx }) {
      const { page, limit, ...f } = body;
      return repo.list(ctx.principal, f, page, limit);
    },
    async operations({ ctx }) {
      return dictEntries(ctx.lang, 'operation');
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      type Dto = ReturnType<typeof toDto>;
      const t = (group: string, v: string | number) => translate(ctx.lang, `enums.${group}.${v}`);
      const defaults: ExportColumn<Dto>[] = [
        { key: 'id' },
        { key: 'operation', value: (r) => t('operation', r.operation) },
        { key: 'operator' },
        { key: 'operand' },
        { key: 'ip' },
        { key: 'result', value: (r) => t('logResult', r.result) },
        { key: 'msg' },
        { key: 'mode', value: (r) => t('logMode', r.mode) },
        { key: 'createTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'systemLog',
        fileBase: 'systemLog',
        format,
        columns: await columns.columnsFor('systemLog', defaults, ctx),
        total: await repo.count(p, f),
        batches: (async function* () {
          for await (const rows of keysetBatches((after, size) => repo.page(p, f, after, size))) yield rows.map(toDto);
        })(),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
