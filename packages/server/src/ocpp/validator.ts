import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { RpcErrorCode } from './rpc.js';

/**
 * OCA's OCPP 1.6 and 2.0.1 JSON schemas, as shipped verbatim by ocpp-rpc (`lib/schemas/ocpp1_6.json`,
 * `lib/schemas/ocpp2_0_1.json`, MIT).
 * Only those files are used, never ocpp-rpc's runtime; it is read from the package so the copy can
 * never drift. Compiled once per process.
 */
const require = createRequire(import.meta.url);

export type Direction = 'req' | 'conf';

export interface SchemaViolation {
  code: RpcErrorCode;
  description: string;
  details: { errors: Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params'>[] };
}

/** RFC 3339 date-time with a zone designator, as OCPP-J requires (ajv-formats is not installed). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})$/;

function isDateTime(s: string): boolean {
  return DATE_TIME.test(s) && !Number.isNaN(Date.parse(s));
}

function isUri(s: string): boolean {
  try {
    return new URL(s).protocol.length > 1;
  } catch {
    return false;
  }
}

/**
 * OCPP-J 1.6 §4.2.3 error classes for a schema violation: the wrong JSON type of a field is a
 * TypeConstraintViolation; a missing required or an unexpected (additional) field, or too many or
 * too few items, an OccurenceConstraintViolation; a value outside its allowed set or bounds
 * (enum, length, format, range) a PropertyConstraintViolation; a payload that is not an object at
 * all a FormationViolation.
 */
export function classify(error: ErrorObject): RpcErrorCode {
  switch (error.keyword) {
    case 'type':
      return error.instancePath === '' ? 'FormationViolation' : 'TypeConstraintViolation';
    case 'required':
    case 'additionalProperties':
    case 'additionalItems':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
    case 'dependencies':
      return 'OccurenceConstraintViolation';
    default:
      return 'PropertyConstraintViolation';
  }
}

export interface OcppValidator {
  /** null when valid, else the violation with its OCPP error class. */
  validate(action: string, direction: Direction, payload: unknown): SchemaViolation | null;
}

function build(file: 'ocpp1_6' | 'ocpp2_0_1'): OcppValidator {
  const schemas = require(`ocpp-rpc/lib/schemas/${file}.json`) as { $id: string }[];
  const ajv = new Ajv({ strict: false, allErrors: false, multipleOfPrecision: 6, validateSchema: false });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('uri', { type: 'string', validate: isUri });
  // Compiled on first use (start-up stays quick), once per schema. Without their ids: "urn:Authorize.req"
  // is not a URN ajv's URI library accepts, and nothing refers to them.
  const sources = new Map(schemas.map(({ $id, ...schema }) => [$id.replace(/^urn:/, ''), schema]));
  const compiled = new Map<string, ValidateFunction>();
  const get = (name: string) => {
    let fn = compiled.get(name);
    if (!fn) {
      const source = sources.get(name);
      if (!source) return undefined;
      compiled.set(name, (fn = ajv.compile(source)));
    }
    return fn;
  };

  return {
    validate(action, direction, payload) {
      const fn = get(`${action}.${direction}`);
      if (!fn) return { code: 'NotImplemented', description: `unknown action ${action}`, details: { errors: [] } };
      if (fn(payload)) return null;
      const errors = (fn.errors ?? []).map(({ instancePath, keyword, message, params }) => ({ instancePath, keyword, message, params }));
      const first = fn.errors?.[0];
      const where = first?.instancePath || '/';
      return {
        code: first ? classify(first) : 'FormationViolation',
        description: `${action}.${direction} ${where} ${first?.message ?? 'is invalid'}`.slice(0, 255),
        details: { errors },
      };
    },
  };
}

let instance: OcppValidator | undefined;
let instance201: OcppValidator | undefined;

/** The OCPP 1.6 validator, shared by every connection. */
export function ocpp16Validator(): OcppValidator {
  instance ??= build('ocpp1_6');
  return instance;
}

/**
 * The OCPP 2.0.1 validator: OCA's 2.0.1 schemas from the same package (`lib/schemas/ocpp2_0_1.json`,
 * named `<Action>.req` / `<Action>.conf` there too). Its error classes are 1.6's names; the session
 * of a 2.0.1 charger respells them (`ocpp201Code`).
 */
export function ocpp201Validator(): OcppValidator {
  instance201 ??= build('ocpp2_0_1');
  return instance201;
}
