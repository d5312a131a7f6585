import type { userGroupApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import type { ChargeUserRepo } from './charge-user.repo.js';
import { blank, type Refs } from './common.js';
import { toUserGroupDto, type UserGroupRepo, type UserGroupRow } from './user-group.repo.js';

interface Deps {
  repo: UserGroupRepo;
  users: ChargeUserRepo;
  refs: Refs;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

export function userGroupRoutes({ repo, users, refs, events, columns, config }: Deps): Handlers<typeof userGroupApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toUserGroupDto((await repo.get(p, id))!);
  const nameTaken = (name: string) => conflict('errors.userGroup.nameTaken', { name }, 'name');

  /** Members come from the group's provider and must all be visible to the caller. */
  async function members(p: Principal, group: UserGroupRow, ids: number[]) {
    const found = await users.visible(p, ids);
    if (found.length !== new Set(ids).size) throw notFound();
    const stranger = found.find((u) => u.providerId !== group.providerId);
    if (stranger) throw badField('chargeUserIds', 'errors.userGroup.memberMismatch', { account: stranger.account });
    return found;
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toUserGroupDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `userGroup:${body.name}`;
      if (!(await refs.provider(p, body.providerId))) throw notFound();
      if (await repo.nameTaken(body.providerId, body.name)) throw nameTaken(body.name);
      try {
        const id = await repo.insert({
          providerId: body.providerId,
          name: body.name,
          description: blank(body.description),
          monthlyLimitWh: body.monthlyLimitWh ?? null,
        });
        return reread(p, id);
      } catch (err) {
        throw isUniqueViolation(err) ? nameTaken(body.name) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `userGroup:${current.name}`;
      if (await repo.nameTaken(current.providerId, body.name, body.id)) throw nameTaken(body.name);
      try {
        await repo.update(body.id, { name: body.name, description: blank(body.description), monthlyLimitWh: body.monthlyLimitWh ?? null });
      } catch (err) {
        throw isUniqueViolation(err) ? nameTaken(body.name) : err;
      }
      return reread(p, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `userGroup:${found.map((g) => g.name).join(',')}`.slice(0, 255);
      const busy = found.find((g) => Number(g.memberCount) > 0);
      if (busy) throw conflict('errors.userGroup.hasMembers', { name: busy.name, count: Number(busy.memberCount) });
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // A member joined meanwhile, or a group electricity price refers to the group.
        if (!isForeignKeyViolation(err)) throw err;
        const again = await repo.visible(ctx.principal, body.ids);
        const joined = again.find((g) => Number(g.memberCount) > 0);
        if (joined) throw conflict('errors.userGroup.hasMembers', { name: joined.name, count: Number(joined.memberCount) });
        throw conflict('errors.userGroup.inUse', { name: found[0]!.name });
      }
    },
    async members({ query, ctx }) {
      const group = await mustGet(ctx.principal, query.id);
      return users.list(ctx.principal, { groupId: group.id }, query.page, query.limit);
    },
    async addMembers({ body, ctx, audit }) {
      const p = ctx.principal;
      const group = await mustGet(p, body.id);
      audit.operand = `userGroup:${group.name}`;
      await members(p, group, body.chargeUserIds);
      await repo.setGroup(body.chargeUserIds, group.id);
      return reread(p, group.id);
    },
    async removeMembers({ body, ctx, audit }) {
      const p = ctx.principal;
      const group = await mustGet(p, body.id);
      audit.operand = `userGroup:${group.name}`;
      await members(p, group, body.chargeUserIds);
      await repo.clearGroup(body.chargeUserIds, group.id);
      return reread(p, group.id);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<UserGroupRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'name' },
        { key: 'description' },
        { key: 'memberCount', value: (r) => Number(r.memberCount) },
        // Labelled in kWh; whole Wh become kWh with up to three decimals.
        { key: 'monthlyLimitWh', value: (r) => (r.monthlyLimitWh === null ? null : r.monthlyLimitWh / 1000) },
        { key: 'providerName' },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'userGroup',
        fileBase: 'userGroup',
        format,
        columns: await columns.columnsFor('userGroup', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (UserGroupRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async options({ query, ctx }) {
      return repo.options(ctx.principal, query.providerId);
    },
  };
}
