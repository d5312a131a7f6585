import { issueToFieldErrorWith, type Lang } from '@csms/contract';
import dayjs from 'dayjs';
import type { z } from 'zod';
import { vocabularyLookup } from '../../i18n';
import { DATE_FORMAT } from './cells';
import type { FormFieldCtx, FormFieldDef, Resource } from './types';
import { shapeKeys } from './url-query';

type Values = Record<string, unknown>;
export type Mode = 'create' | 'edit';

export function schemaOf(resource: Resource, mode: Mode): z.ZodType | undefined {
  return mode === 'create'
    ? (resource.formSchema?.create ?? resource.api.add?.body)
    : (resource.formSchema?.edit ?? resource.api.edit?.body);
}

export function fieldsFor(resource: Resource, mode: Mode, ctx?: FormFieldCtx): FormFieldDef[] {
  return (resource.form ?? []).filter((f) => (!f.on || f.on === mode) && (!ctx || !f.visible || f.visible(ctx)));
}

/** A field is required when its schema refuses `undefined`. */
export function isRequired(schema: z.ZodType | undefined, key: string): boolean {
  const field = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.[key];
  return field ? !field.safeParse(undefined).success : false;
}

/** A record as the dialog's values: dates become dayjs, nulls become empty. */
export function recordToValues(resource: Resource, record: Values): Values {
  const source = resource.toForm ? resource.toForm(record) : record;
  const out: Values = {};
  for (const f of resource.form ?? []) {
    const v = source[f.key];
    if (v === null || v === undefined) continue;
    out[f.key] = (f.kind === 'date' || f.kind === 'datetime') && typeof v === 'string' ? dayjs(v) : v;
  }
  return out;
}

/**
 * The request body from the dialog's values. An edit starts from the record's keys the edit
 * schema knows (the id and anything the form does not show), then the form's values on top.
 */
export function valuesToBody(resource: Resource, mode: Mode, values: Values, record?: Values): Values {
  const body: Values = {};
  if (mode === 'edit' && record) {
    const keys = shapeKeys(schemaOf(resource, 'edit')) ?? [resource.rowKey ?? 'id'];
    for (const k of keys) if (record[k] !== null && record[k] !== undefined) body[k] = record[k];
  }
  const kinds = new Map((resource.form ?? []).map((f) => [f.key, f.kind]));
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === undefined) {
      delete body[k];
      continue;
    }
    if (dayjs.isDayjs(v)) body[k] = kinds.get(k) === 'date' ? v.format(DATE_FORMAT) : v.toISOString();
    else body[k] = v;
  }
  return resource.toBody ? resource.toBody(body, mode) : body;
}

/** The message the server would give for `key`, in the caller's language, or null when the field is valid. */
export function fieldMessage(schema: z.ZodType | undefined, lang: Lang, name: string, key: string, body: Values): string | null {
  if (!schema) return null;
  const result = schema.safeParse(body);
  if (result.success) return null;
  const issue = result.error.issues.find(
    (i) => String(i.path[0] ?? '') === key || (i.code === 'unrecognized_keys' && i.keys.includes(key)),
  );
  return issue ? issueToFieldErrorWith(vocabularyLookup(lang), name, issue, body).msg : null;
}
