import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is switched off whenever none of its `run`s is under way. On Node 20,
 * while any storage is on, async_hooks follows every promise the whole process creates (an init hook
 * per promise that copies the store onto it), the chargers' work included, which never reads it: with
 * the two storages of the console's requests (the unit of work, the planned statements) on for good
 * after the first request, the server spent about 10 % more CPU per persisted call on PostgreSQL
 * (bench/ocpp.mjs, README "Benchmarks"). Off, `getStore()` is undefined, which is what every user of
 * these storages sees anyway from work a run started and that outlives it.
 */
export function idleOffStorage<T>() {
  const als = new AsyncLocalStorage<T>();
  let running = 0;
  return {
    getStore: (): T | undefined => als.getStore(),
    /** `fn` and what it starts see `store` until `fn` settles. */
    async run<R>(store: T, fn: () => Promise<R>): Promise<R> {
      running++;
      try {
        return await als.run(store, fn);
      } finally {
        if (--running === 0) als.disable();
      }
    },
    /** `fn` (synchronously) and what it starts see no store. */
    exit: <R>(fn: () => R): R => als.exit(fn),
    /** Runs under way (for tests). */
    get running() {
      return running;
    },
  };
}
