import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { chargePoint } from '../db/schema.js';

/** How often at most a point's last_seen_at is written (less when the heartbeat interval is short). */
export const SEEN_EVERY_MS = 30_000;
/** Points per last_seen_at statement. */
const SEEN_CHUNK = 100;

/** `charge_point.id` among `ids`, as one array parameter (drizzle's inArray builds and checks a placeholder per id: thousands here). */
export const pointIdIn = (ids: readonly number[]) => sql`${chargePoint.id} = any(${`{${ids.join(',')}}`}::int[])`;

/**
 * `charge_point.last_seen_at`: every message counts as a sign of life, but a point's row is written
 * at most once per `everyMs` (the online flag's write at connect counts as one, see `written`), a
 * second's points together, in statements of at most `chunk` points. Written on every message,
 * 5,000 chargers at 1,000 calls/s updated 1,000 rows a second in one statement, which held
 * PGlite's one session for 15–25 ms while the meter values queued behind it waited
 * (bench/ocpp.mjs). What reads the column: the sweep that marks offline a point not seen for three
 * heartbeat intervals (`everyMs` is at most half of one), and the console's "last seen".
 */
export function createLastSeen({
  db,
  everyMs,
  chunk = SEEN_CHUNK,
  delayMs = 1000,
  logger,
  now = Date.now,
}: {
  db: Db;
  everyMs: number;
  chunk?: number;
  /** How long touches gather before they are written. */
  delayMs?: number;
  logger: { warn(obj: unknown, msg?: string): void };
  now?: () => number;
}) {
  /** Point id → when its row was last written (or queued to be). */
  const writtenAt = new Map<number, number>();
  let due = new Set<number>();
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (due.size === 0) return;
    const ids = [...due];
    due = new Set();
    const at = new Date(now());
    // One chunk after the other: what queued meanwhile (the batch writer) runs between them.
    for (let i = 0; i < ids.length; i += chunk) {
      await db
        .update(chargePoint)
        .set({ lastSeenAt: at })
        .where(pointIdIn(ids.slice(i, i + chunk)))
        .catch((err: unknown) => logger.warn({ err }, 'ocpp: last_seen_at update failed'));
    }
  }

  return {
    /** A point was heard from. */
    touch(pointId: number): void {
      const t = now();
      if (t - (writtenAt.get(pointId) ?? -Infinity) < everyMs) return;
      writtenAt.set(pointId, t);
      due.add(pointId);
      if (!timer) {
        timer = setTimeout(() => void flush(), delayMs);
        timer.unref();
      }
    },
    /** Its row's last_seen_at was just written by another statement (the point came online). */
    written(pointId: number, at: number): void {
      writtenAt.set(pointId, at);
    },
    /** The point's connection ended: the next one writes afresh. */
    forget(pointId: number): void {
      writtenAt.delete(pointId);
    },
    flush,
  };
}
