/**
 * Live events the server streams to the console (`GET /prod-api/web/events`, SSE). The OCPP
 * endpoint publishes the charger events; monitoring screens and dashboard widgets subscribe.
 * Each event names its provider and station so the hub delivers it only to users who may see
 * them.
 */

interface ChargerEventBase {
  providerId: number;
  stationId: number;
  chargePointId: number;
  serialNumber: string;
}

export interface ConsoleEventPayloads {
  /** A socket to the charger opened (online) or closed / timed out (offline). */
  'point.online': ChargerEventBase & { online: boolean; at: string };
  /** StatusNotification: connector 0 is the point itself. `status` is OCPP's ChargePointStatus. */
  'point.status': ChargerEventBase & {
    connectorNo: number;
    status: string;
    errorCode: string;
    info?: string;
    at: string;
  };
  // No idTag: a card's UID is the credential a clone needs, and the stream reaches users who may not list cards.
  'transaction.started': ChargerEventBase & { transactionId: number; connectorNo: number; startedAt: string };
  /** A meter sample of a running transaction. */
  'transaction.meter': ChargerEventBase & {
    transactionId: number;
    connectorNo: number;
    energyWh: number;
    powerW?: number;
    soc?: number;
    at: string;
  };
  'transaction.stopped': ChargerEventBase & {
    transactionId: number;
    connectorNo: number;
    energyWh: number;
    stoppedAt: string;
    reason?: string;
  };
  /** A charger reported (NotifyChargingLimit) or cleared (ClearedChargingLimit) an external limit on an EVSE (0: all of it). */
  'point.chargingLimit': ChargerEventBase & { evseId: number; source: string; cleared: boolean; at: string };
  /** A fault notified by a charger (alarm record). */
  'point.fault': ChargerEventBase & { alarmId: number; connectorNo: number; level: 'serious' | 'common'; errorCode: string; at: string };
}

export type ChargerEventType = keyof ConsoleEventPayloads;
