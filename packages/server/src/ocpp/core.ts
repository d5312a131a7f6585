import type { AuditLog } from '../http/audit.js';
import type { ChargerEventType, ConsoleEventPayloads } from '@csms/contract';
import type { OcppConfig } from '../config.js';
import type { Db, Tx } from '../db/client.js';
import type { EventHub } from '../lib/events.js';
import type { AuthorizationService } from '../modules/cards/authorize.js';
import type { PointState } from './registry.js';
import type { VendorRegistry } from './vendors.js';
import type { BatchWriter } from './writer.js';

/** What the message handlers share: dependencies and the node's in-memory state. */
export interface OcppCore {
  db: Db;
  config: OcppConfig;
  events: EventHub;
  authorization: Pick<AuthorizationService, 'authorize' | 'forget'>;
  vendors: VendorRegistry;
  idTags: IdTagIndex;
  /** Group commit of meter values, statuses, boots and online flags. */
  writer: BatchWriter;
  logger: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** The system log, for what a charger reports that operators must see there (2.0.1 security events). */
  audit?: AuditLog;
  /** Records that a point was heard from; written to `last_seen_at` in batches. */
  touch(pointId: number): void;
  /**
   * Settles a finished session inside its Stop's database transaction (billing), so that the Stop and its
   * bill are one commit. When it throws, that transaction is lost: the Stop is written again on its own and
   * the listeners settle it after the reply.
   */
  settleStop?: (tx: Tx, transactionId: number) => Promise<unknown>;
  /**
   * Tells listeners (billing) that a transaction's stop is committed (`settled`: with its bill); called after
   * the reply. Once they are done, the idTag's cached authorization data (balance, energy this month) is dropped.
   */
  transactionStopped(transactionId: number, idTag: string, settled?: boolean): void;
  /** Tells listeners (stored charging profiles, firmware upgrades) that a point booted; called after the reply. */
  booted(point: Pick<PointState, 'id' | 'serialNumber'>, firmwareVersion: string | null): void;
  /** Tells listeners (firmware upgrades) of a FirmwareStatusNotification once it is stored; called after the reply. */
  firmwareStatus(point: Pick<PointState, 'id' | 'serialNumber'>, status: string): void;
  /** Tells listeners (diagnostics requests) of a DiagnosticsStatusNotification once it is stored; called after the reply. */
  diagnosticsStatus(point: Pick<PointState, 'id' | 'serialNumber'>, status: string): void;
}

type Base = 'providerId' | 'stationId' | 'chargePointId' | 'serialNumber';

/** Publishes a charger event to the browsers that may see its provider and station. */
export function emit<T extends ChargerEventType>(
  events: EventHub,
  type: T,
  point: Pick<PointState, 'id' | 'providerId' | 'stationId' | 'serialNumber'>,
  payload: Omit<ConsoleEventPayloads[T], Base>,
): void {
  events.publish({
    type,
    providerId: point.providerId,
    stationId: point.stationId,
    payload: {
      providerId: point.providerId,
      stationId: point.stationId,
      chargePointId: point.id,
      serialNumber: point.serialNumber,
      ...payload,
    },
  });
}

/**
 * idTags with an authorized transaction running, for Authorize's ConcurrentTx (matched without
 * regard to case, like cards' physical ids). Loaded from the database at start and kept by this
 * node's Start/Stop handling; with several nodes, by every node's (`sharedIdTags` in ocpp.ts).
 */
export function createIdTagIndex() {
  const running = new Map<string, number>();
  return {
    has: (idTag: string) => (running.get(idTag.toLowerCase()) ?? 0) > 0,
    add(idTag: string) {
      const k = idTag.toLowerCase();
      running.set(k, (running.get(k) ?? 0) + 1);
    },
    remove(idTag: string) {
      const k = idTag.toLowerCase();
      const n = (running.get(k) ?? 0) - 1;
      if (n > 0) running.set(k, n);
      else running.delete(k);
    },
    /** Drops an idTag whatever its count (found not running after all: see `stillRunning` in transactions.ts). */
    forget: (idTag: string) => void running.delete(idTag.toLowerCase()),
    clear: () => running.clear(),
  };
}

export type IdTagIndex = ReturnType<typeof createIdTagIndex>;
