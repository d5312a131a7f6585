import { OcppError, type Payload } from './ocpp.js';

/*
 * OCPP 2.0.1 on the wire (`ocppVersion: '2.0.1'`, CLI `--ocpp 2.0.1`). The simulated point keeps its
 * 1.6 behaviour (transactions, offline queue, configuration, commands); the link translates each
 * 1.6 call it sends into its 2.0.1 equivalent (StartTransaction, MeterValues and StopTransaction of a
 * transaction become TransactionEvent Started / Updated / Ended) and each 2.0.1 call it receives into
 * the 1.6 one the point answers, and the answers back.
 */

export type OcppVersion = '1.6' | '2.0.1';

/** A call as the other side speaks it, and how its answer reads on this side. */
export interface Translated {
  action: string;
  payload: Payload;
  back(payload: Payload): Payload;
  /** 2.0.1 calls the point sends once its answer is on the wire (a GetBaseReport's NotifyReports), from its 1.6 answer. */
  then?(payload: Payload): { action: string; payload: Payload }[];
}

export interface WireTranslator {
  /** A 1.6 call of the point, as sent. */
  outgoing(action: string, payload: Payload): Translated;
  /** A 2.0.1 call of the CSMS as the point's 1.6 handler takes it; `{ reply }` when it is answered here. */
  incoming(action: string, payload: Payload): Translated | { reply: Payload };
}

const ENERGY = 'Energy.Active.Import.Register';
/** 2.0.1's measurands (no Temperature, no RPM). */
const MEASURANDS = new Set([
  'Current.Export',
  'Current.Import',
  'Current.Offered',
  'Energy.Active.Export.Register',
  ENERGY,
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
  'SoC',
  'Voltage',
]);

const STATUS: Record<string, string> = {
  Available: 'Available',
  Preparing: 'Occupied',
  Charging: 'Occupied',
  SuspendedEV: 'Occupied',
  SuspendedEVSE: 'Occupied',
  Finishing: 'Occupied',
  Reserved: 'Reserved',
  Unavailable: 'Unavailable',
  Faulted: 'Faulted',
};

const STOP_REASON: Record<string, string> = { HardReset: 'ImmediateReset', SoftReset: 'Reboot', UnlockCommand: 'Other' };

const AUTH_STATUS = new Set(['Accepted', 'Blocked', 'Expired', 'Invalid', 'ConcurrentTx']);

/** 1.6 configuration keys for the 2.0.1 variables the CSMS asks for (component.variable). */
const VARIABLES: Record<string, string> = {
  'OCPPCommCtrlr.HeartbeatInterval': 'HeartbeatInterval',
  'TxCtrlr.EVConnectionTimeOut': 'ConnectionTimeOut',
  'SampledDataCtrlr.TxUpdatedInterval': 'MeterValueSampleInterval',
  'SampledDataCtrlr.TxUpdatedMeasurands': 'MeterValuesSampledData',
  'SampledDataCtrlr.TxEndedMeasurands': 'StopTxnSampledData',
  'AlignedDataCtrlr.Interval': 'ClockAlignedDataInterval',
  'AlignedDataCtrlr.Measurands': 'MeterValuesAlignedData',
  'AuthCtrlr.LocalAuthorizeOffline': 'LocalAuthorizeOffline',
  'AuthCtrlr.LocalPreAuthorize': 'LocalPreAuthorize',
  'AuthCtrlr.MasterPassGroupId': 'MasterPassGroupId',
  'AuthCacheCtrlr.Enabled': 'AuthorizationCacheEnabled',
  'LocalAuthListCtrlr.Enabled': 'LocalAuthListEnabled',
  'TxCtrlr.StopTxOnEVSideDisconnect': 'StopTransactionOnEVSideDisconnect',
  'TxCtrlr.StopTxOnInvalidId': 'StopTransactionOnInvalidId',
  'OCPPCommCtrlr.MessageAttempts': 'TransactionMessageAttempts',
  'OCPPCommCtrlr.MessageAttemptInterval': 'TransactionMessageRetryInterval',
  'OCPPCommCtrlr.WebSocketPingInterval': 'WebSocketPingInterval',
  'SecurityCtrlr.BasicAuthPassword': 'AuthorizationKey',
  'OCPPCommCtrlr.NetworkConfigurationPriority': 'NetworkConfigurationPriority',
};

/** Where the point's 1.6 keys without a device-model variable of their own are reported (a vendor component). */
const KEYS_COMPONENT = 'SimulatorCtrlr';
const KEY_OF_VARIABLE: Record<string, string> = { ...VARIABLES };
const VARIABLE_OF_KEY = new Map(Object.entries(VARIABLES).map(([variable, key]) => [key, variable]));

/** The 1.6 key a 2.0.1 component and variable stand for. */
const keyOf = (component: string, variable: string) =>
  component === KEYS_COMPONENT ? variable : (KEY_OF_VARIABLE[`${component}.${variable}`] ?? `${component}.${variable}`);

/** Items of a NotifyReport per message (the report comes in several, `tbc` on all but the last). */
const REPORT_ITEMS = 20;

/** What a full inventory adds to the configuration: the station, each EVSE and its connector (B08). */
export interface Hardware {
  vendor: string;
  model: string;
  evses: { id: number; current: 'AC' | 'DC'; phases: 1 | 3; maxPowerW: number; available: boolean }[];
}

/** The hardware's components and variables, read-only, as a full inventory reports them. */
function hardwareItems(h: Hardware): Payload[] {
  const item = (component: Payload, variable: string, value: string, dataType: string, attr: Payload = {}, unit?: string) => ({
    component,
    variable: { name: variable },
    variableAttribute: [{ type: 'Actual', value, mutability: 'ReadOnly', ...attr }],
    variableCharacteristics: { dataType, supportsMonitoring: false, ...(unit ? { unit } : {}) },
  });
  const items: Payload[] = [
    item({ name: 'ChargingStation' }, 'VendorName', h.vendor, 'string'),
    item({ name: 'ChargingStation' }, 'Model', h.model, 'string'),
    item({ name: 'ChargingStation' }, 'AvailabilityState', h.evses.some((e) => e.available) ? 'Available' : 'Unavailable', 'OptionList'),
  ];
  for (const e of h.evses) {
    const evse = { name: 'EVSE', evse: { id: e.id } };
    const connector = { name: 'Connector', evse: { id: e.id, connectorId: 1 } };
    items.push(
      item(evse, 'AvailabilityState', e.available ? 'Available' : 'Unavailable', 'OptionList'),
      // The EVSE's highest power: its maximum setting (what it draws now is in its meter values).
      item(evse, 'Power', String(e.maxPowerW), 'decimal', { type: 'MaxSet' }, 'W'),
      item(evse, 'SupplyPhases', String(e.current === 'DC' ? 0 : e.phases), 'integer'),
      item(connector, 'ConnectorType', e.current === 'DC' ? 'cCCS2' : 'cType2', 'OptionList'),
      item(connector, 'AvailabilityState', e.available ? 'Available' : 'Unavailable', 'OptionList'),
    );
  }
  return items;
}

/**
 * GetConfiguration's keys as a base report's NotifyReports (OCPP 2.0.1 B07): each key its variable's Actual
 * value; a full inventory (`hardware`) has the station's, EVSEs' and connectors' components first.
 */
export function baseReport201(
  requestId: number,
  configurationKey: readonly { key: string; readonly?: boolean; value?: string }[],
  hardware?: Hardware,
): Payload[] {
  const keys = configurationKey.map((k) => {
    const [component, variable] = (VARIABLE_OF_KEY.get(k.key) ?? `${KEYS_COMPONENT}.${k.key}`).split(/\.(.*)/s) as [string, string];
    return {
      component: { name: component },
      variable: { name: variable.slice(0, 50) },
      variableAttribute: [
        {
          type: 'Actual',
          ...(k.value !== undefined ? { value: k.value.slice(0, 2500) } : {}),
          // A key listed without its value is write-only (the password).
          mutability: k.readonly ? 'ReadOnly' : k.value === undefined ? 'WriteOnly' : 'ReadWrite',
        },
      ],
      variableCharacteristics: { dataType: 'string', supportsMonitoring: false },
    };
  });
  const items = hardware ? [...hardwareItems(hardware), ...keys] : keys;
  const generatedAt = new Date().toISOString();
  const reports: Payload[] = [];
  for (let i = 0, seqNo = 0; i === 0 || i < items.length; i += REPORT_ITEMS, seqNo++) {
    const reportData = items.slice(i, i + REPORT_ITEMS);
    reports.push({
      requestId,
      generatedAt,
      seqNo,
      ...(i + REPORT_ITEMS < items.length ? { tbc: true } : {}),
      ...(reportData.length ? { reportData } : {}),
    });
  }
  return reports;
}

interface SampledValue16 {
  value: string;
  context?: string;
  format?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unit?: string;
}
interface MeterValue16 {
  timestamp: string;
  sampledValue: SampledValue16[];
}

/** 1.6 meter values as 2.0.1's: numbers with a unit of measure; signed data and measurands 2.0.1 lacks are left out. */
export function meterValues201(mvs: readonly MeterValue16[]): Payload[] {
  const out: Payload[] = [];
  for (const mv of mvs) {
    const sampledValue = mv.sampledValue
      .filter((sv) => sv.format !== 'SignedData' && MEASURANDS.has(sv.measurand ?? ENERGY) && Number.isFinite(Number(sv.value)))
      .map((sv) => ({
        value: Number(sv.value),
        ...(sv.context ? { context: sv.context } : {}),
        ...(sv.measurand ? { measurand: sv.measurand } : {}),
        ...(sv.phase ? { phase: sv.phase } : {}),
        ...(sv.location ? { location: sv.location } : {}),
        ...(sv.unit ? { unitOfMeasure: { unit: sv.unit } } : {}),
      }));
    if (sampledValue.length) out.push({ timestamp: mv.timestamp, sampledValue });
  }
  return out;
}

const idToken = (idTag: unknown) => ({ idToken: String(idTag), type: 'ISO14443' });

/** A 2.0.1 idTokenInfo as the point's 1.6 IdTagInfo: its group (groupIdToken) is the parentIdTag. */
function idTagInfo(info: unknown): Payload {
  const i = (info ?? {}) as { status?: string; cacheExpiryDateTime?: string; groupIdToken?: { idToken?: string } };
  const status = i.status && AUTH_STATUS.has(i.status) ? i.status : 'Invalid';
  return {
    status,
    ...(i.cacheExpiryDateTime ? { expiryDate: i.cacheExpiryDateTime } : {}),
    ...(i.groupIdToken?.idToken ? { parentIdTag: i.groupIdToken.idToken } : {}),
  };
}

const same = (p: Payload) => p;
const status = (p: Payload): Payload => ({ status: p.status });

/** `hardware`: what the point is made of, for a full inventory (without it, a full inventory is its configuration). */
export function createWireTranslator(hardware?: () => Hardware): WireTranslator {
  const epoch = Date.now().toString(36);
  /** Our 1.6 transaction numbers and the 2.0.1 transactions they stand for. */
  const byNumber = new Map<number, { id: string; evse: number; seqNo: number }>();
  const byId = new Map<string, number>();
  let next = 0;
  /** Remote starts accepted, by idTag, so their TransactionEvent names the request. */
  const remoteStarts = new Map<string, number>();

  const tx = (n: number) => {
    let t = byNumber.get(n);
    if (!t) {
      // Not one we numbered (e.g. before a restart of the simulator): named after the number.
      t = { id: `sim-${n}`, evse: 1, seqNo: 1 };
      byNumber.set(n, t);
      byId.set(t.id, n);
    }
    return t;
  };

  return {
    outgoing(action, p) {
      switch (action) {
        case 'BootNotification':
          return {
            action,
            payload: {
              reason: 'PowerUp',
              chargingStation: {
                model: String(p.chargePointModel),
                vendorName: String(p.chargePointVendor),
                ...(p.chargePointSerialNumber ? { serialNumber: p.chargePointSerialNumber } : {}),
                ...(p.firmwareVersion ? { firmwareVersion: p.firmwareVersion } : {}),
              },
            },
            back: same,
          };
        case 'StatusNotification': {
          const no = Number(p.connectorId);
          return {
            action,
            payload: {
              timestamp: (p.timestamp as string | undefined) ?? new Date().toISOString(),
              connectorStatus: STATUS[String(p.status)] ?? 'Unavailable',
              evseId: no,
              connectorId: no === 0 ? 0 : 1,
            },
            back: same,
          };
        }
        case 'Authorize':
          return { action, payload: { idToken: idToken(p.idTag) }, back: (c) => ({ idTagInfo: idTagInfo(c.idTokenInfo) }) };
        case 'StartTransaction': {
          const n = ++next;
          // Unique per point (at most 36 characters): the time this simulator started, and a counter.
          const t = { id: `${epoch}-${n}`, evse: Number(p.connectorId), seqNo: 0 };
          byNumber.set(n, t);
          byId.set(t.id, n);
          const remoteStartId = remoteStarts.get(String(p.idTag));
          remoteStarts.delete(String(p.idTag));
          return {
            action: 'TransactionEvent',
            payload: {
              eventType: 'Started',
              timestamp: p.timestamp,
              triggerReason: remoteStartId === undefined ? 'Authorized' : 'RemoteStart',
              seqNo: t.seqNo++,
              transactionInfo: {
                transactionId: t.id,
                chargingState: 'Charging',
                ...(remoteStartId === undefined ? {} : { remoteStartId }),
              },
              idToken: idToken(p.idTag),
              evse: { id: t.evse, connectorId: 1 },
              meterValue: [
                {
                  timestamp: p.timestamp,
                  sampledValue: [{ value: Number(p.meterStart), context: 'Transaction.Begin', measurand: ENERGY }],
                },
              ],
              ...(p.reservationId !== undefined ? { reservationId: p.reservationId } : {}),
            },
            back: (c) => ({ transactionId: n, idTagInfo: c.idTokenInfo ? idTagInfo(c.idTokenInfo) : { status: 'Accepted' } }),
          };
        }
        case 'MeterValues': {
          const meterValue = meterValues201((p.meterValue ?? []) as MeterValue16[]);
          if (p.transactionId === undefined) {
            // Nothing 2.0.1 can carry (e.g. only temperatures): a heartbeat keeps the call's place.
            if (meterValue.length === 0) return { action: 'Heartbeat', payload: {}, back: () => ({}) };
            return { action, payload: { evseId: p.connectorId, meterValue }, back: same };
          }
          const t = tx(Number(p.transactionId));
          const last = (p.meterValue as MeterValue16[]).at(-1)?.timestamp ?? new Date().toISOString();
          return {
            action: 'TransactionEvent',
            payload: {
              eventType: 'Updated',
              timestamp: last,
              triggerReason: (p.meterValue as MeterValue16[]).some((m) => m.sampledValue?.some((v) => v.context === 'Trigger'))
                ? 'Trigger'
                : 'MeterValuePeriodic',
              seqNo: t.seqNo++,
              transactionInfo: { transactionId: t.id, chargingState: 'Charging' },
              ...(meterValue.length ? { meterValue } : {}),
            },
            back: () => ({}),
          };
        }
        case 'StopTransaction': {
          const t = tx(Number(p.transactionId));
          const reason = String(p.reason ?? 'Local');
          const meterValue = [
            ...meterValues201((p.transactionData ?? []) as MeterValue16[]),
            { timestamp: p.timestamp, sampledValue: [{ value: Number(p.meterStop), context: 'Transaction.End', measurand: ENERGY }] },
          ];
          byNumber.delete(Number(p.transactionId));
          byId.delete(t.id);
          return {
            action: 'TransactionEvent',
            payload: {
              eventType: 'Ended',
              timestamp: p.timestamp,
              triggerReason:
                reason === 'Remote'
                  ? 'RemoteStop'
                  : reason === 'EVDisconnected'
                    ? 'EVCommunicationLost'
                    : reason === 'HardReset' || reason === 'SoftReset'
                      ? 'ResetCommand'
                      : 'StopAuthorized',
              seqNo: t.seqNo++,
              transactionInfo: { transactionId: t.id, stoppedReason: STOP_REASON[reason] ?? reason },
              ...(p.idTag !== undefined ? { idToken: idToken(p.idTag) } : {}),
              evse: { id: t.evse, connectorId: 1 },
              meterValue,
            },
            back: (c) => (c.idTokenInfo ? { idTagInfo: idTagInfo(c.idTokenInfo) } : {}),
          };
        }
        case 'DiagnosticsStatusNotification':
          return {
            action: 'LogStatusNotification',
            payload: { status: p.status === 'UploadFailed' ? 'UploadFailure' : p.status },
            back: same,
          };
        default:
          // Heartbeat, DataTransfer, FirmwareStatusNotification: the same in both.
          return { action, payload: p, back: same };
      }
    },

    incoming(action, p) {
      switch (action) {
        case 'RequestStartTransaction': {
          const idTag = String((p.idToken as { idToken: string }).idToken);
          return {
            action: 'RemoteStartTransaction',
            payload: { idTag, ...(p.evseId !== undefined ? { connectorId: p.evseId } : {}) },
            back: (c) => {
              if (c.status === 'Accepted') remoteStarts.set(idTag, Number(p.remoteStartId));
              return status(c);
            },
          };
        }
        case 'RequestStopTransaction': {
          const n = byId.get(String(p.transactionId));
          if (n === undefined) return { reply: { status: 'Rejected' } };
          return { action: 'RemoteStopTransaction', payload: { transactionId: n }, back: status };
        }
        case 'Reset':
          return {
            action,
            payload: { type: p.type === 'Immediate' ? 'Hard' : 'Soft', ...(p.evseId !== undefined ? { connectorId: p.evseId } : {}) },
            back: status,
          };
        case 'UnlockConnector':
          return {
            action,
            payload: { connectorId: p.evseId },
            back: (c) => ({ status: c.status === 'NotSupported' ? 'UnknownConnector' : c.status }),
          };
        case 'ChangeAvailability':
          return {
            action,
            payload: { connectorId: (p.evse as { id?: number } | undefined)?.id ?? 0, type: p.operationalStatus },
            back: status,
          };
        case 'TriggerMessage': {
          // TransactionEvent: the point's triggered meter values, which go out as each ongoing transaction's Updated (Trigger).
          const requested =
            p.requestedMessage === 'LogStatusNotification'
              ? 'DiagnosticsStatusNotification'
              : p.requestedMessage === 'TransactionEvent'
                ? 'MeterValues'
                : String(p.requestedMessage);
          const evse = p.evse as { id?: number } | undefined;
          if (
            ![
              'BootNotification',
              'DiagnosticsStatusNotification',
              'FirmwareStatusNotification',
              'Heartbeat',
              'MeterValues',
              'StatusNotification',
            ].includes(requested)
          )
            return { reply: { status: 'NotImplemented' } };
          return {
            action,
            payload: { requestedMessage: requested, ...(evse?.id !== undefined ? { connectorId: evse.id } : {}) },
            back: status,
          };
        }
        case 'DataTransfer':
          return {
            action,
            payload: { ...p, ...(p.data !== undefined && typeof p.data !== 'string' ? { data: JSON.stringify(p.data) } : {}) },
            back: same,
          };
        case 'GetLocalListVersion':
          return { action, payload: {}, back: (c) => ({ versionNumber: c.listVersion }) };
        case 'CancelReservation':
        case 'ClearCache':
          return { action, payload: p, back: status };
        case 'ReserveNow':
          return {
            action,
            payload: {
              connectorId: p.evseId ?? 0,
              expiryDate: p.expiryDateTime,
              idTag: (p.idToken as { idToken: string }).idToken,
              reservationId: p.id,
            },
            back: status,
          };
        case 'SendLocalList': {
          const list = (p.localAuthorizationList ?? []) as { idToken: { idToken: string }; idTokenInfo?: unknown }[];
          return {
            action,
            payload: {
              listVersion: p.versionNumber,
              updateType: p.updateType,
              localAuthorizationList: list.map((e) => ({
                idTag: e.idToken.idToken,
                ...(e.idTokenInfo ? { idTagInfo: idTagInfo(e.idTokenInfo) } : {}),
              })),
            },
            back: status,
          };
        }
        case 'SetChargingProfile': {
          const cp = p.chargingProfile as Payload;
          const schedule = ((cp.chargingSchedule ?? []) as Payload[])[0] ?? {};
          return {
            action,
            payload: {
              connectorId: p.evseId,
              csChargingProfiles: {
                chargingProfileId: cp.id,
                stackLevel: cp.stackLevel,
                chargingProfilePurpose: cp.chargingProfilePurpose,
                chargingProfileKind: cp.chargingProfileKind,
                ...(cp.recurrencyKind ? { recurrencyKind: cp.recurrencyKind } : {}),
                ...(cp.validFrom ? { validFrom: cp.validFrom } : {}),
                ...(cp.validTo ? { validTo: cp.validTo } : {}),
                ...(cp.transactionId !== undefined && byId.has(String(cp.transactionId))
                  ? { transactionId: byId.get(String(cp.transactionId)) }
                  : {}),
                chargingSchedule: {
                  chargingRateUnit: schedule.chargingRateUnit,
                  chargingSchedulePeriod: schedule.chargingSchedulePeriod,
                  ...(schedule.duration !== undefined ? { duration: schedule.duration } : {}),
                  ...(schedule.startSchedule ? { startSchedule: schedule.startSchedule } : {}),
                  ...(schedule.minChargingRate !== undefined ? { minChargingRate: schedule.minChargingRate } : {}),
                },
              },
            },
            back: status,
          };
        }
        case 'ClearChargingProfile': {
          const c = (p.chargingProfileCriteria ?? {}) as Payload;
          return {
            action,
            payload: {
              ...(p.chargingProfileId !== undefined ? { id: p.chargingProfileId } : {}),
              ...(c.evseId !== undefined ? { connectorId: c.evseId } : {}),
              ...(c.chargingProfilePurpose ? { chargingProfilePurpose: c.chargingProfilePurpose } : {}),
              ...(c.stackLevel !== undefined ? { stackLevel: c.stackLevel } : {}),
            },
            back: status,
          };
        }
        case 'GetCompositeSchedule':
          return {
            action,
            payload: {
              connectorId: p.evseId,
              duration: p.duration,
              ...(p.chargingRateUnit ? { chargingRateUnit: p.chargingRateUnit } : {}),
            },
            back: (c) => {
              const s = c.chargingSchedule as Payload | undefined;
              if (c.status !== 'Accepted' || !s) return { status: c.status === 'Accepted' ? 'Accepted' : 'Rejected' };
              return {
                status: 'Accepted',
                schedule: {
                  evseId: p.evseId,
                  duration: s.duration ?? p.duration,
                  scheduleStart: c.scheduleStart ?? s.startSchedule ?? new Date().toISOString(),
                  chargingRateUnit: s.chargingRateUnit,
                  chargingSchedulePeriod: s.chargingSchedulePeriod,
                },
              };
            },
          };
        case 'UpdateFirmware': {
          const fw = p.firmware as { location: string; retrieveDateTime: string };
          return {
            action,
            payload: {
              location: fw.location,
              retrieveDate: fw.retrieveDateTime,
              ...(p.retries !== undefined ? { retries: p.retries } : {}),
              ...(p.retryInterval !== undefined ? { retryInterval: p.retryInterval } : {}),
            },
            back: () => ({ status: 'Accepted' }),
          };
        }
        case 'GetLog': {
          const log = p.log as { remoteLocation: string; oldestTimestamp?: string; latestTimestamp?: string };
          return {
            action: 'GetDiagnostics',
            payload: {
              location: log.remoteLocation,
              ...(log.oldestTimestamp ? { startTime: log.oldestTimestamp } : {}),
              ...(log.latestTimestamp ? { stopTime: log.latestTimestamp } : {}),
              ...(p.retries !== undefined ? { retries: p.retries } : {}),
              ...(p.retryInterval !== undefined ? { retryInterval: p.retryInterval } : {}),
            },
            back: (c) => ({ status: 'Accepted', ...(c.fileName ? { filename: c.fileName } : {}) }),
          };
        }
        // 2.0.1's own (B09): kept by the point itself (commands.ts).
        case 'SetNetworkProfile':
          return { action, payload: p, back: same };
        case 'GetVariables': {
          const data = (p.getVariableData ?? []) as { component: { name: string }; variable: { name: string } }[];
          const keys = data.map((d) => keyOf(d.component.name, d.variable.name));
          return {
            action: 'GetConfiguration',
            payload: { key: keys },
            back: (c) => {
              const found = new Map(((c.configurationKey ?? []) as { key: string; value?: string }[]).map((k) => [k.key, k.value]));
              return {
                getVariableResult: data.map((d, i) =>
                  found.has(keys[i]!)
                    ? {
                        attributeStatus: 'Accepted',
                        attributeValue: found.get(keys[i]!) ?? '',
                        component: d.component,
                        variable: d.variable,
                      }
                    : { attributeStatus: 'UnknownVariable', component: d.component, variable: d.variable },
                ),
              };
            },
          };
        }
        case 'SetVariables': {
          // Each variable its key, changed as ChangeConfiguration would (several at once: the point's own call).
          const data = (p.setVariableData ?? []) as { attributeValue: string; component: { name: string }; variable: { name: string } }[];
          return {
            action: 'ChangeConfigurations',
            payload: { changes: data.map((d) => ({ key: keyOf(d.component.name, d.variable.name), value: d.attributeValue })) },
            back: (c) => ({
              setVariableResult: data.map((d, i) => {
                const s = String((c.results as { status: string }[] | undefined)?.[i]?.status ?? 'Rejected');
                return { attributeStatus: s === 'NotSupported' ? 'UnknownVariable' : s, component: d.component, variable: d.variable };
              }),
            }),
          };
        }
        case 'GetTransactionStatus': {
          if (p.transactionId === undefined) return { action, payload: {}, back: same };
          const n = byId.get(String(p.transactionId));
          // One this link never numbered, or whose Ended has gone out: not ongoing, nothing of it waits.
          if (n === undefined) return { reply: { ongoingIndicator: false, messagesInQueue: false } };
          return { action, payload: { transactionId: n }, back: same };
        }
        case 'GetBaseReport': {
          // Every key the point has, in its configuration inventory; a full one adds the hardware.
          if (p.reportBase === 'SummaryInventory') return { reply: { status: 'NotSupported' } };
          const full = p.reportBase === 'FullInventory' ? hardware?.() : undefined;
          return {
            action: 'GetConfiguration',
            payload: {},
            back: () => ({ status: 'Accepted' }),
            then: (c) =>
              baseReport201(
                Number(p.requestId),
                (c.configurationKey ?? []) as { key: string; readonly?: boolean; value?: string }[],
                full,
              ).map((payload) => ({ action: 'NotifyReport', payload })),
          };
        }
        default:
          throw new OcppError('NotImplemented', `${action} is not implemented by this simulator`);
      }
    },
  };
}
