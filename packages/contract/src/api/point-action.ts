import { z } from 'zod';
import { endpoint, optText } from '../endpoint.js';
import { ocppValueProblem } from '../ocpp-keys.js';
import { idToken } from './id-token.js';

/**
 * Operator actions on a charge point (DESIGN.md §6): each one an OCPP 1.6 command sent over the
 * bus to whichever node holds the charger's socket, answered with the charger's real reply in
 * the spec's vocabulary. Bodies are `{ serialNumber, …OCPP request fields }`.
 */
export const actionStatuses = [
  'accepted',
  'rejected',
  'scheduled',
  'failed',
  'notImplemented',
  'versionMismatch',
  'notSupported',
  'offline',
  'faulted',
  'occupied',
  'unavailable',
  'rebootRequired',
] as const;
export type ActionStatus = (typeof actionStatuses)[number];

/**
 * A charger's status word (any OCPP 1.6 `*.conf` status) in the vocabulary. Unlock's
 * `Unlocked` is a success; DataTransfer's unknown vendor or message id is a refusal.
 */
const ocppToAction: Record<string, ActionStatus> = {
  Accepted: 'accepted',
  Rejected: 'rejected',
  Scheduled: 'scheduled',
  Failed: 'failed',
  NotImplemented: 'notImplemented',
  VersionMismatch: 'versionMismatch',
  NotSupported: 'notSupported',
  Faulted: 'faulted',
  Occupied: 'occupied',
  Unavailable: 'unavailable',
  RebootRequired: 'rebootRequired',
  Unlocked: 'accepted',
  UnlockFailed: 'failed',
  UnknownMessageId: 'rejected',
  UnknownVendorId: 'rejected',
};

export function actionStatusOf(ocppStatus: unknown): ActionStatus {
  return (typeof ocppStatus === 'string' && ocppToAction[ocppStatus]) || 'failed';
}

/** What every action answers: the status, the charger's own word (or its CALLERROR code) and why, when the status alone does not say. */
const actionReply = {
  status: z.enum(actionStatuses),
  /** The charger's status word (`Unlocked`, `UnknownVendorId`) or CALLERROR code (`NotImplemented`); null when it never answered. */
  chargerStatus: z.string().nullable(),
  /** An explanation in the caller's language: timeout, offline, CALLERROR description, unknown vendor. */
  message: z.string().nullable(),
};
export const actionResult = z.object(actionReply);
export type ActionResult = z.infer<typeof actionResult>;

/** A charge point's OCPP identity; `A`'s point CRUD enforces the stricter format at creation. */
const serialNumber = z.string().trim().min(1).max(48);
const connectorId = z.number().int().positive();

export const resetTypes = ['Hard', 'Soft'] as const;
export const availabilityTypes = ['Operative', 'Inoperative'] as const;
export const triggerMessages = [
  'BootNotification',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'Heartbeat',
  'MeterValues',
  'StatusNotification',
  /** OCPP 2.0.1 only: each ongoing transaction's TransactionEvent; a 1.6 point answers NotSupported. */
  'TransactionEvent',
] as const;
export const chargingRateUnits = ['A', 'W'] as const;

export const chargingSchedule = z.object({
  duration: z.number().nullable(),
  startSchedule: z.string().nullable(),
  chargingRateUnit: z.string(),
  chargingSchedulePeriod: z.array(z.object({ startPeriod: z.number(), limit: z.number(), numberPhases: z.number().nullable() })),
  minChargingRate: z.number().nullable(),
});

export const configurationKey = z.object({ key: z.string(), readonly: z.boolean(), value: z.string().nullable() });
export type ConfigurationKey = z.infer<typeof configurationKey>;

/**
 * One attribute (Actual, Target, MinSet, MaxSet) of a variable of an OCPP 2.0.1 charger's device model, as its
 * full inventory reports it (GetBaseReport FullInventory): the component, its EVSE and connector, the variable.
 */
export const deviceModelItem = z.object({
  component: z.string(),
  componentInstance: z.string().nullable(),
  evseId: z.number().nullable(),
  connectorId: z.number().nullable(),
  variable: z.string(),
  variableInstance: z.string().nullable(),
  type: z.string(),
  /** null when the charger did not report one, and for a WriteOnly attribute (a password), never shown. */
  value: z.string().nullable(),
  mutability: z.string(),
  unit: z.string().nullable(),
  dataType: z.string().nullable(),
});
export type DeviceModelItem = z.infer<typeof deviceModelItem>;

/** A choice for remote start: a card's physical id, or a charge user's first valid card (DESIGN.md §9: the idTag is the card's UID). */
export const idTagOption = z.object({
  idTag: z.string(),
  kind: z.enum(['card', 'chargeUser']),
  cardNumber: z.string(),
  account: z.string().nullable(),
});
export type IdTagOption = z.infer<typeof idTagOption>;

/**
 * A stored charging profile a remote start may send with the transaction (OCPP 1.6 §5.11:
 * RemoteStartTransaction.chargingProfile, a TxProfile without transactionId): a TxProfile of the
 * point's provider.
 */
export const remoteStartProfileOption = z.object({
  id: z.number(),
  stationName: z.string(),
  stackLevel: z.number(),
  chargingProfileKind: z.string(),
  chargingRateUnit: z.enum(chargingRateUnits),
  /** The first period's limit, in the profile's unit. */
  limit: z.number(),
});
export type RemoteStartProfileOption = z.infer<typeof remoteStartProfileOption>;

export const localListUpdateTypes = ['Differential', 'Full'] as const;
export type LocalListUpdateType = (typeof localListUpdateTypes)[number];

/** What the server knows of a point's local authorization list (OCPP 1.6 §5.15, §6.x SendLocalList). */
export const localListState = z.object({
  /** The version the point last Accepted from the server; null: it never did. */
  serverVersion: z.number().nullable(),
  /** The charger's last answer to GetLocalListVersion; null: never asked (-1 is shown as not supported). */
  chargerVersion: z.number().nullable(),
  /** False after a VersionMismatch or Failed answer, or when the charger reported another version. */
  inStep: z.boolean(),
  /** The charger's answer to the last SendLocalList (Accepted, Failed, NotSupported, VersionMismatch). */
  lastStatus: z.string().nullable(),
  /** How many entries the server believes the point's list holds. */
  entries: z.number(),
  /** The update the server would send by default: Differential when in step, else Full. */
  suggested: z.enum(localListUpdateTypes),
});
export type LocalListState = z.infer<typeof localListState>;

const path = (action: string) => `/web/point/${action}`;
const monitor = (action: string) => ({ permi: `monitor:point:${action}` });

function action<B extends z.ZodObject, D extends z.ZodRawShape>(name: string, access: { permi: string }, body: B, extra: D) {
  return endpoint({
    method: 'POST',
    path: path(name),
    access,
    resource: 'pointAction',
    operation: name,
    body,
    data: z.object({ ...actionReply, ...extra }),
  });
}

const withSerial = <S extends z.ZodRawShape>(shape: S) => z.object({ serialNumber, ...shape });

/** A configuration change: the key and its value, checked against OCPP 1.6's catalogue (ocpp-keys.ts) on the value's field. */
const configChange = { key: z.string().trim().min(1).max(50), value: z.string().max(500) };
function valueFitsKey(v: { key: string; value: string }, ctx: z.RefinementCtx) {
  const problem = ocppValueProblem(v.key, v.value);
  if (problem)
    ctx.addIssue({ code: 'custom', path: ['value'], message: problem.message, ...(problem.params ? { params: problem.params } : {}) });
}

/** OCPP 2.0.1's OCPPInterfaceEnumType: the charger's network interface a connection profile uses. */
export const ocppInterfaces = ['Wired0', 'Wired1', 'Wired2', 'Wired3', 'Wireless0', 'Wireless1', 'Wireless2', 'Wireless3'] as const;

/** Security profiles a network profile may name: this server speaks 1 (ws:// with Basic) and 2 (wss:// with Basic), not 3 (client certificates). */
export const networkSecurityProfiles = [1, 2] as const;

/** At most this many points in one configuration change (each is a round trip to a charger, ten at a time). */
export const MAX_CONFIG_POINTS = 500;

/** Keys changed at once by the change on many points. */
export const MAX_CONFIG_CHANGES = 10;

/** One key's answer of a point in the change on many points. */
export const keyAnswer = z.object({ key: z.string(), ...actionReply });
export type KeyAnswer = z.infer<typeof keyAnswer>;

/**
 * A point's answer to the change on many points: each key's, and the point's as a whole (accepted when every
 * key was; rebootRequired when every key was taken, some after a reboot; else the first key's that was not).
 */
export const pointConfigAnswer = z.object({
  serialNumber: z.string(),
  pointName: z.string(),
  stationName: z.string(),
  ...actionReply,
  keys: z.array(keyAnswer),
});
export type PointConfigAnswer = z.infer<typeof pointConfigAnswer>;

export const pointActionApi = {
  remoteStart: action(
    'remoteStart',
    monitor('remoteStart'),
    withSerial({
      connectorId: connectorId.optional(),
      idTag: idToken,
      /** A stored TxProfile of the point's provider, sent as RemoteStartTransaction.chargingProfile (OCTT TC_059). */
      chargingProfileId: z.number().int().positive().optional(),
    }),
    { idTag: z.string(), connectorId: z.number().nullable(), chargingProfileId: z.number().nullable() },
  ),
  remoteStop: action('remoteStop', monitor('remoteStop'), withSerial({ transactionId: z.number().int().positive() }), {
    transactionId: z.number(),
  }),
  reset: action(
    'reset',
    monitor('reset'),
    // One EVSE (the connector) of an OCPP 2.0.1 station, or the whole point; 1.6 resets only whole points.
    withSerial({ type: z.enum(resetTypes), connectorId: connectorId.optional() }),
    {},
  ),
  unlock: action('unlock', monitor('unlock'), withSerial({ connectorId }), {}),
  changeAvailability: action(
    'changeAvailability',
    monitor('changeAvailability'),
    withSerial({
      connectorId: z.number().int().min(0),
      type: z.enum(availabilityTypes),
      /** OCPP 2.0.1: one plug (the 2.0.1 connector) of the EVSE `connectorId` names (G03, OCTT TC_G_07); a 1.6 point is refused before anything is sent. */
      plug: z.number().int().min(1).max(8).optional(),
    }).superRefine((v, ctx) => {
      if (v.plug !== undefined && v.connectorId < 1) ctx.addIssue({ code: 'custom', path: ['plug'], message: 'validation.plugNeedsEvse' });
    }),
    {},
  ),
  clearCache: action('clearCache', monitor('clearCache'), withSerial({}), {}),
  sendLocalList: action(
    'sendLocalList',
    monitor('sendLocalList'),
    // Absent: Differential when the point is in step with the server's record, else Full.
    withSerial({ updateType: z.enum(localListUpdateTypes).optional() }),
    {
      /** The version sent, the kind of update and how many entries it held. */
      listVersion: z.number(),
      updateType: z.enum(localListUpdateTypes),
      entries: z.number(),
      /** The server's record after the answer (its version moves to `listVersion` on Accepted). */
      state: localListState,
    },
  ),
  getLocalListVersion: action('getLocalListVersion', monitor('getLocalListVersion'), withSerial({}), {
    /** 0: no list; null when the charger did not answer or does not support local lists (-1). */
    listVersion: z.number().nullable(),
    /** The server's record, compared with the answer: `inStep` says whether the two agree. */
    state: localListState,
  }),
  localListState: endpoint({
    method: 'GET',
    path: path('localListState'),
    access: monitor('sendLocalList'),
    resource: 'pointAction',
    query: z.object({ serialNumber }),
    data: localListState,
    summary: "The server's record of a point's local authorization list: its version, whether the point is in step, the last answers",
  }),
  triggerMessage: action(
    'triggerMessage',
    monitor('triggerMessage'),
    withSerial({ requestedMessage: z.enum(triggerMessages), connectorId: connectorId.optional() }),
    {},
  ),
  /**
   * OCPP 2.0.1 GetTransactionStatus (E14): whether the charger still holds messages to send, of one session (which
   * it also says is ongoing or not) or of any; a 1.6 point has no such message and is refused before anything is sent.
   */
  transactionStatus: action(
    'transactionStatus',
    monitor('transactionStatus'),
    withSerial({ transactionId: z.number().int().positive().optional() }),
    {
      transactionId: z.number().nullable(),
      /** Whether the charger says the session is ongoing; null when no session was named. */
      ongoing: z.boolean().nullable(),
      /** Whether the charger holds messages (of the session, when one was named) it has yet to deliver; null when it did not answer. */
      messagesInQueue: z.boolean().nullable(),
    },
  ),
  dataTransfer: action(
    'dataTransfer',
    monitor('dataTransfer'),
    // OCPP makes messageId and data optional; the spec requires all three in the console (§5).
    withSerial({
      vendorId: z.string().trim().min(1).max(255),
      messageId: z.string().trim().min(1).max(50),
      data: z.string().min(1).max(10_000),
    }),
    { data: z.string().nullable() },
  ),
  getCompositeSchedule: action(
    'getCompositeSchedule',
    monitor('getCompositeSchedule'),
    withSerial({
      connectorId: z.number().int().min(0),
      duration: z
        .number()
        .int()
        .positive()
        .max(7 * 86_400),
      chargingRateUnit: z.enum(chargingRateUnits).optional(),
    }),
    { connectorId: z.number().nullable(), scheduleStart: z.string().nullable(), chargingSchedule: chargingSchedule.nullable() },
  ),
  getConfiguration: action(
    'getConfiguration',
    { permi: 'config:pointConfig:query' },
    withSerial({ key: z.array(z.string().trim().min(1).max(50)).max(100).optional() }),
    { configurationKey: z.array(configurationKey), unknownKey: z.array(z.string()) },
  ),
  /**
   * A new OCPP key (security profiles 1/2) sent to the charger: 1.6 ChangeConfiguration AuthorizationKey, 2.0.1
   * SetVariables SecurityCtrlr.BasicAuthPassword (OCTT TC_A_09, A_10). Its previous key keeps working until it
   * connects with the new one; refused or never delivered, nothing changes. The key itself is never shown.
   */
  sendKey: action('sendKey', { permi: 'config:point:key' }, withSerial({}), {
    /** When the key went out, while the charger has not yet connected with it; null when the previous key stays the only one. */
    keySentTime: z.string().nullable(),
  }),
  /**
   * OCPP 2.0.1 SetNetworkProfile (B09, OCTT TC_B_42/B_44): a connection profile stored in one of the charger's
   * slots; with `activate`, also put first in its NetworkConfigurationPriority and a soft reset, so that it
   * reconnects with it (a security-profile upgrade, TC_A_19). A 1.6 point is refused before anything is sent.
   */
  setNetworkProfile: action(
    'setNetworkProfile',
    { permi: 'config:pointConfig:edit' },
    withSerial({
      configurationSlot: z.number().int().min(1).max(8),
      ocppCsmsUrl: z.string().trim().min(1).max(512),
      securityProfile: z.union([z.literal(1), z.literal(2)]),
      ocppInterface: z.enum(ocppInterfaces),
      messageTimeout: z.number().int().min(1).max(3600),
      activate: z.boolean().default(false),
    }).superRefine((v, ctx) => {
      // The charger appends its identity; the scheme says whether the link is TLS, which the profile must match.
      let scheme: string | undefined;
      try {
        scheme = new URL(v.ocppCsmsUrl).protocol;
      } catch {
        scheme = undefined;
      }
      const wanted = v.securityProfile === 2 ? 'wss:' : 'ws:';
      if (scheme !== wanted)
        ctx.addIssue({
          code: 'custom',
          path: ['ocppCsmsUrl'],
          message: 'validation.networkProfileUrl',
          params: { scheme: wanted.slice(0, -1) },
        });
    }),
    {
      configurationSlot: z.number(),
      /** Whether the charger put it first in its order and agreed to restart (asked with `activate` only). */
      activated: z.boolean(),
    },
  ),
  changeConfiguration: action(
    'changeConfiguration',
    { permi: 'config:pointConfig:edit' },
    withSerial(configChange).superRefine(valueFitsKey),
    { key: z.string() },
  ),
  /**
   * An OCPP 2.0.1 charger's device model: GetBaseReport FullInventory and the NotifyReports it brings, one row per
   * attribute; a 1.6 point has no device model and is refused before anything is sent.
   */
  deviceModel: action('deviceModel', { permi: 'config:pointConfig:query' }, withSerial({}), { items: z.array(deviceModelItem) }),
  changeConfigurationMany: endpoint({
    method: 'POST',
    path: path('changeConfigurationMany'),
    access: { permi: 'config:pointConfig:edit' },
    resource: 'pointAction',
    operation: 'changeConfigurationMany',
    body: z
      .object({
        serialNumbers: z.array(serialNumber).min(1).max(MAX_CONFIG_POINTS),
        changes: z.array(z.object(configChange).superRefine(valueFitsKey)).min(1).max(MAX_CONFIG_CHANGES),
      })
      .superRefine((v, ctx) => {
        if (new Set(v.serialNumbers).size !== v.serialNumbers.length)
          ctx.addIssue({ code: 'custom', path: ['serialNumbers'], message: 'validation.duplicate' });
        const seen = new Set<string>();
        v.changes.forEach((c, i) => {
          if (seen.has(c.key.toLowerCase())) ctx.addIssue({ code: 'custom', path: ['changes', i, 'key'], message: 'validation.duplicate' });
          seen.add(c.key.toLowerCase());
        });
      }),
    data: z.object({ changes: z.array(z.object(configChange)), results: z.array(pointConfigAnswer) }),
    summary:
      "Up to ten keys changed on many points, ten chargers at a time (a 2.0.1 charger gets one SetVariables, a 1.6 one a ChangeConfiguration per key); each point's and each key's answer (accepted, rejected, rebootRequired, notSupported, offline…)",
  }),
  idTagOptions: endpoint({
    method: 'GET',
    path: path('idTagOptions'),
    access: monitor('remoteStart'),
    resource: 'pointAction',
    query: z.object({ serialNumber, keyword: optText(64) }),
    data: z.array(idTagOption),
    summary: "Cards and charge users of the point's provider that a remote start may use, at most 50",
  }),
  profileOptions: endpoint({
    method: 'GET',
    path: path('profileOptions'),
    access: monitor('remoteStart'),
    resource: 'pointAction',
    query: z.object({ serialNumber }),
    data: z.array(remoteStartProfileOption),
    summary:
      "TxProfiles of the point's provider that a remote start may send with the transaction (RemoteStartTransaction.chargingProfile)",
  }),
};

/** Actions of the point menu, in display order (the charging screen offers remote start and stop too). */
export type PointActionName = Exclude<
  keyof typeof pointActionApi,
  'idTagOptions' | 'profileOptions' | 'localListState' | 'changeConfigurationMany' | 'deviceModel' | 'sendKey' | 'setNetworkProfile'
>;
