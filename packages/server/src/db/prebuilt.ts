import type { Db, Tx } from './client.js';

interface Runnable<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * A hot statement whose text is built once. drizzle builds a query's text and its row mapping on every
 * call: measured in this server, 265 µs for the settlement's lock (a wide row with five joins) and
 * 100 µs for a ten-column update, which every billed Stop paid again. `prebuilt(db, build)` builds the
 * query once, with `sql.placeholder`s for what changes, and runs that text on the connection it is
 * given: the pool (`db`) or a transaction's (`tx`); drizzle maps the rows as the built query says. It
 * has no name of its own: the pool names the statements it sees again and again, this one among them
 * (src/db/named-statements.ts, which `CSMS_DB_NAMED_STATEMENTS=false` turns off for a pooler).
 *
 * The connection is taken from drizzle's session (`_.session.client`, node-postgres): the test of this
 * file checks that a prebuilt statement sees the transaction's own uncommitted writes.
 */
export function prebuilt<R>(db: Db, build: (db: Db) => { prepare(name: string): Runnable<R> }) {
  let query: Runnable<R> | undefined;
  return (on: Db | Tx, values: Record<string, unknown>): Promise<R> => {
    query ??= build(db).prepare(undefined as unknown as string);
    const { client } = (on as unknown as { _: { session: { client: unknown } } })._.session;
    return (Object.create(query, { client: { value: client } }) as Runnable<R>).execute(values);
  };
}
