import { Code, translate, type ChargingProfileDto, type chargingProfileApi, type Lang } from '@csms/contract';
import type { Config } from '../../config.js';
import type { AuthedCtx, Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { external, Outcome, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { CommandSender } from '../pointAction/pointAction.service.js';
import type { ChargingProfileRepo, ProfileValues, TargetPoint } from './chargingProfile.repo.js';
import { maxLimit, overLimit, type ProfileSender, type TargetOutcome } from './chargingProfile.service.js';

interface Deps {
  repo: ChargingProfileRepo;
  sender: ProfileSender;
  ask: CommandSender;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

type Body = Parameters<Handlers<typeof chargingProfileApi>['add']>[0]['body'];

const date = (s: string | null | undefined) => (s ? new Date(s) : null);

/**
 * Charging profiles (issue 15 item 1). A profile belongs to one station and names points of it;
 * each point must have the chosen connectors and be able to take every period's limit.
 */
export function chargingProfileRoutes({ repo, sender, ask, events, columns, config }: Deps): Handlers<typeof chargingProfileApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());

  /** The points of the body, checked against the station and the limits; the targets to store. */
  async function checked(p: Principal, b: Body) {
    const st = await repo.station(p, b.stationId);
    if (!st) throw notFound();
    const points = await repo.points(p, b.serialNumbers);
    const bySerial = new Map(points.map((x) => [x.serialNumber, x]));
    const chosen: TargetPoint[] = [];
    for (const serialNumber of b.serialNumbers) {
      const point = bySerial.get(serialNumber);
      if (!point) throw notFound();
      if (point.stationId !== st.id) throw badField('serialNumbers', 'errors.chargingProfile.otherStation', { serialNumber });
      const missing = b.connectors.find((c) => c !== 0 && !point.connectorNos.includes(c));
      if (missing !== undefined)
        throw badField('connectors', 'errors.chargingProfile.noSuchConnector', { serialNumber, connector: missing });
      const over = overLimit(point.ratedPowerW, b.chargingRateUnit, b.periods);
      if (over) {
        const period = b.periods[over.index]!;
        throw badField(`periods.${over.index}.limit`, 'errors.chargingProfile.limitTooHigh', {
          period: over.index + 1,
          limit: period.limit,
          unit: b.chargingRateUnit,
          serialNumber,
          max: over.max,
        });
      }
      const rate = b.minChargingRate ?? 0;
      const rateMax = maxLimit(point.ratedPowerW, b.chargingRateUnit);
      if (rate > rateMax) {
        throw badField('minChargingRate', 'errors.chargingProfile.minRateTooHigh', {
          rate,
          unit: b.chargingRateUnit,
          serialNumber,
          max: rateMax,
        });
      }
      chosen.push(point);
    }
    const values: Omit<ProfileValues, 'createdBy'> = {
      providerId: st.providerId,
      stationId: st.id,
      purpose: b.purpose,
      stackLevel: b.stackLevel,
      validFrom: date(b.validFrom),
      validTo: date(b.validTo),
      kind: b.chargingProfileKind,
      recurrencyKind: b.recurrencyKind ?? null,
      rateUnit: b.chargingRateUnit,
      startSchedule: date(b.startSchedule),
      durationSec: b.duration ?? null,
      minChargingRate: b.minChargingRate ?? null,
      periods: b.periods.map((x) => ({ startPeriod: x.startPeriod, limit: x.limit, numberPhases: x.numberPhases ?? null })),
    };
    const targets = chosen.flatMap((pt) => b.connectors.map((connectorNo) => ({ chargePointId: pt.id, connectorNo })));
    return { values, targets };
  }

  const result = (lang: Lang, o: TargetOutcome) => ({
    serialNumber: o.serialNumber,
    connectorNo: o.connectorNo,
    status: o.status,
    chargerStatus: o.chargerStatus,
    message: o.messageKey ? translate(lang, o.messageKey, o.params) : null,
  });

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
      const { values, targets } = await checked(p, body);
      const id = await repo.insert({ ...values, createdBy: p.userId }, targets);
      audit.operand = `chargingProfile:${id}`;
      return mustGet(p, id);
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `chargingProfile:${current.id}`;
      const { values, targets } = await checked(p, body);
      await repo.update(body.id, values, targets);
      return mustGet(p, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `chargingProfile:${body.ids.join(',')}`.slice(0, 255);
      // A profile a charger still holds would keep limiting it with no record left to clear it by.
      const [held] = await repo.held(body.ids);
      if (held) throw conflict('errors.chargingProfile.inForce', { id: held.id, count: held.n });
      return { removed: await repo.remove(body.ids) };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const en = (group: string, v: string | null) => (v ? translate(ctx.lang, `enums.${group}.${v}`) : null);
      const defaults: ExportColumn<ChargingProfileDto & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'stationName' },
        { key: 'purpose', value: (r) => en('profilePurpose', r.purpose) },
        { key: 'stackLevel' },
        { key: 'chargingProfileKind', value: (r) => en('profileKind', r.chargingProfileKind) },
        { key: 'recurrencyKind', value: (r) => en('recurrencyKind', r.recurrencyKind) },
        { key: 'chargingRateUnit' },
        { key: 'startSchedule' },
        { key: 'duration' },
        { key: 'validFrom' },
        { key: 'validTo' },
        { key: 'serialNumbers', value: (r) => r.serialNumbers.join(', ') },
        { key: 'connectors', value: (r) => r.connectors.join(', ') },
        {
          key: 'periods',
          value: (r) =>
            r.periods
              .map((x) => `${x.startPeriod}s: ${x.limit} ${r.chargingRateUnit}${x.numberPhases ? ` ×${x.numberPhases}` : ''}`)
              .join('; '),
        },
        { key: 'acceptedCount' },
        { key: 'providerName' },
        { key: 'createdByName' },
        { key: 'createTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'chargingProfile',
        fileBase: 'charging-profile',
        format,
        columns: await columns.columnsFor('chargingProfile', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (ChargingProfileDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    // Waits for the chargers' answers, outside any transaction; the system-log row is written first.
    send: external(async ({ body, ctx, audit }: Parameters<Handlers<typeof chargingProfileApi>['send']>[0]) => {
      const profile = await mustGet(ctx.principal, body.id);
      audit.operand = `chargingProfile:${profile.id}`;
      const outcomes = await sender.send(profile.id);
      return { results: outcomes.map((o) => result(ctx.lang, o)) };
    }),
    clear: external(async ({ body, ctx, audit }: Parameters<Handlers<typeof chargingProfileApi>['clear']>[0]) => {
      const point = await repo.point(ctx.principal, body.serialNumber);
      if (!point) throw notFound();
      audit.operand = `point:${point.serialNumber}`;
      if (body.id) {
        // Only a profile of the caller's that names this point: an id of another provider's is not found.
        const profile = await mustGet(ctx.principal, body.id);
        if (!profile.serialNumbers.includes(point.serialNumber)) {
          throw badField('id', 'errors.chargingProfile.notOnPoint', { serialNumber: point.serialNumber });
        }
      }
      const payload = {
        ...(body.id ? { id: body.id } : {}),
        ...(body.connectorId !== null && body.connectorId !== undefined ? { connectorId: body.connectorId } : {}),
        ...(body.purpose ? { chargingProfilePurpose: body.purpose } : {}),
        ...(body.stackLevel !== null && body.stackLevel !== undefined ? { stackLevel: body.stackLevel } : {}),
      };
      const a = await ask(point.serialNumber, 'ClearChargingProfile', payload);
      // Unknown: the charger held nothing that matched, so nothing of ours is held there either.
      const cleared = a.status === 'accepted' || a.chargerStatus === 'Unknown' ? await repo.cleared(point.id, body) : 0;
      const status = a.chargerStatus === 'Unknown' ? 'accepted' : a.status;
      const data = {
        serialNumber: point.serialNumber,
        connectorNo: body.connectorId ?? 0,
        status,
        chargerStatus: a.chargerStatus,
        message: a.messageKey ? translate(ctx.lang, a.messageKey, a.params) : null,
        cleared,
      };
      return new Outcome(data, Code.OK, a.messageKey ?? `enums.actionStatus.${status}`, a.params);
    }),
    async inForce({ query, ctx }: { query: { serialNumber: string }; ctx: AuthedCtx }) {
      const point = await repo.point(ctx.principal, query.serialNumber);
      if (!point) throw notFound();
      return repo.inForce(point.id, new Date());
    },
  };
}
