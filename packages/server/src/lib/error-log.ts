import { errWithCause, type SerializedError } from 'pino-std-serializers';

/**
 * An error as the server's log writes it (the logger's `err` serializer): pino's own serializer, causes
 * kept as nested errors, and then a failed statement's values taken out. Drizzle's `DrizzleQueryError`
 * carries them in `params` and in its message and stack ("params: …"), and PostgreSQL's `detail` repeats a
 * refused row ("Failing row contains (…)", "Key (…)=(…)"), which may hold a mail code, a token or a
 * password's hash. The statement's text, the error's code, constraint, table and column stay: they say
 * what failed without what was in it.
 */
export function errForLog(err: Error): SerializedError {
  const logged = errWithCause(err);
  hideValues(logged);
  return logged;
}

type Logged = Record<string, unknown>;

function hideValues(e: Logged) {
  const params = e.params;
  if (params !== undefined) {
    // drizzle writes `params: ${params}` into the message, so the same text can be cut from message and stack.
    const cut = (text: unknown) => (typeof text === 'string' ? text.split(`\nparams: ${String(params)}`).join('\nparams: (hidden)') : text);
    e.message = cut(e.message);
    e.stack = cut(e.stack);
    delete e.params;
  }
  delete e.detail;
  if (e.cause && typeof e.cause === 'object') hideValues(e.cause as Logged);
  if (Array.isArray(e.aggregateErrors)) for (const inner of e.aggregateErrors as Logged[]) hideValues(inner);
}
