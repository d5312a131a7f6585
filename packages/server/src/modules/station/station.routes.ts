import { Code, countryName, translate, type Lang, type stationApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { ImageField, StoredImages } from '../../lib/stored-images.js';
import { canSeeProvider, isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import { toDto, type StationRepo, type StationRow, type StationValues } from './station.repo.js';

interface Deps {
  repo: StationRepo;
  events: EventHub;
  config: Pick<Config, 'exportMaxRows' | 'timeZone'>;
  columns: ExportColumns;
  images: StoredImages;
}

/** Spec §5: the station picture is one jpg, png or gif of at most 2 MB, uploaded here. */
const STATION_PICTURE: ImageField = { field: 'picture', key: 'errors.station.pictureInvalid', maxMb: 2 };

const blank = (v: string | undefined) => (v === undefined || v === '' ? null : v);

type Body = Parameters<Handlers<typeof stationApi>['add']>[0]['body'];

export function stationRoutes({ repo, events, config, columns, images }: Deps): Handlers<typeof stationApi> {
  const taken = (name: string) => conflict('errors.station.nameTaken', { name }, 'stationName');

  async function checkProvider(p: Principal, providerId: number) {
    if (!canSeeProvider(p, providerId) || !(await repo.providerVisible(p, providerId))) throw notFound();
  }

  const values = (body: Body): Omit<StationValues, 'timeZone'> & { timeZone: string | null } => ({
    providerId: body.providerId,
    name: body.stationName,
    country: body.country,
    address: body.address,
    longitude: body.longitude,
    latitude: body.latitude,
    timeZone: blank(body.timeZone),
    openingStart: blank(body.openingStart),
    openingEnd: blank(body.openingEnd),
    isPublic: body.isPublic ?? true,
    servicePhone: blank(body.servicePhone),
    description: blank(body.description),
    amenities: [...new Set(body.amenities ?? [])],
    picture: blank(body.picture),
    guide: blank(body.guide),
    status: body.status ?? 'operating',
  });

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      const row = await repo.get(ctx.principal, query.id);
      if (!row) throw notFound();
      return toDto(row);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `station:${body.stationName}`;
      // A station-bound user would not see the station it creates.
      if (p.stationIds !== null) throw new AppError(Code.CONFLICT, 'errors.station.boundUser');
      await checkProvider(p, body.providerId);
      const v = values(body);
      await images.check(p, v.picture, STATION_PICTURE);
      if (await repo.nameTaken(body.providerId, body.stationName)) throw taken(body.stationName);
      try {
        const id = await repo.insert({ ...v, timeZone: v.timeZone ?? config.timeZone });
        return toDto((await repo.get(p, id))!);
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.stationName) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await repo.get(p, body.id);
      if (!current) throw notFound();
      audit.operand = `station:${current.stationName}`;
      await checkProvider(p, body.providerId);
      // Points, prices, areas and the like carry their station's provider: a station with any keeps its provider.
      if (body.providerId !== current.providerId && (Number(current.pointCount) > 0 || (await repo.anchored(current.id)))) {
        throw conflict('errors.station.providerLocked', { name: current.stationName }, 'providerId');
      }
      const v = values(body);
      if (v.picture !== current.picture) await images.check(p, v.picture, STATION_PICTURE);
      if (await repo.nameTaken(body.providerId, body.stationName, body.id)) throw taken(body.stationName);
      try {
        await repo.update(p, body.id, { ...v, timeZone: v.timeZone ?? current.timeZone });
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.stationName) : err;
      }
      return toDto((await repo.get(p, body.id))!);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      // All or nothing: an id the caller cannot see is reported as not found.
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `station:${found.map((s) => s.stationName).join(',')}`.slice(0, 255);
      const unassigned = found.find((s) => s.isUnassigned);
      if (unassigned) throw conflict('errors.station.unassignedLocked', { name: unassigned.stationName });
      const busy = found.find((s) => Number(s.pointCount) > 0);
      if (busy) throw conflict('errors.station.hasPoints', { name: busy.stationName, count: Number(busy.pointCount) });
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // A point arrived since the check, or charging records, alarms or prices still name the station.
        if (isForeignKeyViolation(err)) throw conflict('errors.station.inUse', { name: found[0]!.stationName });
        throw err;
      }
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'station',
        fileBase: 'station',
        format,
        columns: await columns.columnsFor('station', exportColumns(ctx.lang), ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<Row[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async options({ body, ctx }) {
      return repo.options(ctx.principal, body);
    },
  };
}

type Row = StationRow & Record<string, unknown>;

/** Export columns, formatted for people: names instead of codes, kW instead of W. */
function exportColumns(lang: Lang): ExportColumn<Row>[] {
  const t = (key: string) => translate(lang, key);
  const list = lang === 'zh' ? '、' : ', ';
  return [
    { key: 'id' },
    { key: 'stationName' },
    { key: 'providerName' },
    { key: 'country', value: (r) => countryName(r.country, lang) },
    { key: 'address' },
    { key: 'longitude' },
    { key: 'latitude' },
    { key: 'timeZone' },
    { key: 'openingTime', value: (r) => (r.openingStart && r.openingEnd ? `${r.openingStart}-${r.openingEnd}` : '') },
    { key: 'isPublic', value: (r) => t(`enums.yesNo.${r.isPublic ? 1 : 0}`) },
    { key: 'servicePhone' },
    { key: 'amenities', value: (r) => r.amenities.map((a) => t(`enums.amenity.${a}`)).join(list) },
    { key: 'status', value: (r) => t(`enums.stationStatus.${r.status}`) },
    { key: 'pointCount', value: (r) => Number(r.pointCount) },
    { key: 'connectorCount', value: (r) => Number(r.connectorCount) },
    { key: 'totalPowerKw', value: (r) => Number(r.totalPowerW) / 1000 },
    { key: 'createTime', value: (r) => r.createdAt.toISOString() },
  ];
}
