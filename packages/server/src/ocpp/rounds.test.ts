import { describe, expect, it } from 'vitest';
import { slicedRounds } from './rounds.js';

describe('sliced rounds (the WebSocket ping sweep)', () => {
  it('gives every value once per round, a slice per tick', () => {
    const map = new Map(Array.from({ length: 10 }, (_, i) => [i, `s${i}`]));
    const tick = slicedRounds(map, 4);
    const slices = [tick(), tick(), tick()];
    expect(slices.map((s) => s.length)).toEqual([3, 3, 3]);
    const fourth = tick();
    expect(fourth).toEqual(['s9']);
    expect(new Set([...slices.flat(), ...fourth]).size).toBe(10);
    // The next round starts again from the first value.
    expect(tick()).toEqual(['s0', 's1', 's2']);
  });

  it('takes in values added during a round and leaves out those deleted', () => {
    const map = new Map([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
    ]);
    const tick = slicedRounds(map, 2);
    expect(tick()).toEqual(['a', 'b']);
    map.delete(3);
    map.set(5, 'e');
    expect(tick()).toEqual(['d', 'e']);
  });

  it('gives nothing for an empty map and all at once with one tick per round', () => {
    const map = new Map<number, string>();
    const tick = slicedRounds(map, 300);
    expect(tick()).toEqual([]);
    map.set(1, 'a').set(2, 'b');
    expect(slicedRounds(map, 1)()).toEqual(['a', 'b']);
    expect(tick()).toEqual(['a']);
  });
});
