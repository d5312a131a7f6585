import type { exportConfigApi, ExportSource } from '@csms/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { exportConfig } from '../../db/schema.js';
import { badField } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { ExportColumns } from '../../lib/export-config.js';

/** Export configuration, stored per provider and export source; read back by every export. */
export function exportConfigRoutes({ db, columns }: { db: Db; columns: ExportColumns }): Handlers<typeof exportConfigApi> {
  const view = (source: ExportSource, stored: string[] | undefined) => ({
    exportSource: source,
    exportItemList: stored ?? [...columns.available(source)],
    available: [...columns.available(source)],
    configured: stored !== undefined,
  });

  return {
    async save({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `exportConfig:${body.exportSource}`;
      const available = columns.available(body.exportSource);
      const bad = body.exportItemList.find((k) => !available.includes(k));
      if (bad) throw badField('exportItemList', 'errors.exportConfig.badColumn', { column: bad });
      const items = [...new Set(body.exportItemList)];
      await db
        .insert(exportConfig)
        .values({ providerId: p.providerId, exportSource: body.exportSource, items })
        .onConflictDoUpdate({ target: [exportConfig.providerId, exportConfig.exportSource], set: { items, updatedAt: sql`now()` } });
      return view(body.exportSource, items);
    },
    async get({ query, ctx }) {
      return view(query.exportSource, await columns.stored(ctx.principal.providerId, query.exportSource));
    },
  };
}
