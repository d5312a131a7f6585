import type { FinancialRow, financialStatisticsApi, OperationRow, operateStatisticsApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { streamExport, type ExportColumn } from '../../lib/export.js';
import { dollars, hms, kwh } from '../../lib/units.js';
import type { FinancialStatsRepo } from './financial.repo.js';
import type { OperationStatsRepo } from './operation.repo.js';

interface Deps {
  operation: OperationStatsRepo;
  financial: FinancialStatsRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  /** The clock; tests pin it. */
  now?: () => Date;
}

const percent = (share: number) => Number((share * 100).toFixed(2));
const rowsOnce = <Row>(rows: Row[]) =>
  (async function* () {
    yield rows;
  })();

/** Operation statistics (issue 20 item 3): the figures of a period, and the table as a spreadsheet. */
export function operateStatisticsRoutes({
  operation,
  events,
  columns,
  config,
  now = () => new Date(),
}: Deps): Handlers<typeof operateStatisticsApi> {
  return {
    async get({ query, ctx }) {
      return operation.report(ctx.principal, query, now());
    },
    async export({ body, ctx, reply }) {
      const { format, exportId, ...filter } = body;
      const report = await operation.report(ctx.principal, filter, now());
      type Row = OperationRow & Record<string, unknown>;
      const defaults: ExportColumn<Row>[] = [
        { key: 'name' },
        { key: 'stationName' },
        { key: 'chargeCount' },
        { key: 'energyWh', value: (r) => kwh(r.energyWh) },
        { key: 'chargingSeconds', value: (r) => hms(r.chargingSeconds) },
        { key: 'utilisation', value: (r) => percent(r.utilisation) },
        { key: 'idleSeconds', value: (r) => hms(Math.round(r.idleSeconds)) },
        { key: 'averageSeconds', value: (r) => hms(r.averageSeconds) },
        { key: 'faultCount' },
        { key: 'faultRate', value: (r) => percent(r.faultRate) },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'operateStatistics',
        fileBase: `operateStatistics_${report.startDate}_${report.endDate}`,
        format,
        columns: await columns.columnsFor('operateStatistics', defaults, ctx),
        total: report.rows.length,
        batches: rowsOnce(report.rows as Row[]),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: ctx.principal.userId, exportId },
      });
    },
  };
}

/** Financial statistics (issue 20 item 4): the money of a period, and the table as a spreadsheet. */
export function financialStatisticsRoutes({
  financial,
  events,
  columns,
  config,
  now = () => new Date(),
}: Deps): Handlers<typeof financialStatisticsApi> {
  return {
    async get({ query, ctx }) {
      return financial.report(ctx.principal, query, now());
    },
    async export({ body, ctx, reply }) {
      const { format, exportId, ...filter } = body;
      const report = await financial.report(ctx.principal, filter, now());
      type Row = FinancialRow & Record<string, unknown>;
      const money = (key: keyof FinancialRow): ExportColumn<Row> => ({ key, value: (r) => dollars(r[key] as number | null) });
      const defaults: ExportColumn<Row>[] = [
        { key: 'name' },
        { key: 'billCount' },
        money('elecFeeCents'),
        money('serviceFeeCents'),
        money('reserveFeeCents'),
        money('discountCents'),
        money('adjustmentCents'),
        money('incomeCents'),
        money('rechargeCents'),
        money('refundCents'),
        money('transferCents'),
        money('invoicedCents'),
        money('outstandingCents'),
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'financialStatistics',
        fileBase: `financialStatistics_${report.startDate}_${report.endDate}`,
        format,
        columns: await columns.columnsFor('financialStatistics', defaults, ctx),
        total: report.rows.length,
        batches: rowsOnce(report.rows as Row[]),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: ctx.principal.userId, exportId },
      });
    },
  };
}
