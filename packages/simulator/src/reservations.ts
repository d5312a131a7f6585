import type { Task } from './scheduler.js';
import type { Connector, PointInternals } from './types.js';

/**
 * Reservations (OCPP 1.6 §3.11, §5.1 CancelReservation, §5.13 ReserveNow). A reservation of a
 * connector turns it Reserved until it expires, is cancelled or its idTag starts a transaction
 * there. A reservation of connector 0 ("any connector") reserves none in particular: the point
 * keeps enough connectors free for its reservations, and the last free ones show Reserved.
 */

export interface Reservation {
  reservationId: number;
  /** 0: any connector. */
  connectorId: number;
  idTag: string;
  parentIdTag?: string;
  /** Epoch ms. */
  expiresAt: number;
}

export type ReservationStatus = 'Accepted' | 'Faulted' | 'Occupied' | 'Rejected' | 'Unavailable';

/** What a start of an idTag on a connector does to the reservations. */
export type Claim = { allowed: false } | { allowed: true; reservation?: Reservation };

export interface Reservations {
  /** ReserveNow's answer for `r` (a reservation with the same id counts as gone). */
  check(r: Reservation): ReservationStatus;
  /** Takes a checked reservation, replacing the one with its id. */
  add(r: Reservation): void;
  has(reservationId: number): boolean;
  cancel(reservationId: number): void;
  /** The reservation on this very connector. */
  of(c: Connector): Reservation | undefined;
  /** Whether the connector shows Reserved (its own reservation, or kept free for connector 0's). */
  holds(c: Connector): boolean;
  /** Reservations of connector 0: while there are some, one connector's change moves the others' status. */
  anyConnector(): number;
  /** Whether `idTag` (child of `parentIdTag`) may start on `c`, and the reservation the start ends. */
  claim(c: Connector, idTag: string, parentIdTag?: string): Claim;
  /** The transaction that ends the reservation has started. */
  use(r: Reservation): void;
  halt(): void;
}

type Deps = Pick<PointInternals, 'config' | 'connectors' | 'connector' | 'point' | 'scheduler' | 'now' | 'refresh' | 'emit'>;

// IdToken is a CiString20Type: case does not matter.
const sameTag = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase();

export function createReservations(p: Deps): Reservations {
  let entries: (Reservation & { expiry: Task })[] = [];

  const inService = (c: Connector) => p.point.operative && !p.point.fault && c.operative && !c.fault;
  /**
   * Free for a reservation of any connector: in service, no transaction, not left Finishing and
   * not reserved itself. An EV plugged in without a transaction takes nothing away.
   */
  const open = (c: Connector, among: readonly Reservation[]) =>
    inService(c) && !c.tx && !c.finishing && !among.some((r) => r.connectorId === c.id);
  const anyCount = (among: readonly Reservation[]) => among.filter((r) => r.connectorId === 0).length;
  /** Connector 0's reservations need every free connector left: each of them shows Reserved. */
  const keptFree = (c: Connector, among: readonly Reservation[]) => {
    const needed = anyCount(among);
    return needed > 0 && open(c, among) && p.connectors.filter((x) => open(x, among)).length <= needed;
  };

  const refreshAll = () => p.connectors.forEach((c) => p.refresh(c.id));

  function remove(reservationId: number) {
    const r = entries.find((e) => e.reservationId === reservationId);
    if (!r) return undefined;
    r.expiry.cancel();
    entries = entries.filter((e) => e !== r);
    return r;
  }

  function end(reservationId: number, type: 'used' | 'expired' | 'cancelled') {
    const r = remove(reservationId);
    if (!r) return;
    p.emit('reservation', { type, reservationId, connectorId: r.connectorId });
    refreshAll();
  }

  function check(r: Reservation): ReservationStatus {
    if (!p.config.list('SupportedFeatureProfiles').includes('Reservation') || r.expiresAt <= p.now()) return 'Rejected';
    const others = entries.filter((e) => e.reservationId !== r.reservationId);
    if (r.connectorId === 0) {
      if (!p.config.bool('ReserveConnectorZeroSupported')) return 'Rejected';
      if (p.connectors.filter((c) => open(c, others)).length > anyCount(others)) return 'Accepted';
      if (p.point.fault || p.connectors.every((c) => c.fault)) return 'Faulted';
      if (!p.point.operative || p.connectors.every((c) => c.fault || !c.operative)) return 'Unavailable';
      return 'Occupied';
    }
    const c = p.connector(r.connectorId);
    if (!c) return 'Rejected';
    if (p.point.fault || c.fault) return 'Faulted';
    if (!p.point.operative || !c.operative) return 'Unavailable';
    if (c.tx || c.plugged || c.finishing || !open(c, others) || keptFree(c, others)) return 'Occupied';
    return 'Accepted';
  }

  return {
    check,
    add(r) {
      remove(r.reservationId);
      entries = [...entries, { ...r, expiry: p.scheduler.at(r.expiresAt, () => end(r.reservationId, 'expired')) }];
      p.emit('reservation', { type: 'reserved', reservationId: r.reservationId, connectorId: r.connectorId });
      refreshAll();
    },
    has: (reservationId) => entries.some((e) => e.reservationId === reservationId),
    cancel: (reservationId) => end(reservationId, 'cancelled'),
    of: (c) => entries.find((e) => e.connectorId === c.id),
    holds: (c) => entries.some((e) => e.connectorId === c.id) || keptFree(c, entries),
    anyConnector: () => anyCount(entries),
    claim(c, idTag, parentIdTag) {
      // A reservation with a parentIdTag admits every idTag of that group.
      const admits = (r: Reservation) => sameTag(idTag, r.idTag) || (r.parentIdTag !== undefined && sameTag(r.parentIdTag, parentIdTag));
      const own = entries.find((e) => e.connectorId === c.id);
      if (own) return admits(own) ? { allowed: true, reservation: own } : { allowed: false };
      const any = entries.find((e) => e.connectorId === 0 && admits(e));
      if (any) return { allowed: true, reservation: any };
      return { allowed: !keptFree(c, entries) };
    },
    use: (r) => end(r.reservationId, 'used'),
    halt() {
      for (const e of entries) e.expiry.cancel();
    },
  };
}
