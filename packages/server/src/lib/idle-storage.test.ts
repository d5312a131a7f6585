import { describe, expect, it } from 'vitest';
import { idleOffStorage } from './idle-storage.js';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('idleOffStorage', () => {
  it('carries the store through a run and what it starts, and keeps a run’s store while another one ends', async () => {
    const s = idleOffStorage<string>();
    const a = gate();
    const b = gate();
    const seen: (string | undefined)[] = [];
    const first = s.run('a', async () => {
      await a.opened;
      seen.push(s.getStore());
    });
    const second = s.run('b', async () => {
      await b.opened;
      await Promise.resolve();
      seen.push(s.getStore());
    });
    expect(s.running).toBe(2);
    a.open();
    await first;
    // The first run is over; the second still sees its store.
    b.open();
    await second;
    expect(seen).toEqual(['a', 'b']);
    expect(s.running).toBe(0);
    expect(s.getStore()).toBeUndefined();
  });

  it('is off once no run is under way: work a run started and that outlives it sees no store', async () => {
    const s = idleOffStorage<number>();
    const later = gate();
    let late!: Promise<number | undefined>;
    await s.run(1, async () => {
      late = (async () => {
        await later.opened;
        return s.getStore();
      })();
    });
    later.open();
    // An AsyncLocalStorage left on would still answer 1 here (and follow every promise of the process meanwhile).
    expect(await late).toBeUndefined();
    // And on again for the next run.
    expect(await s.run(2, async () => s.getStore())).toBe(2);
  });

  it('counts a run that throws as over', async () => {
    const s = idleOffStorage<number>();
    await expect(s.run(1, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(s.running).toBe(0);
  });
});
