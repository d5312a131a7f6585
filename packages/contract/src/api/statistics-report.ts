import { z } from 'zod';
import { endpoint, exportOptions } from '../endpoint.js';

/**
 * Operation and financial statistics (issue 20 items 3 and 4): figures of a period — a local day, the
 * week (Monday to Sunday) or month holding a day, or a custom range of days — over the caller's scope,
 * narrowed to a provider, a station or a point.
 */
export const statsPeriods = ['day', 'week', 'month', 'custom'] as const;
export type StatsPeriod = (typeof statsPeriods)[number];
/** The longest custom range, in days. */
export const MAX_STATS_DAYS = 366;

const localDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const optDay = z.preprocess((v) => (v === '' || v === null ? undefined : v), localDay.optional());
const optId = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().positive().optional());

const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

/** A custom range needs both days, the end not before the start, and at most `MAX_STATS_DAYS` days. */
function checkRange(q: { period: StatsPeriod; startDate?: string | undefined; endDate?: string | undefined }, ctx: z.RefinementCtx) {
  if (q.period !== 'custom') return;
  if (!q.startDate) ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'validation.statsRange' });
  else if (!q.endDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.statsRange' });
  else {
    const span = dayNumber(q.endDate) - dayNumber(q.startDate);
    if (!(span >= 0 && span < MAX_STATS_DAYS)) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.statsRange' });
  }
}

const periodShape = {
  period: z.enum(statsPeriods).default('day'),
  /** Any day of the period (day, week, month); today in the zone when missing. */
  date: optDay,
  startDate: optDay,
  endDate: optDay,
};

export const operationStatsFilter = z.object({ ...periodShape, providerId: optId, stationId: optId, pointId: optId });
export type OperationStatsFilter = z.infer<typeof operationStatsFilter>;
export const financialGroups = ['provider', 'station'] as const;
export const financialStatsFilter = z.object({
  ...periodShape,
  providerId: optId,
  stationId: optId,
  /** The table's rows: one per provider or one per station. */
  groupBy: z.enum(financialGroups).default('provider'),
});
export type FinancialStatsFilter = z.infer<typeof financialStatsFilter>;

/**
 * A scope's operation figures. Sessions count on the local day they started (running ones with their time
 * so far). Utilisation = connector time charging ÷ connector time online, where online time is each
 * connector of the scope over the period's elapsed part (no connection history is kept: see README).
 * Idle time = online − charging. Fault rate = points with at least one fault in the period ÷ points.
 */
export const operationFigures = z.object({
  chargeCount: z.number(),
  energyWh: z.number(),
  chargingSeconds: z.number(),
  onlineSeconds: z.number(),
  idleSeconds: z.number(),
  utilisation: z.number(),
  averageSeconds: z.number(),
  averageEnergyWh: z.number(),
  faultCount: z.number(),
  faultyPoints: z.number(),
  pointCount: z.number(),
  connectorCount: z.number(),
  faultRate: z.number(),
});
export type OperationFigures = z.infer<typeof operationFigures>;

export const operationRow = operationFigures.extend({
  id: z.number(),
  name: z.string(),
  stationName: z.string(),
});
export type OperationRow = z.infer<typeof operationRow>;

export const operationStats = z.object({
  timeZone: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  totals: operationFigures,
  /** One entry per local day of the period. */
  series: z.array(z.object({ date: z.string(), chargeCount: z.number(), energyWh: z.number(), chargingSeconds: z.number() })),
  /** Starts per weekday (Monday first) and local hour: 7 rows of 24. */
  heatmap: z.array(z.array(z.number())),
  /** The table: the stations of the scope, or the points of the station (or the point) chosen. */
  rowKind: z.enum(['station', 'point']),
  rows: z.array(operationRow),
  /** The five most and least used (by energy) stations and points of the scope. */
  topStations: z.array(operationRow),
  bottomStations: z.array(operationRow),
  topPoints: z.array(operationRow),
  bottomPoints: z.array(operationRow),
});
export type OperationStats = z.infer<typeof operationStats>;

/**
 * Money of a period (cents). Bills count on the local day they were settled: electricity, service and
 * reservation fees, discounts (the member, activity and voucher bill lines, ≤ 0), the late Stops'
 * corrections, and income = what was charged (the bills' totals with their corrections). Recharges,
 * refunds (≤ 0) and transfers are the ledger's rows of the period; outstanding = the accounts' balances
 * at the period's end by the ledger; invoiced = invoices issued in the period. Ledger and invoice figures
 * belong to providers, so a station's row has none (null).
 */
export const financialFigures = z.object({
  billCount: z.number(),
  elecFeeCents: z.number(),
  serviceFeeCents: z.number(),
  reserveFeeCents: z.number(),
  discountCents: z.number(),
  adjustmentCents: z.number(),
  incomeCents: z.number(),
  rechargeCents: z.number().nullable(),
  refundCents: z.number().nullable(),
  transferCents: z.number().nullable(),
  invoicedCents: z.number().nullable(),
  outstandingCents: z.number().nullable(),
});
export type FinancialFigures = z.infer<typeof financialFigures>;

export const financialRow = financialFigures.extend({ id: z.number(), name: z.string() });
export type FinancialRow = z.infer<typeof financialRow>;

export const financialStats = z.object({
  timeZone: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  totals: financialFigures,
  series: z.array(
    z.object({
      date: z.string(),
      incomeCents: z.number(),
      discountCents: z.number(),
      rechargeCents: z.number().nullable(),
      refundCents: z.number().nullable(),
    }),
  ),
  rowKind: z.enum(financialGroups),
  rows: z.array(financialRow),
});
export type FinancialStats = z.infer<typeof financialStats>;

export const operateStatisticsApi = {
  get: endpoint({
    method: 'GET',
    path: '/web/statistics/operation',
    access: { permi: 'operate:operateStatistics:list' },
    resource: 'operateStatistics',
    query: operationStatsFilter.superRefine(checkRange),
    data: operationStats,
    summary: "Sessions, energy, charging time, utilisation, faults, heat map and rankings of a period, in the caller's scope",
  }),
  export: endpoint({
    method: 'POST',
    path: '/web/statistics/operationExport',
    access: { permi: 'operate:operateStatistics:export' },
    resource: 'operateStatistics',
    operation: 'export',
    mutation: false,
    body: operationStatsFilter.extend(exportOptions.shape).superRefine(checkRange),
    raw: 'download',
    summary: 'The operation statistics table as xlsx or CSV',
  }),
};

export const financialStatisticsApi = {
  get: endpoint({
    method: 'GET',
    path: '/web/statistics/financial',
    access: { permi: 'finance:financialStatistics:list' },
    resource: 'financialStatistics',
    query: financialStatsFilter.superRefine(checkRange),
    data: financialStats,
    summary:
      "Income by fee kind, discounts, recharges, refunds, transfers, invoiced and outstanding amounts of a period, in the caller's scope",
  }),
  export: endpoint({
    method: 'POST',
    path: '/web/statistics/financialExport',
    access: { permi: 'finance:financialStatistics:export' },
    resource: 'financialStatistics',
    operation: 'export',
    mutation: false,
    body: financialStatsFilter.extend(exportOptions.shape).superRefine(checkRange),
    raw: 'download',
    summary: 'The financial statistics table as xlsx or CSV',
  }),
};
