/**
 * Events for the console's browsers (export progress, charger status, meter values, faults).
 * In-process here; with several nodes `clusterEvents` (bus/fanout.ts) sends them to every
 * node and each delivers to its own browsers.
 */
/**
 * Not for browsers: tells a user's open streams (or, without `userId`, every stream) that what they
 * may see changed, e.g. their bound stations; each re-reads its session's scope at once.
 */
export const SCOPE_CHANGED = 'session.scopeChanged';

export interface ConsoleEvent {
  type: string;
  /** Deliver only to this user's streams… */
  userId?: number;
  /** …or to streams of users who can see this provider… */
  providerId?: number;
  /** …and, for users bound to stations, this station (charger events). */
  stationId?: number;
  payload: Record<string, unknown>;
}

export interface Subscriber {
  userId: number;
  canSee(providerId: number): boolean;
  /** Whether a station's events reach this user; absent means every station of the visible providers. */
  canSeeStation?(stationId: number): boolean;
  send(event: ConsoleEvent): void;
}

export function createEventHub() {
  const subscribers = new Set<Subscriber>();
  return {
    subscribe(s: Subscriber): () => void {
      subscribers.add(s);
      return () => subscribers.delete(s);
    },
    publish(event: ConsoleEvent): void {
      for (const s of subscribers) {
        if (event.userId !== undefined && event.userId !== s.userId) continue;
        if (event.providerId !== undefined && !s.canSee(event.providerId)) continue;
        if (event.stationId !== undefined && s.canSeeStation && !s.canSeeStation(event.stationId)) continue;
        s.send(event);
      }
    },
    get size() {
      return subscribers.size;
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
