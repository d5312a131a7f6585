/**
 * An error as the server's log writes it (the logger's `err` serializer). A failed statement's values
 * never reach the log: drizzle's `DrizzleQueryError` carries them in `params` and in its message and
 * stack ("params: …"), and PostgreSQL's `detail` repeats a refused row ("Failing row contains (…)",
 * "Key (…)=(…)"), which may hold a mail code, a token or a password's hash. The statement's text, the
 * error's code, constraint, table and column stay: they say what failed without what was in it.
 */
const HIDDEN = new Set(['params', 'detail']);
const MAX_DEPTH = 5;

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function errForLog(err: Error): LoggedError {
  // The logger also hands over what a caller put under `err` that is no error (a message string).
  return serialize(err, 0) as LoggedError;
}

function serialize(err: unknown, depth: number): unknown {
  if (!(err instanceof Error)) return err;
  if (depth > MAX_DEPTH) return err.name;
  const params = (err as { params?: unknown }).params;
  // drizzle writes `params: ${params}` into the message, so the same text can be cut from message and stack.
  const scrub = (text = '') => (params === undefined ? text : text.split(`\nparams: ${String(params)}`).join('\nparams: (hidden)'));
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? err.name,
    message: scrub(err.message),
    stack: scrub(err.stack),
  };
  for (const [key, value] of Object.entries(err)) {
    if (!HIDDEN.has(key) && !(key in out)) out[key] = serialize(value, depth + 1);
  }
  if (err.cause !== undefined && !('cause' in out)) out.cause = serialize(err.cause, depth + 1);
  return out;
}
