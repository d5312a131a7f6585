import { commonComponents, translate, type ComponentUseDto, type componentApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Handlers } from '../../http/mount.js';
import type { DayZone } from '../../lib/day-zone.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { ComponentRepo } from './component.repo.js';

interface Deps {
  repo: ComponentRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  dayZone: DayZone;
}

const common = new Set<string>(commonComponents);

/** Maintenance records (issue 17 item 5; spec §7 "Components"). */
export function componentRoutes({ repo, events, columns, config, dayZone }: Deps): Handlers<typeof componentApi> {
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async search({ body, ctx }) {
      const { page, limit, ...f } = body;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async names({ query, ctx }) {
      // The common components first (the console names them in its language), then the names typed in scope.
      const text = query.name?.toLowerCase();
      const named = (key: string) => translate(ctx.lang, `enums.component.${key}`).toLowerCase();
      const commons = commonComponents.filter((c) => !text || c.toLowerCase().includes(text) || named(c).includes(text));
      const typed = (await repo.names(ctx.principal, query.name)).filter((n) => !common.has(n));
      return [...commons.map((value) => ({ value, common: true })), ...typed.map((value) => ({ value, common: false }))];
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const filter = await dayZone.bound(p, f);
      const word = (group: string) => (v: unknown) => translate(ctx.lang, `enums.${group}.${String(v)}`);
      const defaults: ExportColumn<ComponentUseDto & Record<string, unknown>>[] = [
        { key: 'createTime' },
        { key: 'stationName' },
        { key: 'serialNumber' },
        { key: 'pointName' },
        { key: 'connectorNo' },
        { key: 'component', value: (r) => (common.has(r.component) ? word('component')(r.component) : r.component) },
        { key: 'action', value: (r) => word('componentAction')(r.action) },
        { key: 'quantity' },
        { key: 'note' },
        { key: 'taskId' },
        { key: 'faultCode' },
        { key: 'actorName' },
        { key: 'providerName' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'componentUse',
        fileBase: 'maintenance-records',
        format,
        columns: await columns.columnsFor('componentUse', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (ComponentUseDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
