import type { carApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { external, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { isUniqueViolation } from '../../lib/scope.js';
import { carImportTemplate, type CarImport } from './car-import.js';
import { toCarDto, type CarRepo, type CarRow } from './car.repo.js';
import { blank, type Refs } from './common.js';

interface Deps {
  repo: CarRepo;
  refs: Refs;
  carImport: CarImport;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

export function carRoutes({ repo, refs, carImport, events, columns, config }: Deps): Handlers<typeof carApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toCarDto((await repo.get(p, id))!);
  const plateTaken = (plate: string) => conflict('errors.car.plateTaken', { plate }, 'plate');

  /** Provider and driver must be visible (else 404), and the driver of that provider. */
  async function checkRefs(p: Principal, providerId: number, chargeUserId: number | null | undefined) {
    if (!(await refs.provider(p, providerId))) throw notFound();
    if (!chargeUserId) return;
    const u = await refs.chargeUser(p, chargeUserId);
    if (!u) throw notFound();
    if (u.providerId !== providerId) throw badField('chargeUserId', 'errors.car.userMismatch');
  }
  const values = (b: {
    plate: string;
    vin: string;
    alias?: string | undefined;
    brand?: string | undefined;
    model?: string | undefined;
  }) => ({
    plate: b.plate,
    vin: b.vin,
    alias: blank(b.alias),
    brand: blank(b.brand),
    model: blank(b.model),
  });

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toCarDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `car:${body.plate}`;
      await checkRefs(p, body.providerId, body.chargeUserId);
      if (await repo.plateTaken(body.providerId, body.plate)) throw plateTaken(body.plate);
      try {
        const id = await repo.insert({ ...values(body), providerId: body.providerId, chargeUserId: body.chargeUserId ?? null });
        return reread(p, id);
      } catch (err) {
        throw isUniqueViolation(err) ? plateTaken(body.plate) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `car:${current.plate}`;
      await checkRefs(p, body.providerId, body.chargeUserId);
      if (await repo.plateTaken(body.providerId, body.plate, body.id)) throw plateTaken(body.plate);
      try {
        await repo.update(body.id, { ...values(body), providerId: body.providerId, chargeUserId: body.chargeUserId ?? null });
      } catch (err) {
        throw isUniqueViolation(err) ? plateTaken(body.plate) : err;
      }
      return reread(p, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `car:${found.map((c) => c.plate).join(',')}`.slice(0, 255);
      return { removed: await repo.remove(body.ids) };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<CarRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'plate' },
        { key: 'vin' },
        { key: 'alias' },
        { key: 'brand' },
        { key: 'model' },
        { key: 'account' },
        { key: 'providerName' },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'car',
        fileBase: 'car',
        format,
        columns: await columns.columnsFor('car', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<(CarRow & Record<string, unknown>)[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async importTemplate({ ctx, reply }) {
      const name = `car-import-template.xlsx`;
      reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('download-filename', encodeURIComponent(name))
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('access-control-expose-headers', 'download-filename')
        .send(await carImportTemplate(ctx.lang));
    },
    // Reads a whole workbook and imports in its own transaction: the system-log row is written first.
    import: external(async ({ body, ctx, audit }) => {
      audit.operand = `car:import:${body.fileName}`.slice(0, 255);
      return carImport.run(ctx.principal, ctx.lang, body.fileName, body.importId);
    }),
  };
}
