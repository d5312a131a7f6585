import type { organizationApi } from '@csms/contract';
import type { Config } from '../../config.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import type { OrganizationRepo } from './organization.repo.js';

interface Deps {
  repo: OrganizationRepo;
  events: EventHub;
  config: Pick<Config, 'exportMaxRows'>;
  columns: ExportColumns;
}

export function organizationRoutes({ repo, events, config, columns }: Deps): Handlers<typeof organizationApi> {
  const taken = (name: string) => conflict('errors.organization.nameTaken', { name }, 'orgName');

  return {
    async list({ query, ctx }) {
      return repo.list(ctx.principal, { orgName: query.orgName }, query.page, query.limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `organization:${body.orgName}`;
      if (await repo.nameTaken(p.providerId, body.orgName)) throw taken(body.orgName);
      try {
        const id = await repo.insert({ providerId: p.providerId, orgName: body.orgName, description: body.description || null });
        return (await repo.get(p, id))!;
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.orgName) : err;
      }
    },
    async edit({ body, ctx }) {
      const p = ctx.principal;
      const current = await repo.get(p, body.id);
      if (!current) throw notFound();
      if (await repo.nameTaken(current.providerId, body.orgName, body.id)) throw taken(body.orgName);
      try {
        await repo.update(p, body.id, { orgName: body.orgName, description: body.description || null });
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.orgName) : err;
      }
      return (await repo.get(p, body.id))!;
    },
    async remove({ body, ctx }) {
      const found = await repo.visible(ctx.principal, body.ids);
      // All or nothing: an id the caller cannot see is reported as not found.
      if (found.length !== new Set(body.ids).size) throw notFound();
      const busy = found.find((o) => Number(o.roleCount) > 0);
      if (busy) throw conflict('errors.organization.hasRoles', { name: busy.orgName });
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // A role joined the organisation between the check and the delete.
        if (isForeignKeyViolation(err)) throw conflict('errors.organization.hasRoles', { name: found[0]!.orgName });
        throw err;
      }
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const filter = { orgName: body.orgName };
      const defaults: ExportColumn<Record<string, unknown>>[] = [
        'id',
        'orgName',
        'description',
        'providerName',
        'roleCount',
        'createTime',
      ].map((key) => ({ key }));
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'organization',
        fileBase: 'organization',
        format: body.format,
        columns: await columns.columnsFor('organization', defaults, ctx),
        total: await repo.count(p, filter),
        batches: (async function* () {
          for await (const rows of keysetBatches((after, size) => repo.page(p, filter, after, size))) {
            yield rows.map((r) => ({ ...r, createTime: r.createdAt.toISOString() }));
          }
        })(),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId: body.exportId },
      });
    },
  };
}
