import type { Reply } from './connection.js';
import { OcppError, type Payload } from './ocpp.js';
import type { LocalListEntry } from './authorization.js';
import { dateTime, field, isShape, oneOf } from './payload.js';
import { CHARGING_PROFILE_PURPOSES, CHARGING_RATE_UNITS, parseChargingProfile, type ChargingProfile } from './smart-charging.js';
import type { Connector, PointInternals } from './types.js';

/**
 * Answers to the CSMS's calls (OCPP 1.6 operations initiated by the central system). Each
 * handler checks the request, answers as a charger would, and acts once the answer is on the
 * wire (`afterwards`), so the CSMS sees e.g. RemoteStartTransaction.conf before the
 * StartTransaction it leads to. An action without a handler gets CALLERROR NotImplemented.
 */

const reply = (payload: Payload, afterwards?: () => void): Reply => ({ payload, ...(afterwards ? { afterwards } : {}) });
const status = (s: string, afterwards?: () => void) => reply({ status: s }, afterwards);

/** A connector that can take a new session: operative, not faulted, no transaction. */
const free = (p: PointInternals, c: Connector) => c.operative && !c.fault && !c.tx && p.point.operative && !p.point.fault;

const warnOnFailure = (p: PointInternals, what: string) => (err: unknown) => p.emit('warning', { message: `${what} failed`, error: err });

type Handler = (p: PointInternals, req: Payload) => Reply;

/** When UpdateFirmware or GetDiagnostics leaves them out, this charger does not retry, and would wait a minute if it did. */
const DEFAULT_RETRIES = 0;
const DEFAULT_RETRY_INTERVAL_S = 60;

/** `retries` (tries after the first failed one) and `retryInterval` (s) of a transfer. */
function retrying(req: Payload) {
  const retries = field<number>(req, 'retries', 'integer') ?? DEFAULT_RETRIES;
  const retryIntervalS = field<number>(req, 'retryInterval', 'integer') ?? DEFAULT_RETRY_INTERVAL_S;
  if (retries < 0 || retryIntervalS < 0) throw new OcppError('PropertyConstraintViolation', 'retries and retryInterval cannot be negative');
  return { retries, retryIntervalS };
}

const handlers: Record<string, Handler> = {
  RemoteStartTransaction(p, req) {
    const idTag = field<string>(req, 'idTag', 'string', true);
    const connectorId = field<number>(req, 'connectorId', 'integer');
    const raw = field<Payload>(req, 'chargingProfile', 'object');
    const chargingProfile: ChargingProfile | undefined = raw && parseChargingProfile(raw);
    // A reserved connector takes only its idTag (or that tag's group, when the parent is known here).
    const parent = p.auth.parentOf(idTag);
    const usable = (x: Connector) => free(p, x) && p.reservations.claim(x, idTag, parent).allowed;
    let c: Connector | undefined;
    if (connectorId !== undefined) c = p.connector(connectorId);
    else {
      const candidates = p.connectors.filter(usable);
      c = candidates.find((x) => p.reservations.of(x) !== undefined) ?? candidates.find((x) => x.plugged) ?? candidates[0];
    }
    if (!c || !usable(c)) return status('Rejected');
    // The profile must be a TxProfile for the transaction to come (OCPP 1.6 §5.11).
    if (chargingProfile && !p.smartCharging.checkRemoteStart(c.id, chargingProfile)) return status('Rejected');
    const target = c;
    return status(
      'Accepted',
      () => void p.startTransaction(target, idTag, { remote: true, chargingProfile }).catch(warnOnFailure(p, 'remote start')),
    );
  },

  RemoteStopTransaction(p, req) {
    const transactionId = field<number>(req, 'transactionId', 'integer', true);
    const c = p.connectors.find((x) => x.tx?.transactionId === transactionId);
    if (!c) return status('Rejected');
    return status('Accepted', () => {
      if (c.tx?.transactionId === transactionId) void p.stopTransaction(c, 'Remote').catch(warnOnFailure(p, 'remote stop'));
    });
  },

  Reset(p, req) {
    const type = oneOf(req, 'type', ['Soft', 'Hard'] as const);
    // One EVSE (2.0.1's Reset with evseId, handed over by the 2.0.1 link): an immediate one ends its transaction;
    // one on idle waits for it (Scheduled), which here leaves nothing more to do.
    const connectorId = field<number>(req, 'connectorId', 'integer');
    if (connectorId !== undefined) {
      const c = p.connector(connectorId);
      if (!c) return status('Rejected');
      if (!c.tx) return status('Accepted');
      if (type === 'Soft') return status('Scheduled');
      return status('Accepted', () => void p.stopTransaction(c, 'HardReset').catch(warnOnFailure(p, 'EVSE reset')));
    }
    return status('Accepted', () => p.reboot(type));
  },

  UnlockConnector(p, req) {
    const c = p.connector(field<number>(req, 'connectorId', 'integer', true));
    if (!c || !c.lockable) return status('NotSupported');
    return status('Unlocked', () => {
      if (c.tx) void p.stopTransaction(c, 'UnlockCommand').catch(warnOnFailure(p, 'unlock'));
    });
  },

  ChangeAvailability(p, req) {
    const connectorId = field<number>(req, 'connectorId', 'integer', true);
    const operative = oneOf(req, 'type', ['Inoperative', 'Operative'] as const) === 'Operative';
    const targets = connectorId === 0 ? p.connectors : [p.connector(connectorId)].filter((c) => c !== undefined);
    if (targets.length === 0) return status('Rejected');
    let scheduled = false;
    for (const c of targets) {
      if (c.tx && !operative && c.operative) {
        c.scheduledOperative = false;
        scheduled = true;
      } else {
        c.operative = operative;
        c.scheduledOperative = undefined;
      }
    }
    if (connectorId === 0) p.point.operative = operative;
    return status(scheduled ? 'Scheduled' : 'Accepted', () => {
      if (connectorId === 0) p.refresh(0);
      for (const c of targets) p.refresh(c.id);
    });
  },

  ClearCache(p) {
    if (!p.config.bool('AuthorizationCacheEnabled')) return status('Rejected');
    p.auth.clearCache();
    return status('Accepted');
  },

  SendLocalList(p, req) {
    const listVersion = field<number>(req, 'listVersion', 'integer', true);
    const updateType = oneOf(req, 'updateType', ['Differential', 'Full'] as const);
    const entries = field<LocalListEntry[]>(req, 'localAuthorizationList', 'array') ?? [];
    for (const e of entries) {
      if (!isShape(e, 'object') || typeof e.idTag !== 'string')
        throw new OcppError('FormationViolation', 'localAuthorizationList entries need an idTag');
    }
    if (!p.config.bool('LocalAuthListEnabled')) return status('NotSupported');
    return status(p.auth.update({ listVersion, updateType, entries }, p.config.int('SendLocalListMaxLength')));
  },

  GetLocalListVersion(p) {
    return reply({ listVersion: p.config.bool('LocalAuthListEnabled') ? p.auth.listVersion() : -1 });
  },

  TriggerMessage(p, req) {
    const requested = field<string>(req, 'requestedMessage', 'string', true);
    const connectorId = field<number>(req, 'connectorId', 'integer');
    if (connectorId !== undefined && connectorId !== 0 && !p.connector(connectorId)) return status('Rejected');
    const connectors = connectorId ? [p.connector(connectorId)!] : p.connectors;
    const send: Record<string, () => void> = {
      BootNotification: () => p.boot(),
      Heartbeat: () => p.heartbeat(),
      StatusNotification: () => {
        if (connectorId === undefined) p.sendAllStatuses();
        else p.sendStatus(connectorId);
      },
      MeterValues: () => connectors.forEach((c) => p.meterValues(c, 'Trigger')),
      DiagnosticsStatusNotification: () => p.notify('DiagnosticsStatusNotification', { status: p.diagnostics.status() }),
      FirmwareStatusNotification: () => p.notify('FirmwareStatusNotification', { status: p.firmware.status() }),
    };
    const action = send[requested];
    return action ? status('Accepted', action) : status('NotImplemented');
  },

  DataTransfer(p, req) {
    const vendorId = field<string>(req, 'vendorId', 'string', true);
    field(req, 'messageId', 'string');
    field(req, 'data', 'string');
    if (!p.dataTransferVendors.includes(vendorId)) return status('UnknownVendorId');
    // A known vendor's message is echoed back: enough to prove the round trip.
    return reply({ status: 'Accepted', ...(req.data !== undefined ? { data: req.data } : {}) });
  },

  SetChargingProfile(p, req) {
    const connectorId = field<number>(req, 'connectorId', 'integer', true);
    const profile = parseChargingProfile(field<Payload>(req, 'csChargingProfiles', 'object', true));
    const result = p.smartCharging.check(connectorId, profile);
    return status(result, result === 'Accepted' ? () => p.smartCharging.install(connectorId, profile) : undefined);
  },

  ClearChargingProfile(p, req) {
    const criteria = {
      id: field<number>(req, 'id', 'integer'),
      connectorId: field<number>(req, 'connectorId', 'integer'),
      chargingProfilePurpose: oneOf(req, 'chargingProfilePurpose', CHARGING_PROFILE_PURPOSES, false),
      stackLevel: field<number>(req, 'stackLevel', 'integer'),
    };
    if (p.smartCharging.matching(criteria) === 0) return status('Unknown');
    return status('Accepted', () => p.smartCharging.clear(criteria));
  },

  GetCompositeSchedule(p, req) {
    const connectorId = field<number>(req, 'connectorId', 'integer', true);
    const duration = field<number>(req, 'duration', 'integer', true);
    if (duration < 0) throw new OcppError('PropertyConstraintViolation', 'duration cannot be negative');
    const unit = oneOf(req, 'chargingRateUnit', CHARGING_RATE_UNITS, false) ?? 'W';
    const schedule = p.smartCharging.composite(connectorId, duration, unit);
    if (!schedule) return status('Rejected');
    return reply({ status: 'Accepted', connectorId, ...schedule });
  },

  ReserveNow(p, req) {
    const connectorId = field<number>(req, 'connectorId', 'integer', true);
    const expiresAt = dateTime(req, 'expiryDate', true);
    const idTag = field<string>(req, 'idTag', 'string', true);
    const parentIdTag = field<string>(req, 'parentIdTag', 'string');
    const reservationId = field<number>(req, 'reservationId', 'integer', true);
    const reservation = { reservationId, connectorId, idTag, expiresAt, ...(parentIdTag !== undefined ? { parentIdTag } : {}) };
    const result = p.reservations.check(reservation);
    return status(result, result === 'Accepted' ? () => p.reservations.add(reservation) : undefined);
  },

  CancelReservation(p, req) {
    const reservationId = field<number>(req, 'reservationId', 'integer', true);
    if (!p.reservations.has(reservationId)) return status('Rejected');
    return status('Accepted', () => p.reservations.cancel(reservationId));
  },

  UpdateFirmware(p, req) {
    const location = field<string>(req, 'location', 'string', true);
    const retrieveAt = dateTime(req, 'retrieveDate', true);
    const { retries, retryIntervalS } = retrying(req);
    return reply({}, () => p.firmware.update({ location, retrieveAt, retries, retryIntervalS }));
  },

  GetDiagnostics(p, req) {
    const location = field<string>(req, 'location', 'string', true);
    const startTime = dateTime(req, 'startTime');
    const stopTime = dateTime(req, 'stopTime');
    const upload = p.diagnostics.request({
      location,
      ...retrying(req),
      ...(startTime !== undefined ? { startTime } : {}),
      ...(stopTime !== undefined ? { stopTime } : {}),
    });
    return reply({ fileName: upload.fileName }, upload.start);
  },

  GetConfiguration(p, req) {
    const keys = field<unknown[]>(req, 'key', 'array');
    if (keys?.some((k) => typeof k !== 'string')) throw new OcppError('TypeConstraintViolation', 'key must list strings');
    const { configurationKey, unknownKey } = p.config.read(keys as string[] | undefined);
    return reply({ configurationKey, ...(unknownKey.length > 0 ? { unknownKey } : {}) });
  },

  /**
   * OCPP 2.0.1's GetTransactionStatus (E14), as the 2.0.1 link hands it over (the transaction by its number): whether
   * the transaction is ongoing and whether its messages (or any, without one) wait in the queue.
   */
  GetTransactionStatus(p, req) {
    const transactionId = field<number>(req, 'transactionId', 'integer');
    if (transactionId === undefined) return reply({ messagesInQueue: p.queuedMessages() > 0 });
    return reply({
      ongoingIndicator: p.connectors.some((c) => c.tx?.transactionId === transactionId),
      messagesInQueue: p.queuedMessages(transactionId) > 0,
    });
  },

  ChangeConfiguration(p, req) {
    const key = field<string>(req, 'key', 'string', true);
    const value = field<string>(req, 'value', 'string', true);
    const result = p.config.change(key, value);
    return status(result, result === 'Accepted' ? () => p.applyConfiguration(key) : undefined);
  },
};

/**
 * Several keys at once, as OCPP 2.0.1's SetVariables brings them (ocpp201.ts); not a 1.6 message, so never
 * answered to a 1.6 CSMS: each key as ChangeConfiguration would take it.
 */
function changeConfigurations(p: PointInternals, req: Payload): Reply {
  const changes = (Array.isArray(req.changes) ? req.changes : []) as { key: string; value: string }[];
  const applied: string[] = [];
  const results = changes.map(({ key, value }) => {
    const result = p.config.change(String(key), String(value));
    if (result === 'Accepted') applied.push(key);
    return { key, status: result };
  });
  return reply({ results }, () => applied.forEach((key) => p.applyConfiguration(key)));
}

/**
 * OCPP 2.0.1 SetNetworkProfile (B09): a connection profile kept in its slot, used when the slot comes first in
 * NetworkConfigurationPriority (at the next connection). One this point could not use is Rejected.
 */
function setNetworkProfile(p: PointInternals, req: Payload): Reply {
  const slot = Number(req.configurationSlot);
  const data = (req.connectionData ?? {}) as { ocppCsmsUrl?: unknown; securityProfile?: unknown };
  const url = typeof data.ocppCsmsUrl === 'string' ? data.ocppCsmsUrl : '';
  const securityProfile = Number(data.securityProfile);
  const usable =
    Number.isInteger(slot) && slot >= 1 && slot <= 8 && /^wss?:\/\/[^/]/i.test(url) && (securityProfile === 2) === /^wss:/i.test(url);
  if (!usable) return status('Rejected');
  p.networkProfiles.set(slot, { url, securityProfile });
  return status('Accepted');
}

/** The 2.0.1 translation's own calls of the point (ocpp201.ts), beside the 1.6 handlers. */
export const INTERNAL_COMMAND = 'ChangeConfigurations';

export function handleCommand(p: PointInternals, action: string, payload: Payload, internal = false): Reply {
  if (internal && action === INTERNAL_COMMAND) return changeConfigurations(p, payload);
  if (internal && action === 'SetNetworkProfile') return setNetworkProfile(p, payload);
  const handler = handlers[action];
  if (!handler) throw new OcppError('NotImplemented', `${action} is not implemented by this charge point`);
  return handler(p, payload);
}

/** The CSMS-initiated actions the simulator answers. */
export const SUPPORTED_COMMANDS = Object.keys(handlers);
