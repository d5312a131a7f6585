import { MEASURANDS } from './ocpp.js';

/**
 * The charge point's configuration keys (OCPP 1.6 §9): GetConfiguration lists them,
 * ChangeConfiguration edits them. Definitions are shared by every point; a point stores only
 * the values that differ from the defaults, so a fleet of thousands stays small.
 */

type Kind = 'boolean' | 'integer' | 'measurands' | 'csl' | 'string' | 'password' | 'slots';

export interface KeyDefinition {
  value: string;
  kind?: Kind;
  readonly?: boolean;
  /** ChangeConfiguration answers RebootRequired: the value is stored and applies after a reset. */
  rebootRequired?: boolean;
  /** Lowest accepted integer. */
  min?: number;
  /** Never read back (the charger's password): GetConfiguration lists the key without its value. */
  writeOnly?: boolean;
}

const ALL_SAMPLED = 'Energy.Active.Import.Register,Power.Active.Import,Current.Import,Current.Offered,Voltage,SoC,Temperature';

export const DEFAULT_KEYS: Readonly<Record<string, KeyDefinition>> = {
  AllowOfflineTxForUnknownId: { value: 'false', kind: 'boolean' },
  AuthorizationCacheEnabled: { value: 'true', kind: 'boolean' },
  AuthorizeRemoteTxRequests: { value: 'false', kind: 'boolean' },
  ClockAlignedDataInterval: { value: '900', kind: 'integer', min: 0 },
  ConnectionTimeOut: { value: '60', kind: 'integer', min: 0 },
  // Rewiring phases needs a restart of the power electronics.
  ConnectorPhaseRotation: { value: '0.RST', kind: 'csl', rebootRequired: true },
  GetConfigurationMaxKeys: { value: '100', kind: 'integer', readonly: true },
  HeartbeatInterval: { value: '300', kind: 'integer', min: 0 },
  LocalAuthorizeOffline: { value: 'true', kind: 'boolean' },
  LocalPreAuthorize: { value: 'false', kind: 'boolean' },
  MeterValuesAlignedData: { value: 'Energy.Active.Import.Register,Power.Active.Import', kind: 'measurands' },
  MeterValuesSampledData: { value: ALL_SAMPLED, kind: 'measurands' },
  MeterValueSampleInterval: { value: '60', kind: 'integer', min: 0 },
  NumberOfConnectors: { value: '1', kind: 'integer', readonly: true },
  ReserveConnectorZeroSupported: { value: 'true', kind: 'boolean', readonly: true },
  ResetRetries: { value: '3', kind: 'integer', min: 0 },
  StopTransactionOnEVSideDisconnect: { value: 'true', kind: 'boolean' },
  StopTransactionOnInvalidId: { value: 'true', kind: 'boolean' },
  StopTxnAlignedData: { value: '', kind: 'measurands' },
  StopTxnSampledData: { value: 'Energy.Active.Import.Register', kind: 'measurands' },
  SupportedFeatureProfiles: {
    value: 'Core,FirmwareManagement,LocalAuthListManagement,RemoteTrigger,Reservation,SmartCharging',
    kind: 'csl',
    readonly: true,
  },
  TransactionMessageAttempts: { value: '3', kind: 'integer', min: 1 },
  TransactionMessageRetryInterval: { value: '10', kind: 'integer', min: 0 },
  UnlockConnectorOnEVSideDisconnect: { value: 'true', kind: 'boolean' },
  WebSocketPingInterval: { value: '0', kind: 'integer', min: 0 },
  // The HTTP Basic password (security profiles 1/2; OCPP 1.6 security whitepaper, 2.0.1 SecurityCtrlr.BasicAuthPassword):
  // empty until the CSMS sends one, the point then connects with it instead of its configured key.
  AuthorizationKey: { value: '', kind: 'password', writeOnly: true },
  // OCPP 2.0.1 OCPPCommCtrlr.NetworkConfigurationPriority: the slots it connects with, first to last (B10).
  NetworkConfigurationPriority: { value: '1', kind: 'slots' },
  LocalAuthListEnabled: { value: 'true', kind: 'boolean' },
  LocalAuthListMaxLength: { value: '1000', kind: 'integer', readonly: true },
  SendLocalListMaxLength: { value: '1000', kind: 'integer', readonly: true },
  ChargeProfileMaxStackLevel: { value: '10', kind: 'integer', readonly: true },
  ChargingScheduleAllowedChargingRateUnit: { value: 'Current,Power', kind: 'csl', readonly: true },
  ChargingScheduleMaxPeriods: { value: '24', kind: 'integer', readonly: true },
  MaxChargingProfilesInstalled: { value: '10', kind: 'integer', readonly: true },
};

export type ChangeConfigurationStatus = 'Accepted' | 'Rejected' | 'RebootRequired' | 'NotSupported';

export interface ConfigurationKey {
  key: string;
  readonly: boolean;
  /** Absent for a write-only key. */
  value?: string;
}

export interface Configuration {
  get(key: string): string | undefined;
  int(key: string): number;
  bool(key: string): boolean;
  /** Measurands listed in a CSL key. */
  list(key: string): string[];
  /** GetConfiguration: the known keys among `keys` (all when empty) and the unknown ones. */
  read(keys?: string[]): { configurationKey: ConfigurationKey[]; unknownKey: string[] };
  change(key: string, value: string): ChangeConfigurationStatus;
  /** Sets a value whatever its definition says (the point's own doing, e.g. the boot interval). */
  set(key: string, value: string): void;
}

const measurandSet = new Set<string>(MEASURANDS);
const splitCsl = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function valid(def: KeyDefinition, value: string): boolean {
  switch (def.kind) {
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'integer':
      return /^-?\d+$/.test(value) && Number(value) >= (def.min ?? -Infinity);
    case 'measurands':
      return splitCsl(value).every((m) => measurandSet.has(m));
    case 'slots':
      return /^[1-8](,[1-8])*$/.test(value.replace(/\s/g, ''));
    case 'password':
      // OCPP 2.0.1 A00.FR.205 (and the 1.6 whitepaper's AuthorizationKey): 16 to 40 printable characters.
      return /^[\x21-\x7e]{16,40}$/.test(value);
    default:
      return value.length <= 500;
  }
}

/**
 * `extra` adds vendor keys or overrides definitions; `values` sets this point's own values.
 * Both are kept by reference, so share them between points where they are equal.
 */
export function createConfiguration(values: Record<string, string>, extra: Readonly<Record<string, KeyDefinition>> = {}): Configuration {
  const own = new Map(Object.entries(values));
  const def = (key: string) => extra[key] ?? DEFAULT_KEYS[key];
  const get = (key: string) => own.get(key) ?? def(key)?.value;
  const keys = () => [...new Set([...Object.keys(DEFAULT_KEYS), ...Object.keys(extra)])];

  return {
    get,
    int: (key) => Number(get(key) ?? 0),
    bool: (key) => get(key) === 'true',
    list: (key) => splitCsl(get(key) ?? ''),
    read(requested) {
      const names = requested && requested.length > 0 ? requested : keys();
      const configurationKey: ConfigurationKey[] = [];
      const unknownKey: string[] = [];
      for (const key of names) {
        const d = def(key);
        if (d) configurationKey.push(d.writeOnly ? { key, readonly: false } : { key, readonly: d.readonly ?? false, value: get(key)! });
        else unknownKey.push(key);
      }
      return { configurationKey, unknownKey };
    },
    change(key, value) {
      const d = def(key);
      if (!d) return 'NotSupported';
      if (d.readonly || !valid(d, value)) return 'Rejected';
      own.set(key, value);
      return d.rebootRequired ? 'RebootRequired' : 'Accepted';
    },
    set: (key, value) => void own.set(key, value),
  };
}
