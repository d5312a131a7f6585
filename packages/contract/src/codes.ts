/** Envelope codes of DESIGN.md §4. HTTP status is 200 for all of them. */
export const Code = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SERVER_ERROR: 500,
  WARN: 601,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}
