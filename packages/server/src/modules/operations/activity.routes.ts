import { Code, type activityApi, type ActivityDiscountKind, type ActivityType, type GrantTarget } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { canSeeProvider, withinBinding } from '../../lib/scope.js';
import type { ActivityGrants } from './activity-grant.js';
import { toActivityDto, type ActivityRepo, type ActivityRow } from './activity.repo.js';

interface Deps {
  repo: ActivityRepo;
  grants: Pick<ActivityGrants, 'schedule' | 'sweep'>;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}
type Body = {
  name: string;
  type: ActivityType;
  startTime: Date;
  endTime: Date;
  stationIds: number[];
  groupIds: number[];
  discountKind?: ActivityDiscountKind | null | undefined;
  discountValue?: number | null | undefined;
  hours: number[];
  minRechargeCents?: number | null | undefined;
  bonusCents?: number | null | undefined;
  templateId?: number | null | undefined;
  grantTo?: GrantTarget | null | undefined;
};
/** The terms stored: the type's own, the others empty (stations and hours are the service discount's). */
const termsOf = (b: Body) => {
  const is = (t: ActivityType) => b.type === t;
  return {
    name: b.name,
    type: b.type,
    startAt: b.startTime,
    endAt: b.endTime,
    stationIds: is('serviceDiscount') ? [...new Set(b.stationIds)] : [],
    groupIds: [...new Set(b.groupIds)],
    discountKind: is('serviceDiscount') ? (b.discountKind ?? null) : null,
    discountValue: is('serviceDiscount') ? (b.discountValue ?? null) : null,
    hours: is('serviceDiscount') ? [...new Set(b.hours)].sort((x, y) => x - y) : [],
    minRechargeCents: is('rechargeBonus') ? (b.minRechargeCents ?? null) : null,
    bonusCents: is('rechargeBonus') ? (b.bonusCents ?? null) : null,
    templateId: is('voucherGrant') ? (b.templateId ?? null) : null,
    grantTo: is('voucherGrant') ? (b.grantTo ?? null) : null,
  };
};

/** Activities (issue 19 item 2): drafts are edited; activate; end early. Terms of an active or ended one never change. */
export function activityRoutes({ repo, grants, events, columns, config }: Deps): Handlers<typeof activityApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toActivityDto((await repo.get(p, id))!);
  /**
   * The stations whose sessions an activity discounts: a service discount's own, a voucher grant's
   * template's (none: all of the provider's); a recharge bonus discounts no session.
   */
  async function discountedAt(providerId: number, a: { type: ActivityType; stationIds: number[]; templateId: number | null }) {
    if (a.type === 'serviceDiscount') return a.stationIds;
    if (a.type === 'voucherGrant' && a.templateId) return (await repo.ownTemplate(providerId, a.templateId)) ?? [];
    return undefined;
  }
  async function check(p: Principal, providerId: number, b: Body) {
    const s = [...new Set(b.stationIds)];
    if ((await repo.ownStations(providerId, s)) !== s.length) throw badField('stationIds', 'errors.activity.stationNotOfProvider');
    const g = [...new Set(b.groupIds)];
    if ((await repo.ownGroups(providerId, g)) !== g.length) throw badField('groupIds', 'errors.activity.groupNotOfProvider');
    if (b.type === 'voucherGrant' && b.templateId && !(await repo.ownTemplate(providerId, b.templateId)))
      throw badField('templateId', 'errors.activity.templateNotOfProvider');
    const t = termsOf(b);
    const at = await discountedAt(providerId, t);
    if (at && !withinBinding(p, at))
      throw badField(t.type === 'voucherGrant' ? 'templateId' : 'stationIds', 'errors.activity.outsideBinding');
  }
  /** A user bound to stations changes no activity that discounts sessions elsewhere (see `withinBinding`). */
  async function mayChange(p: Principal, a: ActivityRow) {
    const at = await discountedAt(a.providerId, a);
    if (at && !withinBinding(p, at)) throw new AppError(Code.FORBIDDEN, 'errors.activity.outsideBinding');
  }
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toActivityDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      audit.operand = `activity:${body.name}`;
      if (!canSeeProvider(ctx.principal, body.providerId)) throw notFound();
      await check(ctx.principal, body.providerId, body);
      return reread(ctx.principal, await repo.insert({ ...termsOf(body), providerId: body.providerId }));
    },
    async edit({ body, ctx, audit }) {
      const current = await mustGet(ctx.principal, body.id);
      audit.operand = `activity:${current.name}`;
      if (current.status !== 'draft') throw conflict('errors.activity.notDraft', { name: current.name });
      await mayChange(ctx.principal, current);
      await check(ctx.principal, current.providerId, body);
      if (!(await repo.updateDraft(body.id, termsOf(body)))) throw conflict('errors.activity.notDraft', { name: current.name });
      return reread(ctx.principal, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `activity:${found.map((a) => a.name).join(',')}`.slice(0, 255);
      const live = found.find((a) => a.status !== 'draft');
      if (live) throw conflict('errors.activity.notDraft', { name: live.name });
      for (const a of found) await mayChange(ctx.principal, (await repo.get(ctx.principal, a.id))!);
      return { removed: await repo.removeDrafts(body.ids) };
    },
    async activate({ body, ctx, audit }) {
      const a = await mustGet(ctx.principal, body.id);
      audit.operand = `activity:${a.name}`;
      await mayChange(ctx.principal, a);
      if (!(await repo.move(a.id, 'draft', { status: 'active', activatedAt: new Date() })))
        throw conflict('errors.activity.notDraft', { name: a.name });
      if (a.type === 'voucherGrant') grants.schedule(a);
      return reread(ctx.principal, a.id);
    },
    async end({ body, ctx, audit }) {
      const a = await mustGet(ctx.principal, body.id);
      audit.operand = `activity:${a.name}`;
      await mayChange(ctx.principal, a);
      if (!(await repo.move(a.id, 'active', { status: 'ended', endedAt: new Date() })))
        throw conflict('errors.activity.notActive', { name: a.name });
      // New users registered until now still get theirs.
      if (a.type === 'voucherGrant' && a.grantTo === 'newUsers') grants.sweep(a.id);
      return reread(ctx.principal, a.id);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const iso = (d: Date | null) => (d ? d.toISOString() : null);
      const defaults: ExportColumn<ActivityRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'name' },
        { key: 'type' },
        { key: 'status' },
        { key: 'startTime', value: (r) => r.startAt.toISOString() },
        { key: 'endTime', value: (r) => r.endAt.toISOString() },
        { key: 'discountKind' },
        { key: 'discountValue' },
        { key: 'hours', value: (r) => r.hours.join(',') },
        { key: 'minRechargeCents' },
        { key: 'bonusCents' },
        { key: 'templateName' },
        { key: 'grantTo' },
        { key: 'sessionCount' },
        { key: 'discountCents' },
        { key: 'endedTime', value: (r) => iso(r.endedAt) },
        { key: 'providerName' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'activity',
        fileBase: 'activities',
        format,
        columns: await columns.columnsFor('activity', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (ActivityRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
