import type { z } from 'zod';
import { fieldLabel, fieldLabelWith, translate, translateWith, vocabularyOf, type Lang, type VocabularyLookup } from './i18n/index.js';

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
  return issueToFieldErrorWith(vocabularyOf(lang), resource, issue, input);
}

/** `issueToFieldError` in the language a lookup holds (the console's loaded catalogue). */
export function issueToFieldErrorWith(look: VocabularyLookup, resource: string, issue: z.core.$ZodIssue, input: unknown): FieldError {
  const translate = (key: string, params?: Record<string, unknown>) => translateWith(look, key, params);
  const path = issue.path.map(String);
  const field = path.join('.') || (issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : '');
  const label = fieldLabelWith(look, resource, field);
  const value = valueAt(input, issue.path);
  const t = (key: string, params: Record<string, unknown> = {}) => translate(`validation.${key}`, { field: label, ...params });
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
        params[k] = Array.isArray(v) ? v.map((x) => translate(String(x))).join(translate('validation.listSeparator')) : v;
      }
      return { field, msg: translate(issue.message, { ...params, field: label }) };
    }
    default:
      return { field, msg: empty ? t('required') : t('invalidFormat') };
  }
}

/**
 * NUL, which PostgreSQL stores in neither text nor jsonb, and UTF-16 halves without their pair,
 * which cannot be encoded at all: never text a person typed.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const BAD_TEXT_ALL = new RegExp(BAD_TEXT.source, 'g');
export const hasBadText = (s: string) => BAD_TEXT.test(s);
/** `s` with every such character replaced by U+FFFD (for logs and messages). */
export const replaceBadText = (s: string) => s.replace(BAD_TEXT_ALL, '\ufffd');

/**
 * Path of the first string (or object key) in `input` that holds a character no text may hold,
 * or null. Keys are reported with the character replaced, so that the message stays printable.
 */
export function findBadText(input: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof input === 'string') return hasBadText(input) ? path : null;
  if (input === null || typeof input !== 'object' || depth > 32) return null;
  const entries = Array.isArray(input) ? input.map((v, i) => [String(i), v] as const) : Object.entries(input);
  for (const [k, v] of entries) {
    if (hasBadText(k)) return [...path, replaceBadText(k)];
    const found = findBadText(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

/** Validate `input`; on failure, the first issue as a field error. Text with NUL or broken UTF-16 is refused first. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  lang: Lang,
  resource: string,
): { ok: true; value: z.output<S> } | { ok: false; error: FieldError } {
  const bad = findBadText(input);
  if (bad) {
    const field = bad.join('.');
    return { ok: false, error: { field, msg: translate(lang, 'validation.badCharacter', { field: fieldLabel(lang, resource, field) }) } };
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, error: issueToFieldError(lang, resource, issue, input) };
}
