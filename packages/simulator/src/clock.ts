/**
 * Time as the simulator sees it. Everything that waits (heartbeats, meter samples, reconnect
 * backoff, call timeouts) goes through a Clock, so tests can drive time by hand.
 */
export type TimerHandle = unknown;

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

// Node clamps longer delays to 1 ms; longer waits are re-armed by the scheduler.
const MAX_DELAY_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, Math.min(Math.max(0, ms), MAX_DELAY_MS)),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ManualClock extends Clock {
  /** Moves time forward, running every timer that falls due, in order, at its own time. */
  advance(ms: number): void;
  /** Runs timers due now (e.g. ones set with a zero delay). */
  flush(): void;
  /** Number of armed timers. */
  pending(): number;
}

/** A clock that only moves when told to. Starts at `startMs` (default 2026-01-01T00:00:00Z). */
export function createManualClock(startMs = Date.UTC(2026, 0, 1)): ManualClock {
  let now = startMs;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();

  const runDue = (until: number) => {
    for (;;) {
      let nextId: number | undefined;
      let next: { at: number; fn: () => void } | undefined;
      for (const [id, t] of timers) {
        if (t.at <= until && (!next || t.at < next.at)) {
          next = t;
          nextId = id;
        }
      }
      if (!next || nextId === undefined) break;
      timers.delete(nextId);
      now = Math.max(now, next.at);
      next.fn();
    }
    now = Math.max(now, until);
  };

  return {
    now: () => now,
    setTimer(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimer(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      runDue(now + ms);
    },
    flush() {
      runDue(now);
    },
    pending: () => timers.size,
  };
}
