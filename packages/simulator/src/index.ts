/**
 * @csms/simulator: OCPP 1.6J charge points for the demo, the tests and the benchmark.
 * `createChargePoint` simulates one point; `runFleet` runs many on one shared scheduler.
 * `compositeSchedule` is OCPP 1.6's composite schedule, the same the points answer with.
 * `firmwareVersionOf` is the rule by which a point names the firmware it installs.
 */
export { createChargePoint, type ChargePoint } from './charge-point.js';
export { createManualClock, systemClock, type Clock, type ManualClock } from './clock.js';
export { SUPPORTED_COMMANDS } from './commands.js';
export { DEFAULT_KEYS, type ChangeConfigurationStatus, type Configuration, type KeyDefinition } from './configuration.js';
export type { TlsOptions, TrafficEvent } from './connection.js';
export {
  DIAGNOSTICS_STATUSES,
  diagnosticsFileName,
  type DiagnosticsEvent,
  type DiagnosticsRequest,
  type DiagnosticsStatus,
} from './diagnostics.js';
export {
  FIRMWARE_STATUSES,
  firmwareVersionOf,
  type FirmwareEvent,
  type FirmwareOptions,
  type FirmwareRequest,
  type FirmwareStatus,
} from './firmware.js';
export {
  CHARGE_POINT_ERROR_CODES,
  CHARGE_POINT_STATUSES,
  CallTimeoutError,
  MEASURANDS,
  OcppError,
  OfflineError,
  STOP_REASONS,
  type ChargePointErrorCode,
  type ChargePointStatus,
  type IdTagInfo,
  type MeterValue,
  type Payload,
  type SampledValue,
  type StopReason,
} from './ocpp.js';
export { createConnectGate, runFleet, type Fleet, type FleetOptions, type FleetStats } from './fleet.js';
export { createRandom } from './random.js';
export type { ChargeOptions, DemoOptions, ScenarioName } from './scenarios.js';
export { createScheduler, type Scheduler, type Task } from './scheduler.js';
export type { Reservation, ReservationStatus } from './reservations.js';
export {
  CHARGING_PROFILE_KINDS,
  CHARGING_PROFILE_PURPOSES,
  CHARGING_RATE_UNITS,
  RECURRENCY_KINDS,
  chargingProfileProblem,
  compositeSchedule,
  limitFromW,
  limitToW,
  parseChargingProfile,
  shareLimit,
  type ChargingProfile,
  type ChargingProfileKind,
  type ChargingProfilePurpose,
  type ChargingRateUnit,
  type ChargingSchedule,
  type ChargingSchedulePeriod,
  type ClearCriteria,
  type CompositeRequest,
  type CompositeSchedule,
  type Electrical,
  type InstalledProfile,
  type RecurrencyKind,
  type ScheduleConnector,
} from './smart-charging.js';
export { createHistogram, type ActionStats, type Histogram } from './stats.js';
export type {
  ChargePointEvents,
  ChargePointOptions,
  ChargePointState,
  ConnectGate,
  ConnectorSpec,
  ConnectorView,
  StartResult,
  StopResult,
} from './types.js';
