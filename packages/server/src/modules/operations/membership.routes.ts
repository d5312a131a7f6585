import type { memberApi, memberLevelApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { canSeeProvider, isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import type { Membership } from './membership.js';
import { toLevelDto, toMemberDto, type LevelRow, type MembershipRepo, type MemberRow } from './membership.repo.js';

interface Deps {
  repo: MembershipRepo;
  membership: Pick<Membership, 'recompute' | 'recomputeAll'>;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

type Fields = {
  name: string;
  sortOrder: number;
  basis: 'spend' | 'energy';
  threshold: number;
  discountPercent: number;
  validityDays: number;
};
const pick = (b: Fields) => ({
  name: b.name,
  sortOrder: b.sortOrder,
  basis: b.basis,
  threshold: b.threshold,
  discountPercent: b.discountPercent,
  validityDays: b.validityDays,
});
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Membership levels (issue 19 item 1): a provider's levels; editing one takes effect at the next recompute. */
export function memberLevelRoutes({ repo, events, columns, config }: Omit<Deps, 'membership'>): Handlers<typeof memberLevelApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.getLevel(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toLevelDto((await repo.getLevel(p, id))!);
  async function checkClash(providerId: number, b: Fields, exceptId?: number) {
    const c = await repo.clash(providerId, b.name, b.sortOrder, exceptId);
    if (!c) return;
    if (c.name.toLowerCase() === b.name.toLowerCase()) throw conflict('errors.memberLevel.nameTaken', { name: b.name }, 'name');
    throw conflict('errors.memberLevel.orderTaken', { sortOrder: b.sortOrder, name: c.name }, 'sortOrder');
  }
  const uniqueRace = (b: Fields) => conflict('errors.memberLevel.nameTaken', { name: b.name }, 'name');

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.listLevels(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toLevelDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      audit.operand = `memberLevel:${body.name}`;
      if (!canSeeProvider(ctx.principal, body.providerId)) throw notFound();
      await checkClash(body.providerId, body);
      try {
        return await reread(ctx.principal, await repo.insertLevel({ ...pick(body), providerId: body.providerId }));
      } catch (err) {
        throw isUniqueViolation(err) ? uniqueRace(body) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const current = await mustGet(ctx.principal, body.id);
      audit.operand = `memberLevel:${current.name}`;
      await checkClash(current.providerId, body, body.id);
      try {
        await repo.updateLevel(body.id, pick(body));
      } catch (err) {
        throw isUniqueViolation(err) ? uniqueRace(body) : err;
      }
      return reread(ctx.principal, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visibleLevels(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `memberLevel:${found.map((l) => l.name).join(',')}`.slice(0, 255);
      const used = await repo.levelInUse(body.ids);
      if (used !== undefined) throw conflict('errors.memberLevel.inUse', { name: used });
      try {
        return { removed: await repo.removeLevels(body.ids) };
      } catch (err) {
        if (isForeignKeyViolation(err)) throw conflict('errors.memberLevel.inUse', { name: found[0]?.name ?? '' });
        throw err;
      }
    },
    async options({ query, ctx }) {
      return repo.levelOptions(ctx.principal, query.providerId, query.text, query.limit ?? 50);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<LevelRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'name' },
        { key: 'sortOrder' },
        { key: 'basis' },
        { key: 'threshold' },
        { key: 'discountPercent' },
        { key: 'validityDays' },
        { key: 'memberCount' },
        { key: 'providerName' },
        { key: 'updateTime', value: (r) => r.updatedAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'memberLevel',
        fileBase: 'member-levels',
        format,
        columns: await columns.columnsFor('memberLevel', defaults, ctx),
        total: await repo.countLevels(p, filter),
        batches: keysetBatches((after, size) => repo.pageLevels(p, filter, after, size)) as AsyncIterable<
          (LevelRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}

/** Members (issue 19 item 1): charge users with their level, an operator's override, and a recompute on demand. */
export function memberRoutes({ repo, membership, events, columns, config }: Deps): Handlers<typeof memberApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.getMember(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toMemberDto((await repo.getMember(p, id))!);

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.listMembers(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toMemberDto(await mustGet(ctx.principal, query.id));
    },
    async override({ body, ctx, audit }) {
      const p = ctx.principal;
      const user = await mustGet(p, body.id);
      audit.operand = `member:${user.account}`;
      const level = await repo.getLevel(p, body.overrideLevelId);
      if (!level || level.providerId !== user.providerId) throw badField('overrideLevelId', 'errors.member.levelNotOfProvider');
      if (body.overrideUntil.getTime() <= Date.now()) throw badField('overrideUntil', 'errors.member.untilPast');
      await repo.setOverride(user, { levelId: level.id, reason: body.overrideReason, until: body.overrideUntil, by: p.userId });
      return reread(p, body.id);
    },
    async clearOverride({ body, ctx, audit }) {
      const user = await mustGet(ctx.principal, body.id);
      audit.operand = `member:${user.account}`;
      await repo.setOverride(user, { levelId: null, reason: null, until: null, by: ctx.principal.userId });
      return reread(ctx.principal, body.id);
    },
    async recompute({ body, ctx, audit }) {
      const p = ctx.principal;
      if (body.providerId !== undefined && !canSeeProvider(p, body.providerId)) throw notFound();
      audit.operand = `member:recompute:${body.providerId ?? 'all'}`;
      return { users: await membership.recomputeAll(body.providerId !== undefined ? [body.providerId] : p.providerIds) };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const dto = (r: MemberRow) => toMemberDto(r);
      const defaults: ExportColumn<MemberRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'account' },
        { key: 'phone' },
        { key: 'levelName' },
        { key: 'computedLevelName' },
        { key: 'validUntil', value: (r) => iso(r.validUntil) },
        { key: 'spendCents', value: (r) => dto(r).spendCents },
        { key: 'energyWh', value: (r) => dto(r).energyWh },
        { key: 'overrideLevelName', value: (r) => dto(r).overrideLevelName },
        { key: 'overrideReason', value: (r) => dto(r).overrideReason },
        { key: 'overrideUntil', value: (r) => dto(r).overrideUntil },
        { key: 'providerName' },
        { key: 'computeTime', value: (r) => iso(r.computedAt) },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'member',
        fileBase: 'members',
        format,
        columns: await columns.columnsFor('member', defaults, ctx),
        total: await repo.countMembers(p, filter),
        batches: keysetBatches((after, size) => repo.pageMembers(p, filter, after, size)) as AsyncIterable<
          (MemberRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
