import { translate, type Lang, type PointDto, type pointApi } from '@csms/contract';
import type { Config } from '../../config.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import { generateOcppKey, hashOcppKey } from '../../ocpp/keys.js';
import type { PointRepo } from './point.repo.js';

interface Deps {
  repo: PointRepo;
  events: EventHub;
  config: Pick<Config, 'exportMaxRows'>;
  columns: ExportColumns;
  /**
   * Called after a point was created, edited, moved, removed or got a new key, with the serial
   * numbers concerned (old and new on a rename), so the OCPP endpoint refreshes its cache.
   */
  onPointChanged: (serialNumbers: string[]) => void;
  /** An auto-registered point placed into a station (after the commit): its boot, Pending till now, is asked for again. */
  onPlaced?: (serialNumber: string) => void;
}

type Fields = Pick<
  Parameters<Handlers<typeof pointApi>['add']>[0]['body'],
  'serialNumber' | 'pointName' | 'equipmentType' | 'ratedPowerW' | 'softwareVersion'
>;

const values = (body: Fields) => ({
  serialNumber: body.serialNumber,
  name: body.pointName,
  equipmentType: body.equipmentType,
  ratedPowerW: body.ratedPowerW,
  softwareVersion: body.softwareVersion || null,
});

export function pointRoutes({ repo, events, config, columns, onPointChanged, onPlaced }: Deps): Handlers<typeof pointApi> {
  const taken = (serial: string) => conflict('errors.point.serialTaken', { serial }, 'serialNumber');
  const changed = (...serials: string[]) => onPointChanged([...new Set(serials)]);

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `point:${body.serialNumber}`;
      const st = await repo.station(p, body.stationId);
      if (!st) throw notFound();
      if (await repo.serialTaken(body.serialNumber)) throw taken(body.serialNumber);
      await repo.assertQuota(st.providerId);
      // Shown once in this reply; only a salted hash is kept (DESIGN.md §5).
      const ocppKey = generateOcppKey();
      let id: number;
      try {
        id = await repo.insert(
          { ...values(body), stationId: st.id, providerId: st.providerId, ocppKeyHash: hashOcppKey(ocppKey) },
          body.connectors,
        );
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.serialNumber) : err;
      }
      changed(body.serialNumber);
      return { ...(await repo.get(p, id))!, ocppKey };
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await repo.get(p, body.id);
      if (!current) throw notFound();
      audit.operand = `point:${current.serialNumber}`;
      if (await repo.serialTaken(body.serialNumber, body.id)) throw taken(body.serialNumber);
      try {
        await repo.update(body.id, values(body), body.connectors);
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.serialNumber) : err;
      }
      changed(current.serialNumber, body.serialNumber);
      return (await repo.get(p, body.id))!;
    },
    async move({ body, ctx, audit }) {
      const p = ctx.principal;
      const point = await repo.get(p, body.id);
      const target = await repo.station(p, body.stationId);
      if (!point || !target) throw notFound();
      audit.operand = `point:${point.serialNumber}`;
      if (target.id === point.stationId) throw conflict('errors.point.moveSameStation', { name: target.name }, 'stationId');
      // A point keeps its provider; one waiting for placement (auto-registered) is placed into any station the caller sees.
      if (target.providerId !== point.providerId && !point.needsPlacement) {
        throw conflict('errors.point.moveOtherProvider', { name: target.name }, 'stationId');
      }
      if (target.providerId !== point.providerId) await repo.assertQuota(target.providerId);
      // A held reservation was made at this station, at its price, for its provider's card: moving the
      // point under it would leave it to the old station's operators and charge the old price.
      const held = await repo.heldReservations(point.id);
      if (held > 0) throw conflict('errors.point.moveReserved', { serial: point.serialNumber, count: held }, 'stationId');
      const needsPlacement = point.needsPlacement && target.isUnassigned;
      await repo.move(point.id, { stationId: target.id, providerId: target.providerId, needsPlacement });
      changed(point.serialNumber);
      if (point.needsPlacement && !needsPlacement) onPlaced?.(point.serialNumber);
      return (await repo.get(p, point.id)) ?? Promise.reject(notFound());
    },
    async newKey({ body, ctx, audit }) {
      const point = await repo.get(ctx.principal, body.id);
      if (!point) throw notFound();
      audit.operand = `point:${point.serialNumber}`;
      const ocppKey = generateOcppKey();
      await repo.setKeyHash(point.id, hashOcppKey(ocppKey));
      changed(point.serialNumber);
      return { id: point.id, serialNumber: point.serialNumber, ocppKey };
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `point:${found.map((f) => f.serialNumber).join(',')}`.slice(0, 255);
      const busy = found.find((f) => Number(f.transactions) > 0);
      if (busy) throw conflict('errors.point.hasTransactions', { serial: busy.serialNumber, count: Number(busy.transactions) });
      let removed: number;
      try {
        removed = await repo.remove(body.ids);
      } catch (err) {
        // A transaction started since the check, or meter values or alarms still name the point.
        if (isForeignKeyViolation(err)) throw conflict('errors.point.inUse', { serial: found[0]!.serialNumber });
        throw err;
      }
      changed(...found.map((f) => f.serialNumber));
      return { removed };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'point',
        fileBase: 'point',
        format,
        columns: await columns.columnsFor('point', exportColumns(ctx.lang), ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<Row[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async options({ body, ctx }) {
      return repo.options(ctx.principal, body);
    },
    async stationOf({ query, ctx }) {
      const point = await repo.get(ctx.principal, query.pointId);
      if (!point) throw notFound();
      return { stationId: point.stationId, stationName: point.stationName };
    },
  };
}

type Row = PointDto & Record<string, unknown>;

function exportColumns(lang: Lang): ExportColumn<Row>[] {
  const t = (key: string) => translate(lang, key);
  const yesNo = (v: boolean) => t(`enums.yesNo.${v ? 1 : 0}`);
  return [
    { key: 'id' },
    { key: 'serialNumber' },
    { key: 'pointName' },
    { key: 'stationName' },
    { key: 'providerName' },
    { key: 'equipmentType', value: (r) => t(`enums.equipmentType.${r.equipmentType}`) },
    { key: 'ratedPowerKw', value: (r) => r.ratedPowerW / 1000 },
    { key: 'softwareVersion' },
    { key: 'connectorCount' },
    {
      key: 'connectors',
      value: (r) =>
        r.connectors
          .map((c) => `${c.connectorNo}: ${t(`enums.connectorType.${c.type}`)} (${t(`enums.connectorStandard.${c.standard}`)})`)
          .join('; '),
    },
    { key: 'status', value: (r) => t(`enums.pointStatus.${r.status}`) },
    { key: 'online', value: (r) => yesNo(r.online) },
    { key: 'needsPlacement', value: (r) => yesNo(r.needsPlacement) },
    { key: 'lastSeenTime' },
    { key: 'createTime' },
  ];
}
