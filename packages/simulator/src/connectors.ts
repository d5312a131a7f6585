import { wholeWh } from './meter.js';
import type { ChargePointStatus } from './ocpp.js';
import type { Connector, ConnectorSpec, ConnectorView, PointInternals } from './types.js';

/** Connector state: defaults from the spec, the status it shows, and the view owners read. */

export function makeConnector(id: number, spec: ConnectorSpec, powerW: number): Connector {
  const current = spec.current ?? 'AC';
  return {
    id,
    spec: {
      maxPowerW: spec.maxPowerW ?? powerW,
      current,
      phases: spec.phases ?? 3,
      voltageV: spec.voltageV ?? (current === 'DC' ? 400 : 230),
      batteryWh: spec.batteryWh ?? 60_000,
    },
    lockable: spec.lockable ?? true,
    plugged: false,
    finishing: false,
    operative: true,
    meter: { registerWh: 0, powerW: 0, soc: 0, at: 0, active: false },
    status: 'Available',
    errorCode: 'NoError',
  };
}

/** OCPP's ChargePointStatus as it follows from the connector's state (and whether a reservation holds it). */
export function connectorStatus(c: Connector, reserved = false): ChargePointStatus {
  if (c.fault) return 'Faulted';
  if (c.tx) {
    if (!c.plugged) return 'SuspendedEV';
    // A charging profile at 0: the EVSE offers nothing, whatever the EV wants.
    if (c.meter.limitW !== undefined && c.meter.limitW <= 0) return 'SuspendedEVSE';
    return c.meter.soc >= 100 ? 'SuspendedEV' : 'Charging';
  }
  if (!c.operative) return 'Unavailable';
  if (reserved) return 'Reserved';
  if (c.plugged) return c.finishing ? 'Finishing' : 'Preparing';
  return 'Available';
}

/** Connector 0 stands for the point as a whole. */
export function pointStatus(point: PointInternals['point']): ChargePointStatus {
  if (point.fault) return 'Faulted';
  return point.operative ? 'Available' : 'Unavailable';
}

export function connectorView(point: PointInternals['point'], c: Connector | undefined, reservationId?: number): ConnectorView {
  if (!c)
    return {
      connectorId: 0,
      status: point.status,
      errorCode: point.errorCode,
      plugged: false,
      operative: point.operative,
      energyRegisterWh: 0,
      powerW: 0,
    };
  return {
    connectorId: c.id,
    status: c.status,
    errorCode: c.errorCode,
    plugged: c.plugged,
    operative: c.operative,
    ...(c.tx
      ? { transactionId: c.tx.transactionId, localTransactionId: c.tx.localId, idTag: c.tx.idTag, soc: Math.floor(c.meter.soc) }
      : {}),
    energyRegisterWh: wholeWh(c.meter),
    powerW: Math.round(c.meter.powerW),
    ...(reservationId !== undefined ? { reservationId } : {}),
    ...(c.meter.limitW !== undefined ? { limitW: Math.round(c.meter.limitW) } : {}),
  };
}
