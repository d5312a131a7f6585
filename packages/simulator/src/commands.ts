import type { Reply } from './connection.js';
import { OcppError, type Payload } from './ocpp.js';
import type { LocalListEntry } from './authorization.js';
import type { Connector, PointInternals } from './types.js';

/**
 * Answers to the CSMS's calls (OCPP 1.6 operations initiated by the central system). Each
 * handler checks the request, answers as a charger would, and acts once the answer is on the
 * wire (`afterwards`), so the CSMS sees e.g. RemoteStartTransaction.conf before the
 * StartTransaction it leads to. An action without a handler gets CALLERROR NotImplemented.
 */

type Shape = 'string' | 'integer' | 'boolean' | 'array' | 'object';

const isShape = (v: unknown, shape: Shape) =>
  shape === 'integer'
    ? Number.isInteger(v)
    : shape === 'array'
      ? Array.isArray(v)
      : shape === 'object'
        ? typeof v === 'object' && v !== null && !Array.isArray(v)
        : typeof v === shape;

function field<T>(p: Payload, key: string, shape: Shape, required: true): T;
function field<T>(p: Payload, key: string, shape: Shape, required?: false): T | undefined;
function field<T>(p: Payload, key: string, shape: Shape, required = false): T | undefined {
  const v = p[key];
  if (v === undefined) {
    if (required) throw new OcppError('OccurenceConstraintViolation', `${key} is required`);
    return undefined;
  }
  if (!isShape(v, shape)) throw new OcppError('TypeConstraintViolation', `${key} must be ${shape}`);
  return v as T;
}

function oneOf<T extends string>(p: Payload, key: string, values: readonly T[]): T {
  const v = field<string>(p, key, 'string', true);
  if (!(values as readonly string[]).includes(v))
    throw new OcppError('PropertyConstraintViolation', `${key} must be one of ${values.join(', ')}`);
  return v as T;
}

const reply = (payload: Payload, afterwards?: () => void): Reply => ({ payload, ...(afterwards ? { afterwards } : {}) });
const status = (s: string, afterwards?: () => void) => reply({ status: s }, afterwards);

/** A connector that can take a new session: operative, not faulted, no transaction. */
const free = (p: PointInternals, c: Connector) => c.operative && !c.fault && !c.tx && p.point.operative && !p.point.fault;

const warnOnFailure = (p: PointInternals, what: string) => (err: unknown) => p.emit('warning', { message: `${what} failed`, error: err });

type Handler = (p: PointInternals, req: Payload) => Reply;

const handlers: Record<string, Handler> = {
  RemoteStartTransaction(p, req) {
    const idTag = field<string>(req, 'idTag', 'string', true);
    const connectorId = field<number>(req, 'connectorId', 'integer');
    field(req, 'chargingProfile', 'object');
    let c: Connector | undefined;
    if (connectorId !== undefined) c = p.connector(connectorId);
    else c = p.connectors.find((x) => free(p, x) && x.plugged) ?? p.connectors.find((x) => free(p, x));
    if (!c || !free(p, c)) return status('Rejected');
    const target = c;
    return status('Accepted', () => void p.startTransaction(target, idTag, { remote: true }).catch(warnOnFailure(p, 'remote start')));
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
      DiagnosticsStatusNotification: () => p.notify('DiagnosticsStatusNotification', { status: 'Idle' }),
      FirmwareStatusNotification: () => p.notify('FirmwareStatusNotification', { status: 'Idle' }),
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

  GetCompositeSchedule(p, req) {
    const connectorId = field<number>(req, 'connectorId', 'integer', true);
    const duration = field<number>(req, 'duration', 'integer', true);
    const unit = req.chargingRateUnit === undefined ? 'W' : oneOf(req, 'chargingRateUnit', ['A', 'W'] as const);
    const targets = connectorId === 0 ? p.connectors : [p.connector(connectorId)].filter((c) => c !== undefined);
    if (targets.length === 0) return status('Rejected');
    // No charging profile is installed: the limit is what the hardware delivers.
    const watts = targets.reduce((sum, c) => sum + c.spec.maxPowerW, 0);
    const first = targets[0]!.spec;
    const phases = first.current === 'AC' ? first.phases : undefined;
    const volts = first.current === 'AC' ? first.voltageV * first.phases : first.voltageV;
    const limit = unit === 'W' ? Math.floor(watts) : Math.floor(watts / volts);
    return reply({
      status: 'Accepted',
      connectorId,
      scheduleStart: p.iso(),
      chargingSchedule: {
        duration,
        startSchedule: p.iso(),
        chargingRateUnit: unit,
        chargingSchedulePeriod: [{ startPeriod: 0, limit, ...(phases ? { numberPhases: phases } : {}) }],
      },
    });
  },

  GetConfiguration(p, req) {
    const keys = field<unknown[]>(req, 'key', 'array');
    if (keys?.some((k) => typeof k !== 'string')) throw new OcppError('TypeConstraintViolation', 'key must list strings');
    const { configurationKey, unknownKey } = p.config.read(keys as string[] | undefined);
    return reply({ configurationKey, ...(unknownKey.length > 0 ? { unknownKey } : {}) });
  },

  ChangeConfiguration(p, req) {
    const key = field<string>(req, 'key', 'string', true);
    const value = field<string>(req, 'value', 'string', true);
    const result = p.config.change(key, value);
    return status(result, result === 'Accepted' ? () => p.applyConfiguration(key) : undefined);
  },
};

export function handleCommand(p: PointInternals, action: string, payload: Payload): Reply {
  const handler = handlers[action];
  if (!handler) throw new OcppError('NotImplemented', `${action} is not implemented by this charge point`);
  return handler(p, payload);
}

/** The CSMS-initiated actions the simulator answers. */
export const SUPPORTED_COMMANDS = Object.keys(handlers);
