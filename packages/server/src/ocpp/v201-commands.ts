import type { ChargerReply } from '../bus/bus.js';
import type { Payload } from './rpc.js';
import type { ChargerSession } from './session.js';

/*
 * Operator commands to an OCPP 2.0.1 charger. The console's actions (modules/pointAction, firmware,
 * smart charging, reservations, local lists) speak 1.6 over the bus whatever the charger; a 2.0.1
 * session translates each 1.6 request into its 2.0.1 equivalent and the charger's answer back into
 * the 1.6 answer, so the same buttons get the same vocabulary (README "OCPP 2.0.1").
 */

type Translated =
  | {
      action: string;
      payload: Payload;
      back: (conf: Payload) => Payload | ChargerReply;
      /** A GetBaseReport: its requestId, and its NotifyReports' items assembled into the answer. */
      report?: { id: number; assemble: (items: readonly ReportData[]) => Payload };
    }
  | { reply: ChargerReply };

interface ReportData {
  component: { name: string; instance?: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string; instance?: string };
  variableAttribute: { type?: string; value?: string; mutability?: string }[];
  variableCharacteristics?: { unit?: string; dataType?: string };
}

/** The NotifyReports of our GetBaseReport requests, by session and requestId, until the last (`tbc` false). */
const reports = new WeakMap<object, Map<number, { items: ReportData[]; done: () => void }>>();

/** Takes a NotifyReport (v201.ts): its items join the report being assembled; the last one completes it. */
export function collectReport(session: object, payload: Payload): void {
  const pending = reports.get(session)?.get(Number(payload.requestId));
  if (!pending) return;
  // Bounded whatever the charger sends: no report is shown with more than this many attributes.
  for (const item of (payload.reportData ?? []) as ReportData[]) if (pending.items.length < MAX_DEVICE_MODEL_ROWS) pending.items.push(item);
  if (payload.tbc !== true) pending.done();
}

/**
 * A device-model report as 1.6 GetConfiguration's keys: each variable's Actual value (else its first),
 * named by its 1.6 key when it has one, else `Component.Variable` (the first of a name, as GetVariables
 * would read it without an EVSE or instance); read-only when the charger says so.
 */
export function reportAsConfiguration(items: readonly ReportData[]): Payload {
  const seen = new Set<string>();
  const configurationKey: Payload[] = [];
  for (const item of items) {
    const key = keyOf(item.component.name, item.variable.name);
    if (seen.has(key) || key.length > 50) continue;
    seen.add(key);
    const attr = item.variableAttribute.find((a) => (a.type ?? 'Actual') === 'Actual') ?? item.variableAttribute[0];
    configurationKey.push({
      key,
      readonly: attr?.mutability === 'ReadOnly',
      ...(attr?.value !== undefined && attr.mutability !== 'WriteOnly' ? { value: attr.value.slice(0, 500) } : {}),
    });
  }
  return { configurationKey };
}

/** The most attributes a device model is shown with (a real station reports a few hundred). */
export const MAX_DEVICE_MODEL_ROWS = 5000;

/**
 * A full inventory (GetBaseReport FullInventory, B07/B08) as the console's device model: one row per
 * attribute of each variable of each component (with its EVSE and connector, instances, unit and data
 * type), in the order reported; a WriteOnly attribute's value is never shown.
 */
export function reportAsDeviceModel(items: readonly ReportData[]): Payload {
  const rows: Payload[] = [];
  for (const item of items)
    for (const attr of item.variableAttribute) {
      if (rows.length === MAX_DEVICE_MODEL_ROWS) return { items: rows };
      rows.push({
        component: item.component.name,
        componentInstance: item.component.instance ?? null,
        evseId: item.component.evse?.id ?? null,
        connectorId: item.component.evse?.connectorId ?? null,
        variable: item.variable.name,
        variableInstance: item.variable.instance ?? null,
        type: attr.type ?? 'Actual',
        value: attr.value !== undefined && attr.mutability !== 'WriteOnly' ? attr.value : null,
        mutability: attr.mutability ?? 'ReadWrite',
        unit: item.variableCharacteristics?.unit ?? null,
        dataType: item.variableCharacteristics?.dataType ?? null,
      });
    }
  return { items: rows };
}

/** Ids of our requests that need one (remote starts, firmware and log requests): unique enough across restarts. */
let nextRequestId = Math.floor(Date.now() / 1000) % 1_000_000_000;
const requestId = () => (nextRequestId = (nextRequestId + 1) % 2_147_483_647);

const same = (conf: Payload) => conf;
const statusOnly = (conf: Payload): Payload => ({ status: conf.status });
const opt = <T>(key: string, v: T | undefined): Payload => (v === undefined ? {} : { [key]: v });

/** A 1.6 idTag as a 2.0.1 idToken: our cards are RFID cards. */
const idToken = (idTag: unknown) => ({ idToken: String(idTag), type: 'ISO14443' });

/**
 * A 1.6 parentIdTag (a charge user's account, which groups its cards) as a 2.0.1 groupIdToken: an id the
 * CSMS made, so of type Central. The same in ReserveNow and in every idTokenInfo, so that a charger
 * matching the two (C09, H01) finds them equal. Undefined when it does not fit an idToken (36 characters).
 */
export const groupIdToken = (parentIdTag: unknown) =>
  typeof parentIdTag === 'string' && parentIdTag.length > 0 && parentIdTag.length <= 36
    ? { idToken: parentIdTag, type: 'Central' }
    : undefined;

/** 1.6 ChargingProfile → 2.0.1 ChargingProfileType (its schedule becomes a one-element list). */
export function chargingProfile201(p: Payload): Payload {
  const s = (p.chargingSchedule ?? {}) as Payload;
  return {
    id: p.chargingProfileId,
    stackLevel: p.stackLevel,
    chargingProfilePurpose: p.chargingProfilePurpose,
    chargingProfileKind: p.chargingProfileKind,
    ...opt('recurrencyKind', p.recurrencyKind),
    ...opt('validFrom', p.validFrom),
    ...opt('validTo', p.validTo),
    ...opt('transactionId', p.transactionId === undefined ? undefined : String(p.transactionId)),
    chargingSchedule: [
      {
        id: p.chargingProfileId,
        chargingRateUnit: s.chargingRateUnit,
        chargingSchedulePeriod: s.chargingSchedulePeriod,
        ...opt('duration', s.duration),
        ...opt('startSchedule', s.startSchedule),
        ...opt('minChargingRate', s.minChargingRate),
      },
    ],
  };
}

/** 1.6 configuration keys and their 2.0.1 device-model variables (component.variable). */
export const CONFIGURATION_KEYS: Readonly<Record<string, { component: string; variable: string }>> = {
  HeartbeatInterval: { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval' },
  ConnectionTimeOut: { component: 'TxCtrlr', variable: 'EVConnectionTimeOut' },
  MeterValueSampleInterval: { component: 'SampledDataCtrlr', variable: 'TxUpdatedInterval' },
  MeterValuesSampledData: { component: 'SampledDataCtrlr', variable: 'TxUpdatedMeasurands' },
  StopTxnSampledData: { component: 'SampledDataCtrlr', variable: 'TxEndedMeasurands' },
  ClockAlignedDataInterval: { component: 'AlignedDataCtrlr', variable: 'Interval' },
  MeterValuesAlignedData: { component: 'AlignedDataCtrlr', variable: 'Measurands' },
  LocalAuthorizeOffline: { component: 'AuthCtrlr', variable: 'LocalAuthorizeOffline' },
  LocalPreAuthorize: { component: 'AuthCtrlr', variable: 'LocalPreAuthorize' },
  AuthorizationCacheEnabled: { component: 'AuthCacheCtrlr', variable: 'Enabled' },
  LocalAuthListEnabled: { component: 'LocalAuthListCtrlr', variable: 'Enabled' },
  StopTransactionOnEVSideDisconnect: { component: 'TxCtrlr', variable: 'StopTxOnEVSideDisconnect' },
  StopTransactionOnInvalidId: { component: 'TxCtrlr', variable: 'StopTxOnInvalidId' },
  TransactionMessageAttempts: { component: 'OCPPCommCtrlr', variable: 'MessageAttempts' },
  TransactionMessageRetryInterval: { component: 'OCPPCommCtrlr', variable: 'MessageAttemptInterval' },
  WebSocketPingInterval: { component: 'OCPPCommCtrlr', variable: 'WebSocketPingInterval' },
  AuthorizationKey: { component: 'SecurityCtrlr', variable: 'BasicAuthPassword' },
  SecurityProfile: { component: 'SecurityCtrlr', variable: 'SecurityProfile' },
};

/** A configuration key as a 2.0.1 component and variable: a 1.6 key by the table, else `Component.Variable` as written. */
export function variableOf(key: string): { component: { name: string }; variable: { name: string } } | undefined {
  const known = CONFIGURATION_KEYS[key];
  if (known) return { component: { name: known.component }, variable: { name: known.variable } };
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1) return undefined;
  return { component: { name: key.slice(0, dot) }, variable: { name: key.slice(dot + 1) } };
}

/** The 1.6 key a 2.0.1 variable answers to (the table's, else `Component.Variable`). */
function keyOf(component: string, variable: string): string {
  for (const [key, v] of Object.entries(CONFIGURATION_KEYS)) if (v.component === component && v.variable === variable) return key;
  return `${component}.${variable}`;
}

/** SetVariables' statuses as 1.6 ChangeConfiguration's. */
const SET_STATUS: Record<string, string> = {
  Accepted: 'Accepted',
  Rejected: 'Rejected',
  RebootRequired: 'RebootRequired',
  UnknownComponent: 'NotSupported',
  UnknownVariable: 'NotSupported',
  NotSupportedAttributeType: 'NotSupported',
};

/** UnlockConnector's 2.0.1 statuses as the console's words (an ongoing transaction: the connector is occupied). */
const UNLOCK_STATUS: Record<string, string> = {
  Unlocked: 'Unlocked',
  UnlockFailed: 'UnlockFailed',
  OngoingAuthorizedTransaction: 'Occupied',
  UnknownConnector: 'NotSupported',
};

/** TriggerMessage's 1.6 messages as 2.0.1's. */
const TRIGGERED: Record<string, string> = {
  BootNotification: 'BootNotification',
  DiagnosticsStatusNotification: 'LogStatusNotification',
  FirmwareStatusNotification: 'FirmwareStatusNotification',
  Heartbeat: 'Heartbeat',
  MeterValues: 'MeterValues',
  StatusNotification: 'StatusNotification',
  // 2.0.1's own: the charger sends a TransactionEvent (Updated, triggerReason Trigger) of each ongoing transaction.
  TransactionEvent: 'TransactionEvent',
};

const refused = (description: string): { reply: ChargerReply } => ({
  reply: { kind: 'error', code: 'NotSupported', description, messageKey: 'errors.pointAction.notInVersion', params: { version: '2.0.1' } },
});

/** The 2.0.1 request for a 1.6 one, and how its answer reads in 1.6; or the answer when there is none to send. */
export function translateCommand(session: Pick<ChargerSession, 'point'>, action: string, p: Payload): Translated {
  switch (action) {
    case 'RemoteStartTransaction':
      return {
        action: 'RequestStartTransaction',
        payload: {
          idToken: idToken(p.idTag),
          remoteStartId: requestId(),
          ...opt('evseId', p.connectorId),
          ...(p.chargingProfile ? { chargingProfile: chargingProfile201(p.chargingProfile as Payload) } : {}),
        },
        back: statusOnly,
      };
    case 'RemoteStopTransaction': {
      const tx = session.point.transactions.get(Number(p.transactionId));
      // Only a session the charger told us its transactionId for can be named to it.
      if (!tx?.ocppTxId) return { reply: { kind: 'result', payload: { status: 'Rejected' } } };
      return { action: 'RequestStopTransaction', payload: { transactionId: tx.ocppTxId }, back: statusOnly };
    }
    case 'Reset':
      return {
        action: 'Reset',
        payload: { type: p.type === 'Hard' ? 'Immediate' : 'OnIdle', ...opt('evseId', p.connectorId) },
        back: statusOnly,
      };
    case 'UnlockConnector':
      return {
        action: 'UnlockConnector',
        payload: { evseId: p.connectorId, connectorId: 1 },
        back: (c) => ({ status: UNLOCK_STATUS[String(c.status)] ?? String(c.status) }),
      };
    case 'ChangeAvailability':
      return {
        action: 'ChangeAvailability',
        payload: {
          operationalStatus: p.type,
          // One plug of the EVSE (the console's `plug`, 2.0.1's connectorId within it), or the EVSE, or the station.
          ...(Number(p.connectorId) > 0 ? { evse: { id: p.connectorId, ...opt('connectorId', p.plug) } } : {}),
        },
        back: statusOnly,
      };
    case 'ClearCache':
      return { action: 'ClearCache', payload: {}, back: statusOnly };
    case 'TriggerMessage': {
      const requestedMessage = TRIGGERED[String(p.requestedMessage)];
      if (!requestedMessage) return refused(`${String(p.requestedMessage)} has no OCPP 2.0.1 equivalent`);
      const evse =
        p.connectorId === undefined
          ? {}
          : { evse: requestedMessage === 'StatusNotification' ? { id: p.connectorId, connectorId: 1 } : { id: p.connectorId } };
      return { action: 'TriggerMessage', payload: { requestedMessage, ...evse }, back: statusOnly };
    }
    case 'DataTransfer':
      return { action: 'DataTransfer', payload: p, back: same };
    // 2.0.1's own (B07/B08): the console's device model, every component and variable the charger has.
    case 'GetBaseReport': {
      const id = requestId();
      return {
        action: 'GetBaseReport',
        payload: { requestId: id, reportBase: 'FullInventory' },
        back: (c) => ({ status: c.status }),
        report: { id, assemble: reportAsDeviceModel },
      };
    }
    // 2.0.1's own (B09): sent as the console's route built it.
    case 'SetNetworkProfile':
      return { action: 'SetNetworkProfile', payload: p, back: statusOnly };
    // 2.0.1's own (E14): the charger's transactionId as the console's route found it on the session's row.
    case 'GetTransactionStatus':
      return { action: 'GetTransactionStatus', payload: opt('transactionId', p.transactionId), back: same };
    case 'GetLocalListVersion':
      return { action: 'GetLocalListVersion', payload: {}, back: (c) => ({ listVersion: c.versionNumber }) };
    case 'SendLocalList': {
      const list = (p.localAuthorizationList ?? []) as {
        idTag: string;
        idTagInfo?: { status: string; expiryDate?: string; parentIdTag?: string };
      }[];
      return {
        action: 'SendLocalList',
        payload: {
          versionNumber: p.listVersion,
          updateType: p.updateType,
          ...(list.length
            ? {
                localAuthorizationList: list.map((e) => ({
                  idToken: idToken(e.idTag),
                  ...(e.idTagInfo
                    ? {
                        // The group as Authorize answers it: a master pass's group is how the charger knows it offline (C16).
                        idTokenInfo: {
                          status: e.idTagInfo.status,
                          ...opt('cacheExpiryDateTime', e.idTagInfo.expiryDate),
                          ...opt('groupIdToken', groupIdToken(e.idTagInfo.parentIdTag)),
                        },
                      }
                    : {}),
                })),
              }
            : {}),
        },
        back: statusOnly,
      };
    }
    case 'ReserveNow':
      return {
        action: 'ReserveNow',
        payload: {
          id: p.reservationId,
          expiryDateTime: p.expiryDate,
          idToken: idToken(p.idTag),
          ...(Number(p.connectorId) > 0 ? { evseId: p.connectorId } : {}),
          ...opt('groupIdToken', groupIdToken(p.parentIdTag)),
        },
        back: statusOnly,
      };
    case 'CancelReservation':
      return { action: 'CancelReservation', payload: { reservationId: p.reservationId }, back: statusOnly };
    case 'SetChargingProfile':
      return {
        action: 'SetChargingProfile',
        payload: { evseId: p.connectorId, chargingProfile: chargingProfile201(p.csChargingProfiles as Payload) },
        back: statusOnly,
      };
    case 'ClearChargingProfile': {
      const criteria = {
        ...(p.connectorId !== undefined ? { evseId: p.connectorId } : {}),
        ...opt('chargingProfilePurpose', p.chargingProfilePurpose),
        ...opt('stackLevel', p.stackLevel),
      };
      return {
        action: 'ClearChargingProfile',
        payload: { ...opt('chargingProfileId', p.id), ...(Object.keys(criteria).length ? { chargingProfileCriteria: criteria } : {}) },
        back: statusOnly,
      };
    }
    case 'GetCompositeSchedule':
      return {
        action: 'GetCompositeSchedule',
        payload: { duration: p.duration, evseId: p.connectorId, ...opt('chargingRateUnit', p.chargingRateUnit) },
        back: (c) => {
          const s = c.schedule as Payload | undefined;
          if (!s) return { status: c.status };
          return {
            status: c.status,
            connectorId: s.evseId,
            scheduleStart: s.scheduleStart,
            chargingSchedule: {
              duration: s.duration,
              startSchedule: s.scheduleStart,
              chargingRateUnit: s.chargingRateUnit,
              chargingSchedulePeriod: s.chargingSchedulePeriod,
            },
          };
        },
      };
    case 'UpdateFirmware':
      return {
        action: 'UpdateFirmware',
        payload: {
          requestId: requestId(),
          firmware: { location: p.location, retrieveDateTime: p.retrieveDate },
          ...opt('retries', p.retries),
          ...opt('retryInterval', p.retryInterval),
        },
        // 1.6's answer is empty: refusing is only a 2.0.1 answer, told as an error.
        back: (c) =>
          c.status === 'Accepted' || c.status === 'AcceptedCanceled'
            ? {}
            : { kind: 'error', code: 'GenericError', description: `UpdateFirmware ${String(c.status)}` },
      };
    case 'GetDiagnostics':
      return {
        action: 'GetLog',
        payload: {
          logType: 'DiagnosticsLog',
          requestId: requestId(),
          log: { remoteLocation: p.location, ...opt('oldestTimestamp', p.startTime), ...opt('latestTimestamp', p.stopTime) },
          ...opt('retries', p.retries),
          ...opt('retryInterval', p.retryInterval),
        },
        back: (c) =>
          c.status === 'Rejected'
            ? { kind: 'error', code: 'GenericError', description: 'GetLog Rejected' }
            : { ...opt('fileName', c.filename) },
      };
    case 'GetConfiguration': {
      const keys = Array.isArray(p.key) ? (p.key as string[]) : [];
      if (keys.length === 0) {
        // Everything: the charger's whole configuration, which it reports in NotifyReports (assembled by `v201Command`).
        const id = requestId();
        return {
          action: 'GetBaseReport',
          payload: { requestId: id, reportBase: 'ConfigurationInventory' },
          back: (c) => ({ status: c.status }),
          report: { id, assemble: reportAsConfiguration },
        };
      }
      const wanted = keys;
      const asked = wanted.map((key) => ({ key, v: variableOf(key) }));
      const unknownKey = asked.filter((a) => !a.v).map((a) => a.key);
      const known = asked.filter((a) => a.v);
      if (known.length === 0) return { reply: { kind: 'result', payload: { configurationKey: [], unknownKey } } };
      return {
        action: 'GetVariables',
        payload: { getVariableData: known.map((a) => a.v!) },
        back: (c) => {
          const results = (c.getVariableResult ?? []) as {
            attributeStatus: string;
            attributeValue?: string;
            component: { name: string };
            variable: { name: string };
          }[];
          const configurationKey: Payload[] = [];
          const missing = [...unknownKey];
          for (const r of results) {
            const key = keyOf(r.component.name, r.variable.name);
            if (r.attributeStatus === 'Accepted') configurationKey.push({ key, readonly: false, ...opt('value', r.attributeValue) });
            else if (keys.length) missing.push(key);
          }
          return { configurationKey, ...(missing.length ? { unknownKey: missing } : {}) };
        },
      };
    }
    case 'ChangeConfiguration': {
      const v = variableOf(String(p.key));
      if (!v) return { reply: { kind: 'result', payload: { status: 'NotSupported' } } };
      return {
        action: 'SetVariables',
        payload: { setVariableData: [{ ...v, attributeValue: String(p.value) }] },
        back: (c) => {
          const r = ((c.setVariableResult ?? []) as { attributeStatus: string }[])[0];
          return { status: SET_STATUS[r?.attributeStatus ?? ''] ?? 'Rejected' };
        },
      };
    }
    case 'ChangeConfigurations': {
      // Several keys in one SetVariables (B05, OCTT TC_B_10); each key's answer as 1.6's ChangeConfiguration's.
      const changes = p.changes as { key: string; value: string }[];
      const asked = changes.map((c) => ({ ...c, v: variableOf(c.key) }));
      const answered = (statusOf: (c: (typeof asked)[number]) => string): Payload => ({
        results: asked.map((c) => ({ key: c.key, reply: { kind: 'result', payload: { status: statusOf(c) } } })),
      });
      const sent = asked.filter((c) => c.v);
      if (sent.length === 0) return { reply: { kind: 'result', payload: answered(() => 'NotSupported') } };
      return {
        action: 'SetVariables',
        payload: { setVariableData: sent.map((c) => ({ ...c.v!, attributeValue: String(c.value) })) },
        back: (conf) => {
          const results = (conf.setVariableResult ?? []) as {
            attributeStatus: string;
            component: { name: string };
            variable: { name: string };
          }[];
          const unused = new Set(results);
          return answered((c) => {
            if (!c.v) return 'NotSupported';
            // The results name their variables; taken in order, each once.
            const r = [...unused].find((x) => x.component.name === c.v!.component.name && x.variable.name === c.v!.variable.name);
            if (!r) return 'Rejected';
            unused.delete(r);
            return SET_STATUS[r.attributeStatus] ?? 'Rejected';
          });
        },
      };
    }
    default:
      return refused(`${action} is not available for OCPP 2.0.1 chargers`);
  }
}

/** Sends a console command (a 1.6 request) to a 2.0.1 charger and answers as a 1.6 charger would have. */
export async function v201Command(session: ChargerSession, action: string, payload: Payload, timeoutMs?: number): Promise<ChargerReply> {
  const t = translateCommand(session, action, payload);
  if ('reply' in t) return t.reply;
  if (t.report !== undefined) return baseReport(session, t.action, t.payload, t.report, timeoutMs);
  const reply = await session.call(t.action, t.payload, timeoutMs);
  if (reply.kind !== 'result') return reply;
  const back = t.back(reply.payload);
  return 'kind' in back && typeof back.kind === 'string' ? (back as ChargerReply) : { kind: 'result', payload: back };
}

/** GetBaseReport, then the NotifyReports it brings (within the same time limit), assembled as one answer. */
async function baseReport(
  session: ChargerSession,
  action: string,
  payload: Payload,
  { id, assemble }: NonNullable<Extract<Translated, { action: string }>['report']>,
  timeoutMs?: number,
): Promise<ChargerReply> {
  let pending = reports.get(session);
  if (!pending) reports.set(session, (pending = new Map()));
  const items: ReportData[] = [];
  let timer: NodeJS.Timeout | undefined;
  const complete = new Promise<boolean>((resolve) => {
    pending.set(id, { items, done: () => resolve(true) });
    timer = setTimeout(() => resolve(false), timeoutMs ?? 30_000);
  });
  try {
    const reply = await session.call(action, payload, timeoutMs);
    if (reply.kind !== 'result') return reply;
    if (reply.payload.status === 'EmptyResultSet') return { kind: 'result', payload: assemble([]) };
    if (reply.payload.status !== 'Accepted')
      return { kind: 'error', code: 'GenericError', description: `GetBaseReport ${String(reply.payload.status)}` };
    if (!(await complete)) return session.closed ? { kind: 'offline' } : { kind: 'timeout' };
    return { kind: 'result', payload: assemble(items) };
  } finally {
    clearTimeout(timer);
    pending.delete(id);
  }
}
