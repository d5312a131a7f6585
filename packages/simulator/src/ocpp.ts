/** OCPP 1.6J vocabulary the simulator speaks: enums, payload shapes it builds, and errors. */

export const CHARGE_POINT_STATUSES = [
  'Available',
  'Preparing',
  'Charging',
  'SuspendedEVSE',
  'SuspendedEV',
  'Finishing',
  'Reserved',
  'Unavailable',
  'Faulted',
] as const;
export type ChargePointStatus = (typeof CHARGE_POINT_STATUSES)[number];

export const CHARGE_POINT_ERROR_CODES = [
  'ConnectorLockFailure',
  'EVCommunicationError',
  'GroundFailure',
  'HighTemperature',
  'InternalError',
  'LocalListConflict',
  'NoError',
  'OtherError',
  'OverCurrentFailure',
  'PowerMeterFailure',
  'PowerSwitchFailure',
  'ReaderFailure',
  'ResetFailure',
  'UnderVoltage',
  'OverVoltage',
  'WeakSignal',
] as const;
export type ChargePointErrorCode = (typeof CHARGE_POINT_ERROR_CODES)[number];

export const STOP_REASONS = [
  'DeAuthorized',
  'EmergencyStop',
  'EVDisconnected',
  'HardReset',
  'Local',
  'Other',
  'PowerLoss',
  'Reboot',
  'Remote',
  'SoftReset',
  'UnlockCommand',
] as const;
/** 1.6's reasons, and 2.0.1's MasterPass (C16: a master pass stopped it; only a 2.0.1 point has one). */
export type StopReason = (typeof STOP_REASONS)[number] | 'MasterPass';

export type AuthorizationStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx';
export type RegistrationStatus = 'Accepted' | 'Pending' | 'Rejected';

export interface IdTagInfo {
  status: AuthorizationStatus;
  expiryDate?: string;
  parentIdTag?: string;
}

export const MEASURANDS = [
  'Energy.Active.Export.Register',
  'Energy.Active.Import.Register',
  'Energy.Reactive.Export.Register',
  'Energy.Reactive.Import.Register',
  'Energy.Active.Export.Interval',
  'Energy.Active.Import.Interval',
  'Energy.Reactive.Export.Interval',
  'Energy.Reactive.Import.Interval',
  'Power.Active.Export',
  'Power.Active.Import',
  'Power.Offered',
  'Power.Reactive.Export',
  'Power.Reactive.Import',
  'Power.Factor',
  'Current.Import',
  'Current.Export',
  'Current.Offered',
  'Voltage',
  'Frequency',
  'Temperature',
  'SoC',
  'RPM',
] as const;
export type Measurand = (typeof MEASURANDS)[number];

export type ReadingContext =
  | 'Interruption.Begin'
  | 'Interruption.End'
  | 'Sample.Clock'
  | 'Sample.Periodic'
  | 'Transaction.Begin'
  | 'Transaction.End'
  | 'Trigger'
  | 'Other';

export interface SampledValue {
  value: string;
  context?: ReadingContext;
  format?: 'Raw' | 'SignedData';
  measurand?: Measurand;
  phase?: string;
  location?: 'Cable' | 'EV' | 'Inlet' | 'Outlet' | 'Body';
  unit?: string;
}

export interface MeterValue {
  timestamp: string;
  sampledValue: SampledValue[];
}

/** The messages a charge point may initiate (OCPP 1.6 core and friends). */
export type ChargePointAction =
  | 'Authorize'
  | 'BootNotification'
  | 'DataTransfer'
  | 'DiagnosticsStatusNotification'
  | 'FirmwareStatusNotification'
  | 'Heartbeat'
  | 'MeterValues'
  | 'StartTransaction'
  | 'StatusNotification'
  | 'StopTransaction';

export type Payload = Record<string, unknown>;

/** RPC framework error codes of OCPP-J 1.6 §4.2.3. */
export type RpcErrorCode =
  | 'NotImplemented'
  | 'NotSupported'
  | 'InternalError'
  | 'ProtocolError'
  | 'SecurityError'
  | 'FormationViolation'
  | 'PropertyConstraintViolation'
  | 'OccurenceConstraintViolation'
  | 'TypeConstraintViolation'
  | 'GenericError';

/** A CALLERROR, thrown by a handler to answer with one, or received in answer to our call. */
export class OcppError extends Error {
  constructor(
    readonly code: RpcErrorCode | (string & {}),
    description = '',
    readonly details: Payload = {},
  ) {
    super(description || code);
    this.name = 'OcppError';
  }
}

/** The call could not be sent or was abandoned because the socket is (or went) down. */
export class OfflineError extends Error {
  constructor(action: string) {
    super(`${action}: not connected`);
    this.name = 'OfflineError';
  }
}

/** The CSMS did not answer within the call timeout. */
export class CallTimeoutError extends Error {
  constructor(action: string, ms: number) {
    super(`${action}: no answer within ${ms} ms`);
    this.name = 'CallTimeoutError';
  }
}
