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
  /**
   * Share (0…1) of connector time online that was spent charging, since each station's local
   * midnight: charging seconds ÷ online connector seconds (a point's online time × its connectors).
   */
  utilisation: z.number(),
  connectorCount: z.number(),
  chargingSeconds: z.number(),
  onlineSeconds: z.number(),
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

/**
 * One station on the large screen: where it is, its connectors by console status now, the power
 * its running sessions draw (their last samples), and today's sessions started there.
 */
export const boardStation = z.object({
  stationId: z.number(),
  stationName: z.string(),
  longitude: z.number(),
  latitude: z.number(),
  connectors: z.number(),
  available: z.number(),
  charging: z.number(),
  faulted: z.number(),
  offline: z.number(),
  unavailable: z.number(),
  powerW: z.number(),
  chargeCount: z.number(),
  energyWh: z.number(),
  incomeCents: z.number(),
});
export type BoardStation = z.infer<typeof boardStation>;

/** At most this many stations on the board (by name); `truncated` says when the scope holds more. */
export const BOARD_STATIONS = 5000;

export const stationBoard = z.object({
  date: z.string(),
  timeZone: z.string(),
  stations: z.array(boardStation),
  truncated: z.boolean(),
});
export type StationBoard = z.infer<typeof stationBoard>;

/** The dashboard's assets: what the caller's scope holds. */
export const assetCounts = z.object({
  stations: z.number(),
  points: z.number(),
  acPoints: z.number(),
  dcPoints: z.number(),
  acdcPoints: z.number(),
  connectors: z.number(),
  chargeUsers: z.number(),
  cards: z.number(),
});
export type AssetCounts = z.infer<typeof assetCounts>;

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
  assets: endpoint({
    method: 'GET',
    path: '/web/statistics/assets',
    access: 'session',
    resource,
    data: assetCounts,
    summary: "Stations, charge points (AC, DC), connectors, charge users and cards in the caller's scope",
  }),
  stationBoard: endpoint({
    method: 'GET',
    path: '/web/statistics/stationBoard',
    access: 'session',
    resource,
    data: stationBoard,
    summary: "The large screen's stations: place, connectors by status, power drawn now and today's figures, in the caller's scope",
  }),
};
