/**
 * The configuration keys OCPP 1.6 (edition 2, §9) and its security whitepaper define: for each,
 * its feature profile, type, unit, whether the Central System may change it, and the values it
 * accepts. The console explains the keys with it (their meaning is in the web catalogues,
 * `ocppLog.keys.<key>`) and both the console and the server check a value before it is sent.
 * A charger's own `readonly` flag (GetConfiguration) still decides for that charger; vendor keys
 * not listed here are sent as typed.
 */
export const ocppKeyProfiles = ['Core', 'LocalAuthListManagement', 'Reservation', 'SmartCharging', 'Security'] as const;
export type OcppKeyProfile = (typeof ocppKeyProfiles)[number];

export type OcppKeyType = 'boolean' | 'integer' | 'csl' | 'string';
/** R: the charger reports it, the Central System cannot change it; W: it can be set but is never read back. */
export type OcppKeyAccess = 'R' | 'RW' | 'W';
export const ocppKeyUnits = ['seconds', 'times', 'percent', 'Wh'] as const;
export type OcppKeyUnit = (typeof ocppKeyUnits)[number];

export interface OcppKeyInfo {
  profile: OcppKeyProfile;
  type: OcppKeyType;
  access: OcppKeyAccess;
  /** The spec makes the charger report it. */
  required: boolean;
  unit?: OcppKeyUnit;
  /** An integer's bounds. */
  min?: number;
  max?: number;
  /** A comma-separated list's (or a string's) accepted items. */
  values?: readonly string[];
  /** Items are `<connectorId>.<value>` (ConnectorPhaseRotation). */
  perConnector?: boolean;
}

export const OCPP_MEASURANDS = [
  'Current.Export',
  'Current.Import',
  'Current.Offered',
  'Energy.Active.Export.Register',
  'Energy.Active.Import.Register',
  'Energy.Reactive.Export.Register',
  'Energy.Reactive.Import.Register',
  'Energy.Active.Export.Interval',
  'Energy.Active.Import.Interval',
  'Energy.Reactive.Export.Interval',
  'Energy.Reactive.Import.Interval',
  'Frequency',
  'Power.Active.Export',
  'Power.Active.Import',
  'Power.Factor',
  'Power.Offered',
  'Power.Reactive.Export',
  'Power.Reactive.Import',
  'RPM',
  'SoC',
  'Temperature',
  'Voltage',
] as const;
const PHASE_ROTATIONS = ['NotApplicable', 'Unknown', 'RST', 'RTS', 'SRT', 'STR', 'TRS', 'TSR'] as const;
const FEATURE_PROFILES = [
  'Core',
  'FirmwareManagement',
  'LocalAuthListManagement',
  'Reservation',
  'SmartCharging',
  'RemoteTrigger',
] as const;

const bool = (profile: OcppKeyProfile, access: OcppKeyAccess, required: boolean): OcppKeyInfo => ({
  profile,
  type: 'boolean',
  access,
  required,
  values: ['true', 'false'],
});
const int = (
  profile: OcppKeyProfile,
  access: OcppKeyAccess,
  required: boolean,
  unit?: OcppKeyUnit,
  min = 0,
  max?: number,
): OcppKeyInfo => ({
  profile,
  type: 'integer',
  access,
  required,
  min,
  ...(unit ? { unit } : {}),
  ...(max !== undefined ? { max } : {}),
});
const measurands = (required: boolean): OcppKeyInfo => ({ profile: 'Core', type: 'csl', access: 'RW', required, values: OCPP_MEASURANDS });

export const ocppKeys = {
  AllowOfflineTxForUnknownId: bool('Core', 'RW', false),
  AuthorizationCacheEnabled: bool('Core', 'RW', false),
  // The spec leaves R or RW to the charger.
  AuthorizeRemoteTxRequests: bool('Core', 'RW', true),
  BlinkRepeat: int('Core', 'RW', false, 'times'),
  ClockAlignedDataInterval: int('Core', 'RW', true, 'seconds'),
  ConnectionTimeOut: int('Core', 'RW', true, 'seconds'),
  ConnectorPhaseRotation: { profile: 'Core', type: 'csl', access: 'RW', required: true, values: PHASE_ROTATIONS, perConnector: true },
  ConnectorPhaseRotationMaxLength: int('Core', 'R', false),
  GetConfigurationMaxKeys: int('Core', 'R', true),
  HeartbeatInterval: int('Core', 'RW', true, 'seconds'),
  LightIntensity: int('Core', 'RW', false, 'percent', 0, 100),
  LocalAuthorizeOffline: bool('Core', 'RW', true),
  LocalPreAuthorize: bool('Core', 'RW', true),
  MaxEnergyOnInvalidId: int('Core', 'RW', false, 'Wh'),
  MeterValuesAlignedData: measurands(true),
  MeterValuesAlignedDataMaxLength: int('Core', 'R', false),
  MeterValuesSampledData: measurands(true),
  MeterValuesSampledDataMaxLength: int('Core', 'R', false),
  MeterValueSampleInterval: int('Core', 'RW', true, 'seconds'),
  MinimumStatusDuration: int('Core', 'RW', false, 'seconds'),
  NumberOfConnectors: int('Core', 'R', true),
  ResetRetries: int('Core', 'RW', true, 'times'),
  StopTransactionOnEVSideDisconnect: bool('Core', 'RW', true),
  StopTransactionOnInvalidId: bool('Core', 'RW', true),
  StopTxnAlignedData: measurands(true),
  StopTxnAlignedDataMaxLength: int('Core', 'R', false),
  StopTxnSampledData: measurands(true),
  StopTxnSampledDataMaxLength: int('Core', 'R', false),
  SupportedFeatureProfiles: { profile: 'Core', type: 'csl', access: 'R', required: true, values: FEATURE_PROFILES },
  SupportedFeatureProfilesMaxLength: int('Core', 'R', false),
  TransactionMessageAttempts: int('Core', 'RW', true, 'times'),
  TransactionMessageRetryInterval: int('Core', 'RW', true, 'seconds'),
  UnlockConnectorOnEVSideDisconnect: bool('Core', 'RW', true),
  WebSocketPingInterval: int('Core', 'RW', false, 'seconds'),
  LocalAuthListEnabled: bool('LocalAuthListManagement', 'RW', true),
  LocalAuthListMaxLength: int('LocalAuthListManagement', 'R', true),
  SendLocalListMaxLength: int('LocalAuthListManagement', 'R', true),
  ReserveConnectorZeroSupported: bool('Reservation', 'R', false),
  ChargeProfileMaxStackLevel: int('SmartCharging', 'R', true),
  ChargingScheduleAllowedChargingRateUnit: {
    profile: 'SmartCharging',
    type: 'csl',
    access: 'R',
    required: true,
    values: ['Current', 'Power'],
  },
  ChargingScheduleMaxPeriods: int('SmartCharging', 'R', true),
  ConnectorSwitch3to1PhaseSupported: bool('SmartCharging', 'R', false),
  MaxChargingProfilesInstalled: int('SmartCharging', 'R', true),
  AuthorizationKey: { profile: 'Security', type: 'string', access: 'W', required: false },
  CpoName: { profile: 'Security', type: 'string', access: 'RW', required: false },
  SecurityProfile: int('Security', 'RW', false, undefined, 0, 3),
  CertificateStoreMaxLength: int('Security', 'R', false),
  AdditionalRootCertificateCheck: bool('Security', 'R', false),
} satisfies Record<string, OcppKeyInfo>;

export type OcppKeyName = keyof typeof ocppKeys;

/** The catalogue's entry for a key, matched exactly (OCPP key names are case-sensitive); undefined for vendor keys. */
export function ocppKeyInfo(key: string): OcppKeyInfo | undefined {
  return Object.hasOwn(ocppKeys, key) ? (ocppKeys as Record<string, OcppKeyInfo>)[key] : undefined;
}

export const splitCsl = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Why a value cannot be sent for a key: a vocabulary key and its params; null when it can (or the key is a vendor's). */
/** The charger's HTTP Basic password: 1.6's AuthorizationKey, 2.0.1's SecurityCtrlr.BasicAuthPassword. */
const SENT_KEY = /^(AuthorizationKey|SecurityCtrlr\.BasicAuthPassword)$/i;

export function ocppValueProblem(key: string, value: string): { message: string; params?: Record<string, unknown> } | null {
  // The charger's password changes through the point's "Send new key", which the server's admission follows;
  // set as a plain key, the charger would come back with a password the server does not know.
  if (SENT_KEY.test(key.trim())) return { message: 'validation.ocppKeyBySendKey', params: { key } };
  const info = ocppKeyInfo(key);
  if (!info) return null;
  if (info.access === 'R') return { message: 'validation.ocppKeyReadonly', params: { key } };
  switch (info.type) {
    case 'boolean':
      return value === 'true' || value === 'false' ? null : { message: 'validation.ocppKeyBoolean', params: { key } };
    case 'integer': {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      const max = info.max ?? 2_147_483_647;
      return Number.isSafeInteger(n) && n >= (info.min ?? 0) && n <= max
        ? null
        : { message: 'validation.ocppKeyInteger', params: { key, min: info.min ?? 0, max } };
    }
    case 'csl': {
      const allowed = new Set(info.values ?? []);
      const item = info.perConnector ? (s: string) => /^\d+\.(.+)$/.exec(s)?.[1] ?? '' : (s: string) => s;
      const bad = splitCsl(value).find((s) => !allowed.has(item(s)));
      if (bad === undefined) return null;
      return {
        message: info.perConnector ? 'validation.ocppKeyPerConnector' : 'validation.ocppKeyList',
        params: { key, item: bad, values: [...allowed].join(', ') },
      };
    }
    case 'string':
      return value.trim() ? null : { message: 'validation.ocppKeyEmpty', params: { key } };
  }
}
