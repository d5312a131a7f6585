import { exportColumns, type ExportSource } from '@csms/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { exportConfig } from '../db/schema.js';
import type { AuthedCtx } from '../http/context.js';
import type { ExportColumn } from './export.js';

/**
 * The export configuration as the export engine reads it: the columns a provider chose for an
 * export source, in its order; the defaults when it chose none.
 */
export function createExportColumns({ db }: { db: Db }) {
  async function stored(providerId: number, source: ExportSource): Promise<string[] | undefined> {
    const [row] = await db
      .select({ items: exportConfig.items })
      .from(exportConfig)
      .where(and(eq(exportConfig.providerId, providerId), eq(exportConfig.exportSource, source)))
      .limit(1);
    return row?.items;
  }

  return {
    stored,
    /** Filter and reorder `defaults` by the caller's provider's configuration; unknown stored keys are skipped. */
    async columnsFor<Row>(source: ExportSource, defaults: ExportColumn<Row>[], ctx: AuthedCtx): Promise<ExportColumn<Row>[]> {
      const chosen = await stored(ctx.principal.providerId, source);
      if (!chosen) return defaults;
      const byKey = new Map(defaults.map((c) => [c.key, c]));
      const picked = chosen.map((k) => byKey.get(k)).filter((c): c is ExportColumn<Row> => c !== undefined);
      return picked.length > 0 ? picked : defaults;
    },
    available: (source: ExportSource): readonly string[] => exportColumns[source],
  };
}

export type ExportColumns = ReturnType<typeof createExportColumns>;
