import type { Authorization } from './authorization.js';
import type { Clock } from './clock.js';
import type { Configuration, KeyDefinition } from './configuration.js';
import type { TlsOptions, TrafficEvent } from './connection.js';
import type { Diagnostics, DiagnosticsEvent, DiagnosticsStatus } from './diagnostics.js';
import type { Firmware, FirmwareEvent, FirmwareOptions, FirmwareStatus } from './firmware.js';
import type { ElectricalSpec, Meter } from './meter.js';
import type { ChargePointStatus, IdTagInfo, Payload, ReadingContext, RegistrationStatus, StopReason } from './ocpp.js';
import type { OcppVersion } from './ocpp201.js';
import type { Reservations } from './reservations.js';
import type { Scheduler, Task } from './scheduler.js';
import type { ChargingProfile, SmartCharging } from './smart-charging.js';

/** One connector's hardware; every field has a default. */
export interface ConnectorSpec {
  /** Highest power, W (default: the point's `powerW`). */
  maxPowerW?: number;
  /** Default AC. */
  current?: 'AC' | 'DC';
  /** AC phases, default 3. */
  phases?: 1 | 3;
  /** AC: phase voltage (default 230); DC: nominal battery voltage (default 400). */
  voltageV?: number;
  /** Battery of the EVs that plug in here, Wh (default 60 000). */
  batteryWh?: number;
  /** Whether UnlockConnector can unlock it (default true; a tethered cable cannot). */
  lockable?: boolean;
}

/** Limits a fleet's simultaneous connection attempts; resolve with the release function. */
export interface ConnectGate {
  acquire(): Promise<() => void>;
}

export interface ChargePointOptions {
  /** Base URL of the central system, e.g. `ws://127.0.0.1:8080/ocpp`; the serial number is appended. */
  url: string;
  /** The OCPP identity. */
  serialNumber: string;
  /** OCPP key: sent as the HTTP Basic password (security profile 1/2). */
  key?: string;
  /** The OCPP version it speaks (default 1.6); 2.0.1 is its 1.6 behaviour translated on the wire (ocpp201.ts). */
  ocppVersion?: OcppVersion;
  /** wss:// only: the CA that signed the CSMS's certificate, or `rejectUnauthorized: false` for a self-signed one. */
  tls?: TlsOptions;
  /** Number of connectors, or their specs (default 2). */
  connectors?: number | ConnectorSpec[];
  vendor?: string;
  model?: string;
  /** The version BootNotification reports until a firmware update installs another (default 1.0.0). */
  firmwareVersion?: string;
  /** How UpdateFirmware's installs go: fail on a SHA-256 other than `expectSha256`, or always (`failInstall`). */
  firmware?: FirmwareOptions;
  /** Seconds between periodic meter samples during a transaction (default 60). */
  meterValueSampleInterval?: number;
  /** Seconds between clock-aligned samples; 0 turns them off (default 900). */
  clockAlignedDataInterval?: number;
  /** Heartbeat interval until the CSMS names one at boot, s (default 300). */
  heartbeatInterval?: number;
  /** Default highest power per connector, W (default 22 000). */
  powerW?: number;
  /** Time source; a manual clock makes tests deterministic (default: system clock). */
  clock?: Clock;
  /** Share one scheduler between many points (default: one of its own on `clock`). */
  scheduler?: Scheduler;
  /** Reconnect backoff: doubles from minMs up to maxMs, with jitter (default 1 s … 60 s). */
  reconnect?: { minMs: number; maxMs: number };
  /** How long a call waits for its answer (default 30 s). */
  callTimeoutMs?: number;
  /** Retry delay of a BootNotification that failed or got interval 0 (default 30 s). */
  bootRetryMs?: number;
  /** Time offline during a Reset (default 2 s). */
  rebootDelayMs?: number;
  /** Whether to send BootNotification after every reconnect, not only after a (re)boot (default true). */
  bootOnReconnect?: boolean;
  /** Random source in [0, 1) for jitter and EV battery states (default Math.random). */
  random?: () => number;
  /** Values of configuration keys. */
  configuration?: Record<string, string>;
  /** Extra (vendor) configuration keys or changed definitions. */
  configurationKeys?: Readonly<Record<string, KeyDefinition>>;
  /** Vendor ids DataTransfer accepts (default: `vendor`). */
  dataTransferVendors?: string[];
  /** Transaction messages kept while offline; beyond it the oldest meter values are dropped (default 1000). */
  maxQueuedMessages?: number;
  /** Whether clock-aligned samples are sent for idle connectors too (default false). */
  alignedWhenIdle?: boolean;
  connectGate?: ConnectGate;
}

export interface Transaction {
  /** Local number until the CSMS assigns `transactionId`. */
  localId: number;
  transactionId?: number;
  connectorId: number;
  idTag: string;
  startedAt: number;
  meterStartWh: number;
  stoppedAt?: number;
  meterStopWh?: number;
  stopReason?: StopReason;
  idTagInfo?: IdTagInfo;
  /** The CSMS never accepted the StartTransaction: its later messages are dropped. */
  dropped?: boolean;
  /** Transaction.Begin reading, kept for the StopTransaction's transactionData. */
  begin?: Payload;
  /** The reservation this transaction ended by starting. */
  reservationId?: number;
}

export interface Fault {
  errorCode: string;
  info?: string;
}

export interface Connector {
  id: number;
  spec: ElectricalSpec;
  lockable: boolean;
  plugged: boolean;
  /** A transaction ended and the EV is still plugged. */
  finishing: boolean;
  fault?: Fault;
  operative: boolean;
  /** ChangeAvailability answered Scheduled: applies when the transaction ends. */
  scheduledOperative?: boolean;
  tx?: Transaction;
  meter: Meter;
  status: ChargePointStatus;
  errorCode: string;
  info?: string;
  sampleTask?: Task;
  nextSampleAt?: number;
}

export type ConnectionState = 'offline' | 'connecting' | 'open';

export interface ConnectorView {
  connectorId: number;
  status: ChargePointStatus;
  errorCode: string;
  plugged: boolean;
  operative: boolean;
  transactionId?: number;
  localTransactionId?: number;
  idTag?: string;
  energyRegisterWh: number;
  powerW: number;
  soc?: number;
  /** The reservation on this connector (not one of connector 0's). */
  reservationId?: number;
  /** What the charging profiles let the connector offer now, W (absent while the point holds no profile). */
  limitW?: number;
}

export interface ChargePointState {
  serialNumber: string;
  connection: ConnectionState;
  registration: RegistrationStatus | 'None';
  heartbeatIntervalS: number;
  /** Connector 0 (the point itself) first. */
  connectors: ConnectorView[];
  /** Transaction messages waiting to be sent (kept while offline). */
  queuedMessages: number;
  /** Calls in flight or waiting for the one in flight. */
  pendingCalls: number;
  localListVersion: number;
  /** The version BootNotification reports, and where a firmware update stands (Idle: none). */
  firmware: { version: string; status: FirmwareStatus };
  /** Where a diagnostics upload stands (Idle: none). */
  diagnosticsStatus: DiagnosticsStatus;
}

export interface ChargePointEvents extends Record<string, unknown> {
  connection: { state: ConnectionState; code?: number; reason?: string; error?: Error };
  registration: { status: RegistrationStatus; interval: number };
  status: { connectorId: number; status: ChargePointStatus; errorCode: string; info?: string };
  transaction: {
    type: 'started' | 'confirmed' | 'stopped' | 'ended' | 'dropped';
    connectorId: number;
    localId: number;
    transactionId?: number;
    reason?: StopReason;
  };
  traffic: TrafficEvent;
  reset: { type: 'Soft' | 'Hard' };
  reservation: { type: 'reserved' | 'used' | 'expired' | 'cancelled'; reservationId: number; connectorId: number };
  /** Each FirmwareStatusNotification of an UpdateFirmware, as it is sent. */
  firmware: FirmwareEvent;
  /** Each DiagnosticsStatusNotification of a GetDiagnostics, as it is sent. */
  diagnostics: DiagnosticsEvent;
  warning: { message: string; error?: unknown };
}

export interface StartResult {
  accepted: boolean;
  idTagInfo: IdTagInfo;
  connectorId: number;
  /** Known once the CSMS answered StartTransaction; undefined while queued offline. */
  transactionId?: number;
  localId?: number;
}

export interface StopResult {
  connectorId: number;
  transactionId?: number;
  localId: number;
  meterStopWh: number;
  reason: StopReason;
}

export interface StartOptions {
  /** A remote start: Authorize only when AuthorizeRemoteTxRequests is true. */
  remote?: boolean;
  /** RemoteStartTransaction's TxProfile, installed for the new transaction. */
  chargingProfile?: ChargingProfile;
}

/** What the CSMS-command handlers and the transaction engine see of a point. */
/** A connection profile the CSMS stored in one of the point's slots (OCPP 2.0.1 SetNetworkProfile). */
export interface NetworkProfile {
  url: string;
  securityProfile: number;
}

export interface PointInternals {
  readonly serialNumber: string;
  /** Its connection profiles by slot (2.0.1); a slot without one is the URL it was started with. */
  readonly networkProfiles: Map<number, NetworkProfile>;
  readonly vendor: string;
  readonly dataTransferVendors: readonly string[];
  readonly config: Configuration;
  readonly auth: Authorization;
  readonly reservations: Reservations;
  readonly smartCharging: SmartCharging;
  readonly firmware: Firmware;
  readonly diagnostics: Diagnostics;
  readonly scheduler: Scheduler;
  readonly random: () => number;
  readonly connectors: readonly Connector[];
  readonly point: { fault?: Fault; operative: boolean; scheduledOperative?: boolean; status: ChargePointStatus; errorCode: string };
  registration(): RegistrationStatus | 'None';
  online(): boolean;
  connector(id: number): Connector | undefined;
  now(): number;
  iso(ms?: number): string;
  call(action: string, payload: Payload): Promise<Payload>;
  /** Fire-and-forget call: failures become warnings. */
  notify(action: string, payload: Payload): void;
  refresh(connectorId: number): void;
  sendStatus(connectorId: number): void;
  sendAllStatuses(): void;
  boot(): void;
  heartbeat(): void;
  startTransaction(c: Connector, idTag: string, options?: StartOptions): Promise<StartResult>;
  stopTransaction(c: Connector, reason: StopReason): Promise<StopResult>;
  meterValues(c: Connector, context: ReadingContext): void;
  /** Transaction messages waiting to be delivered: all, or those of one transaction (by its CSMS number). */
  queuedMessages(transactionId?: number): number;
  reboot(type: 'Soft' | 'Hard'): void;
  /** Re-reads HeartbeatInterval, MeterValueSampleInterval and ClockAlignedDataInterval. */
  applyConfiguration(key: string): void;
  emit: <K extends keyof ChargePointEvents>(event: K, payload: ChargePointEvents[K]) => void;
}
