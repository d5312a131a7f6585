import { z } from 'zod';
import { endpoint } from '../endpoint.js';

export const trendPeriods = ['day', 'week', 'month'] as const;
export type TrendPeriod = (typeof trendPeriods)[number];
/** Buckets of the revenue trend: the past 15 days, 12 weeks (from Monday) or 12 months, the current one last. */
export const trendBuckets: Record<TrendPeriod, number> = { day: 15, week: 12, month: 12 };

/**
 * Today's figures in the server's time zone (`CSMS_TIME_ZONE`), over the caller's providers and
 * bound stations. A session counts on the day it started: its charge, its energy (so far, while
 * running) and its bill once billed.
 */
export const todayStats = z.object({
  /** Local date, YYYY-MM-DD. */
  date: z.string(),
  timeZone: z.string(),
  chargeCount: z.number(),
  energyWh: z.number(),
  /** Billed totals of today's sessions. */
  incomeCents: z.number(),
  /** Share (0…1) of connector time spent charging since local midnight. */
  utilisation: z.number(),
  connectorCount: z.number(),
  chargingSeconds: z.number(),
});
export type TodayStats = z.infer<typeof todayStats>;

export const trendPoint = z.object({
  /** First local day of the bucket, YYYY-MM-DD. */
  start: z.string(),
  incomeCents: z.number(),
  energyWh: z.number(),
  chargeCount: z.number(),
});

export const revenueTrend = z.object({
  period: z.enum(trendPeriods),
  timeZone: z.string(),
  points: z.array(trendPoint),
});
export type RevenueTrend = z.infer<typeof revenueTrend>;

const resource = 'statistics';

/** Dashboard statistics: any signed-in user, over what that user may see. */
export const statisticsApi = {
  today: endpoint({
    method: 'GET',
    path: '/web/statistics/today',
    access: 'session',
    resource,
    data: todayStats,
    summary: "Today's charge count, energy, income and utilisation in the caller's scope",
  }),
  revenueTrend: endpoint({
    method: 'GET',
    path: '/web/statistics/revenueTrend',
    access: 'session',
    resource,
    query: z.object({ period: z.enum(trendPeriods).default('day') }),
    data: revenueTrend,
    summary: 'Billed income, energy and charges per day (15), week (12) or month (12), by session start',
  }),
};
