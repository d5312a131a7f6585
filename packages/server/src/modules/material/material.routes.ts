import type { materialApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { external, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { canSeeProvider, isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import { blank } from '../cards/common.js';
import { materialImportTemplate, type MaterialImport } from './material-import.js';
import { toMaterialDto, type MaterialRepo, type MaterialRow } from './material.repo.js';

interface Deps {
  repo: MaterialRepo;
  materialImport: MaterialImport;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

/** The parts catalogue (issue 17 item 4): by hand, from the import template, exported. */
export function materialRoutes({ repo, materialImport, events, columns, config }: Deps): Handlers<typeof materialApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toMaterialDto((await repo.get(p, id))!);
  const taken = (partsNumber: string) => conflict('errors.material.partsNumberTaken', { partsNumber }, 'partsNumber');
  const values = (b: {
    partsNumber: string;
    name: string;
    model?: string | undefined;
    unit?: string | undefined;
    stock: number;
    note?: string | undefined;
  }) => ({
    partsNumber: b.partsNumber,
    name: b.name,
    model: blank(b.model),
    unit: blank(b.unit),
    stock: b.stock,
    note: blank(b.note),
  });

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toMaterialDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `material:${body.partsNumber}`;
      if (!canSeeProvider(p, body.providerId)) throw notFound();
      if (await repo.partsNumberTaken(body.providerId, body.partsNumber)) throw taken(body.partsNumber);
      try {
        return await reread(p, await repo.insert({ ...values(body), providerId: body.providerId }));
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.partsNumber) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `material:${current.partsNumber}`;
      if (await repo.partsNumberTaken(current.providerId, body.partsNumber, body.id)) throw taken(body.partsNumber);
      try {
        await repo.update(body.id, values(body));
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.partsNumber) : err;
      }
      return reread(p, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `material:${found.map((m) => m.partsNumber).join(',')}`.slice(0, 255);
      const used = await repo.firstInUse(body.ids);
      if (used !== undefined) throw conflict('errors.material.inUse', { partsNumber: used });
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // An apply order took one of them meanwhile.
        if (isForeignKeyViolation(err)) throw conflict('errors.material.inUse', { partsNumber: found[0]?.partsNumber ?? '' });
        throw err;
      }
    },
    async options({ query, ctx }) {
      const ids = query.ids ? query.ids.split(',').map(Number) : [];
      return repo.options(ctx.principal, query.providerId, query.text, ids, query.limit ?? 50);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<MaterialRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'partsNumber' },
        { key: 'name' },
        { key: 'model' },
        { key: 'unit' },
        { key: 'stock' },
        { key: 'note' },
        { key: 'providerName' },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
        { key: 'updateTime', value: (r) => r.updatedAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'material',
        fileBase: 'spare-parts',
        format,
        columns: await columns.columnsFor('material', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (MaterialRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async importTemplate({ ctx, reply }) {
      const name = 'spare-parts-import-template.xlsx';
      reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('download-filename', encodeURIComponent(name))
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('access-control-expose-headers', 'download-filename')
        .send(await materialImportTemplate(ctx.lang));
    },
    // Reads a whole workbook and imports in its own transaction (as the car import): the system-log row is written first.
    import: external(async ({ body, ctx, audit }) => {
      audit.operand = `material:import:${body.fileName}`.slice(0, 255);
      return materialImport.run(ctx.principal, ctx.lang, body.fileName, body.importId);
    }),
  };
}
