/**
 * A JSON value in a row read with `db.execute`: the driver parses a `json` or `jsonb` column, and one
 * that arrives as text (a driver without that parser, a column cast to text) is parsed here.
 */
export const jsonCell = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
