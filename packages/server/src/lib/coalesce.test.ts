import { describe, expect, it } from 'vitest';
import { coalescing } from './coalesce.js';

/** A batch function whose queries answer only when the test lets them. */
function gatedLookup() {
  const batches: (readonly number[])[] = [];
  const gates: (() => void)[] = [];
  const load = coalescing(
    async (keys: readonly number[]) => {
      batches.push(keys);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (keys.includes(13)) throw new Error('refused');
      return new Map(keys.filter((k) => k % 2 === 0).map((k) => [k, `v${k}`]));
    },
    { missing: null },
  );
  const until = async (n: number) => {
    while (gates.length < n) await new Promise((r) => setImmediate(r));
  };
  return { load, batches, gates, until };
}

describe('coalescing lookups', () => {
  it('gives loads made while a query runs one query after it, and each load its own answer', async () => {
    const { load, batches, gates, until } = gatedLookup();
    const first = [load(1), load(2)];
    await until(1);
    expect(batches).toEqual([[1, 2]]);
    // Asked while the first query runs: nothing is sent until it is over, then one query for all of them.
    const second = [load(4), load(5), load(4)];
    await new Promise((r) => setImmediate(r));
    expect(batches).toHaveLength(1);
    gates[0]!();
    expect(await Promise.all(first)).toEqual([null, 'v2']);
    await until(2);
    expect(batches[1]).toEqual([4, 5, 4]);
    gates[1]!();
    expect(await Promise.all(second)).toEqual(['v4', null, 'v4']);
  });

  it('rejects every load of a failed query and answers the next ones', async () => {
    const { load, gates, until } = gatedLookup();
    const failed = [load(13), load(2)].map((p) => p.catch((e: Error) => e.message));
    await until(1);
    gates[0]!();
    expect(await Promise.all(failed)).toEqual(['refused', 'refused']);
    const later = load(6);
    await until(2);
    gates[1]!();
    expect(await later).toBe('v6');
  });
});
