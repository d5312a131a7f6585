import { z } from 'zod';
import { endpoint, listOf, optText, pageQuery } from '../endpoint.js';
import { externalLimitState } from './charging-limit.js';

/** The five statuses the console shows for a point or a connector (spec §4). */
export const pointStatuses = ['available', 'charging', 'unavailable', 'faulted', 'offline'] as const;
export type PointStatus = (typeof pointStatuses)[number];

const occupied = new Set(['Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE', 'Finishing', 'Reserved']);

/**
 * OCPP ChargePointStatus (with the point's online flag) to the console's status: an offline
 * point's connectors are offline whatever they last said; Preparing…Finishing and Reserved
 * occupy the connector ("charging"); a connector that never reported counts as unavailable.
 */
export function pointStatusOf(ocppStatus: string | null | undefined, online: boolean): PointStatus {
  if (!online) return 'offline';
  if (ocppStatus === 'Available') return 'available';
  if (ocppStatus === 'Faulted') return 'faulted';
  if (ocppStatus && occupied.has(ocppStatus)) return 'charging';
  return 'unavailable';
}

/** Dashboard and monitor headline: connectors by status (spec §4: connected, free, charging, offline, fault). */
export const statusCounts = z.object({
  /** Every connector in scope. */
  total: z.number(),
  /** Connectors of online points. */
  connected: z.number(),
  free: z.number(),
  charging: z.number(),
  unavailable: z.number(),
  offline: z.number(),
  fault: z.number(),
  /** Points (not connectors) online and offline. */
  pointsOnline: z.number(),
  pointsOffline: z.number(),
});
export type StatusCounts = z.infer<typeof statusCounts>;

/** Where a session or a fault is: the connector, its point and its station (records and monitoring). */
export const connectorPlace = {
  stationId: z.number(),
  stationName: z.string(),
  chargePointId: z.number(),
  serialNumber: z.string(),
  pointName: z.string(),
  connectorNo: z.number(),
};

export const liveSession = z.object({
  transactionId: z.number(),
  providerId: z.number(),
  ...connectorPlace,
  idTag: z.string(),
  cardNumber: z.string().nullable(),
  account: z.string().nullable(),
  startType: z.string(),
  startedAt: z.string(),
  meterStartWh: z.number(),
  energyWh: z.number(),
  powerW: z.number().nullable(),
  soc: z.number().nullable(),
  lastSampleAt: z.string().nullable(),
  online: z.boolean(),
});
export type LiveSession = z.infer<typeof liveSession>;

export const connectorState = z.object({
  connectorNo: z.number(),
  name: z.string().nullable(),
  standard: z.string().nullable(),
  type: z.string().nullable(),
  status: z.enum(pointStatuses),
  /** As the charger said it (OCPP ChargePointStatus), null until it reports. */
  ocppStatus: z.string().nullable(),
  errorCode: z.string().nullable(),
  info: z.string().nullable(),
  statusAt: z.string().nullable(),
  /** The transaction running on it, if any. */
  transactionId: z.number().nullable(),
  /** The reservation holding it (issue 15 item 4): one of this connector, or one of any connector while it shows Reserved. */
  reservation: z.object({ id: z.number(), chargeUserAccount: z.string(), expiryTime: z.string() }).nullable().optional(),
  /** The external limit it is under (OCPP 2.0.1 NotifyChargingLimit, its EVSE's or the whole charger's): the lowest in force. */
  externalLimit: externalLimitState.nullable().optional(),
});
export type ConnectorState = z.infer<typeof connectorState>;

export const pointState = z.object({
  chargePointId: z.number(),
  serialNumber: z.string(),
  name: z.string(),
  providerId: z.number(),
  stationId: z.number(),
  stationName: z.string(),
  online: z.boolean(),
  enabled: z.boolean(),
  /** Connector 0 (the point itself), mapped like a connector. */
  status: z.enum(pointStatuses),
  ocppStatus: z.string().nullable(),
  errorCode: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  /** The OCPP version its last connection spoke (`1.6`, `2.0.1`); null: never connected. */
  ocppVersion: z.string().nullable(),
  connectors: z.array(connectorState),
});
export type PointState = z.infer<typeof pointState>;

export const stationState = z.object({
  stationId: z.number(),
  stationName: z.string(),
  providerName: z.string(),
  points: z.number(),
  pointsOnline: z.number(),
  pointsOffline: z.number(),
  connectors: z.number(),
  available: z.number(),
  charging: z.number(),
  unavailable: z.number(),
  faulted: z.number(),
  offline: z.number(),
});
export type StationState = z.infer<typeof stationState>;

export const liveFault = z.object({
  alarmId: z.number(),
  stationName: z.string(),
  serialNumber: z.string(),
  pointName: z.string(),
  connectorNo: z.number(),
  level: z.string(),
  status: z.string(),
  errorCode: z.string(),
  info: z.string().nullable(),
  occurredAt: z.string(),
});
export type LiveFault = z.infer<typeof liveFault>;

export const powerBucketMinutes = [15, 60] as const;

const stationId = z.coerce.number().int().positive().optional();
const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v === '' ? undefined : v), z.boolean().optional());

export const chargingFilter = z.object({ stationId, serialNumber: optText(48), idTag: optText(20) });
export const pointStateFilter = z.object({
  stationId,
  serialNumber: optText(48),
  status: z.enum(pointStatuses).optional(),
  online: bool,
});
export const stationStateFilter = z.object({ stationName: optText(100) });

const permi = (resource: string) => ({ permi: `monitor:${resource}:list` });

/** Real-time monitoring (spec §2 `/realTimeMonitor`) and the dashboard's live widgets. */
export const monitorApi = {
  charging: endpoint({
    method: 'GET',
    path: '/web/monitor/charging',
    access: permi('charging'),
    resource: 'monitor',
    query: pageQuery.extend(chargingFilter.shape),
    data: listOf(liveSession),
    summary: 'Transactions in progress (not stopped), newest first',
  }),
  stations: endpoint({
    method: 'GET',
    path: '/web/monitor/stations',
    access: permi('station'),
    resource: 'monitor',
    query: pageQuery.extend(stationStateFilter.shape),
    data: listOf(stationState),
  }),
  points: endpoint({
    method: 'GET',
    path: '/web/monitor/points',
    access: permi('point'),
    resource: 'monitor',
    query: pageQuery.extend(pointStateFilter.shape),
    data: listOf(pointState),
  }),
  counts: endpoint({
    method: 'GET',
    path: '/web/monitor/counts',
    // Aggregates of the caller's own scope, shown on the dashboard every signed-in user opens.
    access: 'session',
    resource: 'monitor',
    query: z.object({ stationId }),
    data: statusCounts,
  }),
  faults: endpoint({
    method: 'GET',
    path: '/web/monitor/faults',
    access: permi('point'),
    resource: 'monitor',
    query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
    data: z.array(liveFault),
    summary: 'Open alarms (not cleared), newest first',
  }),
  powerTrend: endpoint({
    method: 'GET',
    path: '/web/monitor/powerTrend',
    access: 'session',
    resource: 'monitor',
    query: z.object({
      bucketMinutes: z.coerce
        .number()
        .int()
        .refine((n) => (powerBucketMinutes as readonly number[]).includes(n), { message: 'validation.bucketMinutes' })
        .default(60),
    }),
    data: z.object({
      bucketMinutes: z.number(),
      /** Bucket starts (UTC) over the last 24 hours with the network's mean power in each (its sessions' energy there ÷ the bucket's time so far). */
      points: z.array(z.object({ at: z.string(), powerW: z.number() })),
    }),
    summary: 'Total charging power over the last 24 hours, from meter values',
  }),
};
