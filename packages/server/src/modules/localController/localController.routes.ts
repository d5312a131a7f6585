import { DEFAULT_MIN_CURRENT_A, type LocalControllerDto, type localControllerApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { badField, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { ChargingProfileRepo } from '../chargingProfile/chargingProfile.repo.js';
import type { LocalControllerRepo } from './localController.repo.js';
import { minPowerW } from './planner.js';

interface Deps {
  repo: LocalControllerRepo;
  /** Points of the caller's scope by serial number (shared with charging profiles). */
  points: Pick<ChargingProfileRepo, 'points' | 'station'>;
  /** Told once a change is committed: the balancer re-plans those controllers. */
  changed: (controllerIds: number[]) => void;
  uow: Pick<UnitOfWork, 'afterCommit'>;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

type Body = Parameters<Handlers<typeof localControllerApi>['add']>[0]['body'];

/** Local controllers (spec §3): a budget over points of one station; a point belongs to at most one. */
export function localControllerRoutes({ repo, points, changed, uow, events, columns, config }: Deps): Handlers<typeof localControllerApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());

  async function checked(p: Principal, b: Body, exceptId?: number) {
    const st = await points.station(p, b.stationId);
    if (!st) throw notFound();
    const found = await points.points(p, b.serialNumbers);
    if (found.length !== b.serialNumbers.length) throw notFound();
    const other = found.find((x) => x.stationId !== st.id);
    if (other) throw badField('serialNumbers', 'errors.localController.otherStation', { serialNumber: other.serialNumber });
    const [taken] = await repo.owners(
      found.map((x) => x.id),
      exceptId,
    );
    if (taken) {
      const serialNumber = found.find((x) => x.id === taken.chargePointId)!.serialNumber;
      throw badField('serialNumbers', 'errors.localController.pointTaken', { serialNumber, name: taken.name });
    }
    const minCurrentA = b.minCurrentA ?? DEFAULT_MIN_CURRENT_A;
    const minW = Math.min(...found.map((x) => minPowerW(minCurrentA, x.ratedPowerW)));
    if (b.limitW < minW) throw badField('limitW', 'errors.localController.limitBelowMinimum', { limitW: b.limitW, minW });
    const groupIds = [...new Set(b.priorityGroupIds ?? [])];
    const groups = await repo.groups(p, groupIds);
    if (groups.length !== groupIds.length) throw notFound();
    const foreign = groups.find((g) => g.providerId !== st.providerId);
    if (foreign) throw badField('priorityGroupIds', 'errors.localController.groupOtherProvider', { name: foreign.name });
    const priority = new Set(b.prioritySerialNumbers ?? []);
    return {
      values: {
        providerId: st.providerId,
        stationId: st.id,
        name: b.name,
        description: b.description || null,
        limitW: b.limitW,
        minCurrentA,
        priorityGroupIds: groupIds,
      },
      members: found.map((x) => ({ chargePointId: x.id, priority: priority.has(x.serialNumber) })),
    };
  }

  const replan = (ids: number[]) => uow.afterCommit(() => changed(ids));

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return mustGet(ctx.principal, query.id);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `localController:${body.name}`;
      const { values, members } = await checked(p, body);
      const id = await repo.insert({ ...values, createdBy: p.userId }, members);
      replan([id]);
      return mustGet(p, id);
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `localController:${current.name}`;
      const { values, members } = await checked(p, body, body.id);
      await repo.update(body.id, values, members);
      replan([body.id]);
      return mustGet(p, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `localController:${found.map((c) => c.name).join(',')}`.slice(0, 255);
      const removed = await repo.remove(body.ids);
      replan([]);
      return { removed };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<LocalControllerDto & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'name' },
        { key: 'description' },
        { key: 'stationName' },
        { key: 'limitW' },
        { key: 'minCurrentA' },
        { key: 'serialNumbers', value: (r) => r.serialNumbers.join(', ') },
        { key: 'prioritySerialNumbers', value: (r) => r.prioritySerialNumbers.join(', ') },
        { key: 'priorityGroupNames', value: (r) => r.priorityGroupNames.join(', ') },
        { key: 'ratedSumW' },
        { key: 'providerName' },
        { key: 'createTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'localController',
        fileBase: 'local-controller',
        format,
        columns: await columns.columnsFor('localController', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (LocalControllerDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async live({ query, ctx }) {
      return repo.live(await repo.visibleIds(ctx.principal, query.stationId));
    },
    async history({ query, ctx }) {
      await mustGet(ctx.principal, query.id);
      return repo.history(query.id, new Date(Date.now() - 3_600_000));
    },
  };
}
