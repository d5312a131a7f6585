import type { z } from 'zod';
import { fieldLabel, translate, type Lang } from './i18n/index.js';

export interface FieldError {
  /** Dotted path of the offending field, e.g. `orgName` or `connectors.0.type`. */
  field: string;
  msg: string;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/**
 * Turn a zod issue into a message that names the field in the caller's language. Shared by
 * the server (400 replies) and the console's forms, so both say the same thing.
 */
export function issueToFieldError(lang: Lang, resource: string, issue: z.core.$ZodIssue, input: unknown): FieldError {
  const path = issue.path.map(String);
  const field = path.join('.') || (issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : '');
  const label = fieldLabel(lang, resource, field);
  const value = valueAt(input, issue.path);
  const t = (key: string, params: Record<string, unknown> = {}) => translate(lang, `validation.${key}`, { field: label, ...params });
  const empty = value === undefined || value === null || value === '';
  switch (issue.code) {
    case 'invalid_type':
      return { field, msg: empty ? t('required') : t('invalidType') };
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return { field, msg: empty || min === 1 ? t('required') : t('tooShort', { min }) };
      if (issue.origin === 'array' || issue.origin === 'set') return { field, msg: t('required') };
      return { field, msg: t('tooSmall', { min }) };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      return { field, msg: issue.origin === 'string' ? t('tooLong', { max }) : t('tooBig', { max }) };
    }
    case 'invalid_format':
      return { field, msg: issue.format === 'email' ? t('invalidEmail') : t('invalidFormat') };
    case 'invalid_value':
      return { field, msg: empty ? t('required') : t('invalidOption') };
    case 'unrecognized_keys':
      return { field, msg: t('unknownField') };
    case 'custom': {
      // Refinements carry a vocabulary key as their message (`validation.passwordMismatch`), and may
      // carry parameters; a list parameter holds vocabulary keys, translated and joined.
      if (!issue.message.startsWith('validation.')) return { field, msg: t('invalidFormat') };
      const params: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((issue.params ?? {}) as Record<string, unknown>)) {
        params[k] = Array.isArray(v) ? v.map((x) => translate(lang, String(x))).join(translate(lang, 'validation.listSeparator')) : v;
      }
      return { field, msg: translate(lang, issue.message, { ...params, field: label }) };
    }
    default:
      return { field, msg: empty ? t('required') : t('invalidFormat') };
  }
}

/** Validate `input`; on failure, the first issue as a field error. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  lang: Lang,
  resource: string,
): { ok: true; value: z.output<S> } | { ok: false; error: FieldError } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, error: issueToFieldError(lang, resource, issue, input) };
}
