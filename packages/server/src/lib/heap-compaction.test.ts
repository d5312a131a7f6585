import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectGarbage, compactHeap, createStormCompactor, type Compaction } from './heap-compaction.js';

const quiet = { info: () => {}, warn: () => {} };

describe('compaction after a connect storm', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function compactor(minConnections: number, held = () => 0) {
    vi.useFakeTimers();
    const compact = vi.fn((): Compaction => ({ pauseMs: 12.34, beforeBytes: 500e6, afterBytes: 120e6 }));
    const c = createStormCompactor({ minConnections, settleMs: 10_000, held, logger: quiet, compact });
    return { c, compact };
  }

  it('runs once the storm has settled, each new connection postponing it', () => {
    const { c, compact } = compactor(3);
    c.connected();
    c.connected();
    vi.advanceTimersByTime(60_000);
    expect(compact).not.toHaveBeenCalled(); // two connections are no storm

    c.connected();
    vi.advanceTimersByTime(9_000);
    c.connected(); // still coming
    vi.advanceTimersByTime(9_000);
    expect(compact).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(compact).toHaveBeenCalledTimes(1);
    expect(c.stats).toEqual({ count: 1, lastAt: new Date().toISOString(), lastPauseMs: 12.3, lastFreedBytes: 380e6 });

    // Counting starts again: the next storm needs its own connections.
    c.connected();
    c.connected();
    vi.advanceTimersByTime(60_000);
    expect(compact).toHaveBeenCalledTimes(1);
    c.connected();
    vi.advanceTimersByTime(10_000);
    expect(compact).toHaveBeenCalledTimes(2);
  });

  it('waits for storms that add up to half of the connections held', () => {
    let held = 100;
    const { c, compact } = compactor(3, () => held);
    for (let i = 0; i < 30; i++) c.connected(); // 30 reconnect to a server holding 100
    vi.advanceTimersByTime(60_000);
    expect(compact).not.toHaveBeenCalled();
    for (let i = 0; i < 20; i++) c.connected(); // 50 of 100 since the last compaction
    vi.advanceTimersByTime(10_000);
    expect(compact).toHaveBeenCalledTimes(1);
    held = 1000;
    for (let i = 0; i < 499; i++) c.connected(); // the counting started again
    vi.advanceTimersByTime(60_000);
    expect(compact).toHaveBeenCalledTimes(1);
  });

  it('never runs when turned off (0) or stopped', () => {
    const off = compactor(0);
    for (let i = 0; i < 10; i++) off.c.connected();
    vi.advanceTimersByTime(60_000);
    expect(off.compact).not.toHaveBeenCalled();

    const stopped = compactor(1);
    stopped.c.connected();
    stopped.c.stop();
    vi.advanceTimersByTime(60_000);
    expect(stopped.compact).not.toHaveBeenCalled();
    expect(stopped.c.stats.count).toBe(0);
  });

  it('gives back the old-space pages that ordinary full collections keep, for that one collection', () => {
    // Fragment the old generation: objects promoted together, one in three of them kept, so that each
    // page is two-thirds free: too full for V8's ordinary choice of pages to evacuate.
    let kept: object[] = [];
    const fragment = () => {
      kept = [];
      let all: object[] = [];
      for (let round = 0; round < 8; round++) {
        for (let i = 0; i < 100_000; i++) {
          const o = { i, s: `x${i}`, a: [i] };
          all.push(o);
          if (i % 3 === 0) kept.push(o);
        }
        collectGarbage(); // promotes this round's objects
      }
      all = [];
      // Ordinary full collections free the garbage but keep most of its pages.
      collectGarbage();
      collectGarbage();
    };
    const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_size;
    fragment();
    const fragmented = oldSpace();
    const c = compactHeap();
    expect(c.pauseMs).toBeGreaterThan(0);
    expect(c.afterBytes).toBeLessThan(c.beforeBytes);
    const compacted = oldSpace();
    expect(compacted).toBeLessThan(fragmented * 0.6);
    // The flag was for that collection only: the ordinary ones after it keep their pages again (as
    // much is kept as the first time).
    fragment();
    expect(oldSpace()).toBeGreaterThan(compacted * 1.5);
    expect(kept.length).toBe(8 * 33_334);
  });
});
