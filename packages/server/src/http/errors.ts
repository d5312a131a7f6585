import { Code } from '@csms/contract';

/**
 * A failure with a vocabulary key; translated once, at the edge, into the caller's language.
 * `field` marks the input field at fault (400) so that the form can highlight it.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: string,
    readonly params: Record<string, unknown> = {},
    readonly field?: string,
  ) {
    super(key);
  }
}

export const notFound = () => new AppError(Code.NOT_FOUND, 'errors.notFound');
export const conflict = (key: string, params?: Record<string, unknown>, field?: string) => new AppError(Code.CONFLICT, key, params, field);
export const badField = (field: string, key: string, params?: Record<string, unknown>) =>
  new AppError(Code.BAD_REQUEST, key, params, field);
