import { OcppError, type Payload } from './ocpp.js';

/**
 * Reading the CSMS's requests field by field, with the CALLERROR OCPP-J 1.6 §4.2.3 names for
 * each kind of mistake: a missing field is an OccurenceConstraintViolation, a wrong JSON type a
 * TypeConstraintViolation, a value outside what the field allows a PropertyConstraintViolation.
 */

export type Shape = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export const isShape = (v: unknown, shape: Shape) =>
  shape === 'integer'
    ? Number.isInteger(v)
    : shape === 'number'
      ? typeof v === 'number' && Number.isFinite(v)
      : shape === 'array'
        ? Array.isArray(v)
        : shape === 'object'
          ? typeof v === 'object' && v !== null && !Array.isArray(v)
          : typeof v === shape;

export function field<T>(p: Payload, key: string, shape: Shape, required: true): T;
export function field<T>(p: Payload, key: string, shape: Shape, required?: false): T | undefined;
export function field<T>(p: Payload, key: string, shape: Shape, required = false): T | undefined {
  const v = p[key];
  if (v === undefined) {
    if (required) throw new OcppError('OccurenceConstraintViolation', `${key} is required`);
    return undefined;
  }
  if (!isShape(v, shape)) throw new OcppError('TypeConstraintViolation', `${key} must be ${shape}`);
  return v as T;
}

export function oneOf<T extends string>(p: Payload, key: string, values: readonly T[], required?: true): T;
export function oneOf<T extends string>(p: Payload, key: string, values: readonly T[], required: false): T | undefined;
export function oneOf<T extends string>(p: Payload, key: string, values: readonly T[], required = true): T | undefined {
  const v = field<string>(p, key, 'string', required as true);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v))
    throw new OcppError('PropertyConstraintViolation', `${key} must be one of ${values.join(', ')}`);
  return v as T;
}

// RFC 3339 as OCPP's dateTime: a date, a time and a zone (Date.parse alone takes far more).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** A dateTime field as epoch ms. */
export function dateTime(p: Payload, key: string, required: true): number;
export function dateTime(p: Payload, key: string, required?: false): number | undefined;
export function dateTime(p: Payload, key: string, required = false): number | undefined {
  const v = field<string>(p, key, 'string', required as true);
  if (v === undefined) return undefined;
  const ms = DATE_TIME.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw new OcppError('PropertyConstraintViolation', `${key} must be an RFC 3339 date-time`);
  return ms;
}
