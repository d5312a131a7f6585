import { z } from 'zod';
import { crud, optText, dayFilter } from '../endpoint.js';
import { connectorPlace } from './monitor.js';

export const alarmLevels = ['serious', 'common'] as const;
/** open: the connector has not reported NoError since; cleared: it has. */
export const alarmStates = ['open', 'cleared'] as const;

/** OCPP 1.6 ChargePointErrorCode; 2.0.1 chargers may send other codes, shown as they came. */
export const chargePointErrorCodes = [
  'ConnectorLockFailure',
  'EVCommunicationError',
  'GroundFailure',
  'HighTemperature',
  'InternalError',
  'LocalListConflict',
  'OtherError',
  'OverCurrentFailure',
  'OverVoltage',
  'PowerMeterFailure',
  'PowerSwitchFailure',
  'ReaderFailure',
  'ResetFailure',
  'UnderVoltage',
  'WeakSignal',
] as const;

/** A fault from a status notification: serious when the connector went Faulted, common otherwise. */
export const alarmRecordDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  ...connectorPlace,
  /** The station's IANA zone: the console shows the alarm's times on its wall clock. */
  stationTimeZone: z.string(),
  level: z.enum(alarmLevels),
  /** The OCPP status that came with the fault. */
  status: z.string(),
  errorCode: z.string(),
  info: z.string().nullable(),
  vendorErrorCode: z.string().nullable(),
  occurTime: z.string(),
  clearTime: z.string().nullable(),
  state: z.enum(alarmStates),
  /** Until cleared, or until now while open. */
  durationSec: z.number(),
});
export type AlarmRecordDto = z.infer<typeof alarmRecordDto>;

export const alarmRecordFilter = z.object({
  /** Faults that occurred in [startTime, endTime]. */
  startTime: dayFilter,
  endTime: dayFilter,
  stationId: z.coerce.number().int().positive().optional(),
  pointId: z.coerce.number().int().positive().optional(),
  serialNumber: optText(48),
  level: z.enum(alarmLevels).optional(),
  errorCode: optText(32),
  state: z.enum(alarmStates).optional(),
  providerId: z.coerce.number().int().positive().optional(),
});
export type AlarmRecordFilter = z.infer<typeof alarmRecordFilter>;

const c = crud('alarmRecord', 'record:alarm');

/** Alarm records (spec §1 Records): read-only, searchable, exportable. */
export const alarmRecordApi = {
  list: c.list(alarmRecordFilter, alarmRecordDto),
  get: c.get(alarmRecordDto),
  export: c.export(alarmRecordFilter),
};
