import { idleOffStorage } from '../lib/idle-storage.js';
import type { Db, Tx } from './client.js';

interface Unit {
  tx: Tx;
  /** False once the transaction's work is done: late work started inside it (a fire-and-forget read) uses the database again. */
  open: boolean;
  /** Work that must see the change (cache refreshes, events to browsers): run once it is committed, dropped if it is not. */
  after: (() => void)[];
}

/**
 * One transaction per mutating request, without passing it down: `db` is the database for every
 * repository and service, and inside `run` each of their queries joins that call's transaction
 * (AsyncLocalStorage carries it, switched off between runs: `idleOffStorage`; `db.transaction` inside becomes a savepoint). The HTTP layer runs
 * a change and its system-log row in one `run`, so that neither commits without the other.
 */
export function createUnitOfWork(root: Db, onAfterCommitError: (err: unknown) => void = (err) => console.error(err)) {
  const als = idleOffStorage<Unit>();
  const current = (): Db => {
    const unit = als.getStore();
    return unit?.open ? (unit.tx as unknown as Db) : root;
  };
  const db = new Proxy(root, {
    get(_target, prop) {
      const target = current();
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    db,
    /** Run `fn` in one transaction that every query through `db` joins: committed when it resolves, rolled back when it throws. */
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (als.getStore()?.open) return fn();
      const after: (() => void)[] = [];
      const result = await root.transaction(async (tx) => {
        const unit: Unit = { tx, open: true, after };
        try {
          return await als.run(unit, fn);
        } finally {
          unit.open = false;
        }
      });
      // The change is committed: a failing follower must not turn it into an error reply.
      for (const f of after) {
        try {
          f();
        } catch (err) {
          onAfterCommitError(err);
        }
      }
      return result;
    },
    /**
     * Run `f` once the caller's change is committed (at once outside a unit): what others are told or
     * re-read about a change (events, caches) never precedes it, and never follows one rolled back.
     */
    afterCommit(f: () => void): void {
      const unit = als.getStore();
      if (unit?.open) unit.after.push(f);
      else f();
    },
    /** Run `fn` outside the caller's unit: work on behalf of someone else (another request's event stream). */
    outside<T>(fn: () => T): T {
      return als.exit(fn);
    },
  };
}

export type UnitOfWork = ReturnType<typeof createUnitOfWork>;
