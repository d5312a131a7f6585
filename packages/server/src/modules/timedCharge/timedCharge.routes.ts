import { translate, type TimedChargeDto, type timedChargeApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { ChargingProfileRepo } from '../chargingProfile/chargingProfile.repo.js';
import type { TimedChargeRepo } from './timedCharge.repo.js';
import type { TimedCharging } from './timedCharge.service.js';

interface Deps {
  repo: TimedChargeRepo;
  /** Points of the caller's scope by serial number (shared with charging profiles). */
  points: Pick<ChargingProfileRepo, 'point'>;
  timed: Pick<TimedCharging, 'planned' | 'unqueue'>;
  uow: Pick<UnitOfWork, 'afterCommit'>;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  onError: (err: unknown) => void;
}

type Body = Parameters<Handlers<typeof timedChargeApi>['add']>[0]['body'];

/** Timed charges (spec §3): a daily remote start on a point's connectors for a charge user. */
export function timedChargeRoutes({ repo, points, timed, uow, events, columns, config, onError }: Deps): Handlers<typeof timedChargeApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());

  async function checked(p: Principal, b: Body) {
    const point = await points.point(p, b.serialNumber);
    if (!point) throw notFound();
    const missing = b.connectors.find((c) => !point.connectorNos.includes(c));
    if (missing !== undefined)
      throw badField('connectors', 'errors.timedCharge.noSuchConnector', { serialNumber: point.serialNumber, connector: missing });
    const user = await repo.chargeUser(p, b.chargeUserId);
    if (!user) throw notFound();
    return {
      providerId: point.providerId,
      stationId: point.stationId,
      chargePointId: point.id,
      connectors: [...b.connectors].sort((x, y) => x - y),
      chargeUserId: user.id,
      validFrom: b.validFrom,
      validTo: b.validTo,
      startTime: b.startTime,
    };
  }

  /** Stores the next start, queues it once committed; a period with no start left is refused. */
  async function schedule(row: Parameters<TimedCharging['planned']>[0]) {
    const { row: planned, queue } = await timed.planned(row);
    if (!planned.nextRunAt) throw badField('validTo', 'errors.timedCharge.nothingLeft', { last: `${row.validTo} ${row.startTime}` });
    uow.afterCommit(() => void queue().catch(onError));
    return planned;
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return mustGet(ctx.principal, query.id);
    },
    async runs({ query, ctx }) {
      await mustGet(ctx.principal, query.id);
      return repo.runs(query.id);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `point:${body.serialNumber}`;
      const values = await checked(p, body);
      const row = await repo.insert({ ...values, status: 'waiting', lang: ctx.lang, createdBy: p.userId });
      audit.operand = `timedCharge:${row.id}`;
      await schedule(row);
      return mustGet(p, row.id);
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `timedCharge:${current.id}`;
      if (!['waiting', 'failed'].includes(current.status)) {
        throw conflict(
          'errors.timedCharge.notEditable',
          { id: current.id, status: translate(ctx.lang, `enums.timedChargeStatus.${current.status}`) },
          'id',
        );
      }
      const values = await checked(p, body);
      const row = await repo.update(body.id, values);
      await schedule(row!);
      const was = current.nextRunTime;
      if (was) uow.afterCommit(() => void timed.unqueue(body.id, new Date(was)).catch(onError));
      return mustGet(p, body.id);
    },
    async cancel({ body, ctx, audit }) {
      const p = ctx.principal;
      const found = await repo.visible(p, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `timedCharge:${body.ids.join(',')}`.slice(0, 255);
      const before = await Promise.all(body.ids.map((id) => repo.get(p, id)));
      const cancelled = await repo.cancel(body.ids);
      for (const t of before) {
        const at = t?.nextRunTime;
        if (t && at && cancelled.includes(t.id)) uow.afterCommit(() => void timed.unqueue(t.id, new Date(at)).catch(onError));
      }
      events.publish({ type: 'timedCharge.changed', userId: p.userId, payload: { ids: cancelled } });
      return { cancelled: cancelled.length };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<TimedChargeDto & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'stationName' },
        { key: 'serialNumber' },
        { key: 'connectors', value: (r) => r.connectors.join(', ') },
        { key: 'chargeUserAccount' },
        { key: 'validFrom' },
        { key: 'validTo' },
        { key: 'startTime' },
        { key: 'status', value: (r) => translate(ctx.lang, `enums.timedChargeStatus.${r.status}`) },
        { key: 'nextRunTime' },
        { key: 'lastRunDay' },
        { key: 'lastReason', value: (r) => (r.lastReason ? translate(ctx.lang, `enums.timedChargeReason.${r.lastReason}`) : '') },
        { key: 'providerName' },
        { key: 'createdByName' },
        { key: 'createTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'timedCharge',
        fileBase: 'timed-charge',
        format,
        columns: await columns.columnsFor('timedCharge', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (TimedChargeDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
