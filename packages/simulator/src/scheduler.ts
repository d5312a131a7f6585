import type { Clock, TimerHandle } from './clock.js';

/**
 * One timer for many tasks: a binary heap ordered by due time, driven by a single clock timer.
 * A fleet of thousands of charge points shares one scheduler instead of holding thousands of
 * intervals; cancelling removes the task from the heap, so nothing lingers.
 */
export interface Task {
  readonly at: number;
  cancel(): void;
}

export interface Scheduler {
  readonly clock: Clock;
  /** Runs `fn` at epoch time `at` (or as soon as possible if that has passed). */
  at(at: number, fn: () => void): Task;
  /** Runs `fn` after `ms` milliseconds. */
  after(ms: number, fn: () => void): Task;
  /** Number of pending tasks. */
  size(): number;
  /** Cancels every task. */
  clear(): void;
}

interface Entry extends Task {
  fn: () => void;
  seq: number;
  index: number;
  cancelled: boolean;
}

/** `onError` receives what a task throws; the other tasks still run. */
export function createScheduler(clock: Clock, onError: (err: unknown) => void = (err) => console.error(err)): Scheduler {
  const heap: Entry[] = [];
  let seq = 0;
  let timer: TimerHandle | undefined;
  let armedAt = Infinity;

  const before = (a: Entry, b: Entry) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
  const place = (e: Entry, i: number) => {
    heap[i] = e;
    e.index = i;
  };
  const up = (i: number) => {
    const e = heap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = heap[p]!;
      if (!before(e, parent)) break;
      place(parent, i);
      i = p;
    }
    place(e, i);
  };
  const down = (i: number) => {
    const e = heap[i]!;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(heap[r]!, heap[l]!) ? r : l;
      if (!before(heap[c]!, e)) break;
      place(heap[c]!, i);
      i = c;
    }
    place(e, i);
  };
  const remove = (e: Entry) => {
    const i = e.index;
    if (i < 0) return;
    e.index = -1;
    const last = heap.pop()!;
    if (last === e) return;
    place(last, i);
    down(i);
    up(last.index);
  };

  const arm = () => {
    const top = heap[0];
    if (!top) return;
    if (timer !== undefined && top.at >= armedAt) return;
    if (timer !== undefined) clock.clearTimer(timer);
    armedAt = top.at;
    timer = clock.setTimer(fire, top.at - clock.now());
  };

  function fire() {
    timer = undefined;
    armedAt = Infinity;
    const now = clock.now();
    // Tasks scheduled while running (even for "now") wait for the next turn, so a task that
    // re-schedules itself at zero delay cannot starve the event loop.
    const due: Entry[] = [];
    while (heap.length > 0 && heap[0]!.at <= now) {
      const e = heap[0]!;
      remove(e);
      due.push(e);
    }
    for (const e of due) {
      if (e.cancelled) continue;
      try {
        e.fn();
      } catch (err) {
        onError(err);
      }
    }
    arm();
  }

  const schedule = (at: number, fn: () => void): Task => {
    const e: Entry = {
      at,
      fn,
      seq: ++seq,
      index: heap.length,
      cancelled: false,
      cancel: () => {
        e.cancelled = true;
        remove(e);
      },
    };
    heap.push(e);
    up(e.index);
    arm();
    return e;
  };

  return {
    clock,
    at: schedule,
    after: (ms, fn) => schedule(clock.now() + ms, fn),
    size: () => heap.length,
    clear() {
      for (const e of heap) {
        e.index = -1;
        e.cancelled = true;
      }
      heap.length = 0;
      if (timer !== undefined) clock.clearTimer(timer);
      timer = undefined;
      armedAt = Infinity;
    },
  };
}
