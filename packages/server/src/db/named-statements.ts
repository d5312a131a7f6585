import { idleOffStorage } from '../lib/idle-storage.js';
import type pg from 'pg';

/**
 * Server-side prepared statements for the statements this process sends again and again.
 *
 * node-postgres sends a statement with parameters unnamed unless told otherwise, and the server then
 * parses, analyses and plans its text on every call. Profiled on PostgreSQL under billed
 * transactions (perf, README "What PostgreSQL spends a transaction on"), that was about 40 % of the
 * database's CPU: planning 29 %, parsing and analysis 13 %. A named statement is parsed once per
 * connection, and after five runs PostgreSQL keeps a generic plan when it costs no more than the
 * custom ones (plan_cache_mode auto), so a hot statement is neither parsed nor planned again.
 *
 * Which texts get a name: one seen `after` times (a one-off statement never does), up to `max` texts
 * per process, so that the prepared statements each connection holds stay bounded whatever text
 * the code builds (drizzle builds one text per shape of a query: per set of filters, per length of
 * an `in` list). The counts of texts not yet named are forgotten past `track` of them.
 *
 * Only the chargers' and the background's statements: lookups by key, inserts and updates of one
 * session, whose best plan does not depend on the values. The console's requests run in
 * `plannedEachCall` (src/http/mount.ts), and what they send stays unnamed, planned for its values at
 * every call (but for the lookup of their session by its token, `plannedOnce` in src/http/sessions.ts):
 * a list's filters are skewed (5,000 invalid records of a million, a 30-day window of a year),
 * and PostgreSQL's generic plan, which knows no values, chose scans that took the console bench's
 * "invalid records" from 23 to 343 ms at p95 and the recharge records' last 30 days from 17 to 178 ms.
 *
 * A named statement whose result columns a schema change altered fails with "cached plan must not
 * change result type" (a node migrating while this one runs): its text is sent unnamed from then on,
 * and that one call fails as it would have in the middle of the change.
 */
export interface StatementNames {
  /** The name to send `text` under, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined;
  /** `text` is sent unnamed from now on. */
  refuse(text: string): void;
  /** How many texts have a name. */
  readonly size: number;
}

export function statementNames({ after = 3, max = 400, track = 10_000 } = {}): StatementNames {
  const seen = new Map<string, number>();
  const named = new Map<string, string>();
  const refused = new Set<string>();
  let next = 0;
  return {
    nameOf(text) {
      const name = named.get(text);
      if (name !== undefined || next >= max || refused.has(text)) return name;
      const count = (seen.get(text) ?? 0) + 1;
      if (count < after) {
        if (seen.size >= track) seen.clear();
        seen.set(text, count);
        return undefined;
      }
      seen.delete(text);
      const fresh = `csms_${++next}`;
      named.set(text, fresh);
      return fresh;
    },
    refuse(text) {
      named.delete(text);
      refused.add(text);
    },
    get size() {
      return named.size;
    },
  };
}

const planned = idleOffStorage<true>();

/** Runs `fn` with every statement it sends (and what it starts, until it settles) unnamed: planned at each call for its values. */
export function plannedEachCall<T>(fn: () => Promise<T>): Promise<T> {
  return planned.run(true, fn);
}

/**
 * Runs `fn` with its statements named again inside a console request: for a lookup by key that every
 * request makes (the session behind its token), whose plan does not depend on the values.
 */
export function plannedOnce<T>(fn: () => Promise<T>): Promise<T> {
  return planned.exit(fn);
}

type Query = (...args: unknown[]) => unknown;

/**
 * `client`'s statements with parameters sent under their names (see statementNames). Only those:
 * a statement without parameters may hold several commands, which the extended protocol that a name
 * needs refuses. A query object with its own name, a cursor or any other submittable passes as given.
 */
export function nameStatements(client: pg.ClientBase, names: StatementNames): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [first, second] = args;
    let text: string | undefined;
    let config: Record<string, unknown> | undefined;
    if (typeof first === 'string' && Array.isArray(second) && second.length > 0 && args.length === 2) {
      text = first;
      config = { text, values: second };
    } else if (
      first !== null &&
      typeof first === 'object' &&
      typeof (first as { submit?: unknown }).submit !== 'function' &&
      typeof (first as { text?: unknown }).text === 'string' &&
      (first as { name?: unknown }).name === undefined &&
      args.length <= 2 &&
      typeof second !== 'function'
    ) {
      const values = second ?? (first as { values?: unknown }).values;
      if (Array.isArray(values) && values.length > 0) {
        text = (first as { text: string }).text;
        config = { ...(first as Record<string, unknown>), values };
      }
    }
    const name = text === undefined || planned.getStore() ? undefined : names.nameOf(text);
    if (name === undefined) return query(...args);
    const running = query({ ...config, name }) as Promise<unknown>;
    return running.catch((err: { code?: string; message?: string }) => {
      if (err?.code === '0A000' && /cached plan must not change result type/.test(err.message ?? '')) names.refuse(text!);
      throw err;
    });
  };
}
