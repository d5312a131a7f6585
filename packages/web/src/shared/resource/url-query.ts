import type { EndpointDef } from '@csms/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

export type ListQuery = Record<string, unknown> & { page: number; limit: number };

const DEFAULTS = { page: 1, limit: 10 };

function shapeKeys(schema: z.ZodType | undefined): string[] | undefined {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : undefined;
}

/**
 * The list query from the URL, validated by the list endpoint's query schema: keys the schema
 * does not know are ignored, and a value it refuses is dropped (so a hand-edited link still opens).
 */
export function parseListQuery(schema: z.ZodType | undefined, params: URLSearchParams): ListQuery {
  const known = shapeKeys(schema);
  const raw: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    if (known && !known.includes(key)) continue;
    const all = params.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  if (!schema) return { ...DEFAULTS, ...raw } as ListQuery;
  for (let attempt = 0; attempt <= Object.keys(raw).length; attempt++) {
    const result = schema.safeParse(raw);
    if (result.success) return { ...DEFAULTS, ...(result.data as Record<string, unknown>) } as ListQuery;
    for (const issue of result.error.issues) delete raw[String(issue.path[0])];
  }
  return { ...DEFAULTS };
}

/** The query string of a list query: empty filters and default paging are left out. */
export function toSearchParams(query: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if ((key === 'page' || key === 'limit') && Number(value) === DEFAULTS[key]) continue;
    if (Array.isArray(value)) value.forEach((v) => out.append(key, String(v)));
    else out.set(key, String(value));
  }
  return out;
}

/** The filters alone (no paging), e.g. for an export request. */
export function filtersOf(query: Record<string, unknown>, allowed?: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'page' || k === 'limit' || v === undefined || v === '') continue;
    if (allowed && !allowed.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

export { shapeKeys };

/** The open tab of a page with several lists (`ResourceTabs`); a list's own query keeps it. */
export const TAB_PARAM = 'tab';

/** A list's query kept in the URL: back, refresh and shared links restore the view (CONVENTIONS §8). */
export function useListQuery(list: EndpointDef) {
  const [params, setParams] = useSearchParams();
  // A list searched by POST takes its filters from the body schema.
  const schema = list.query ?? list.body;
  const query = useMemo(() => parseListQuery(schema, params), [schema, params]);
  const setQuery = useCallback(
    (next: Record<string, unknown>) =>
      setParams((prev) => {
        const out = toSearchParams(next);
        const tab = prev.get(TAB_PARAM);
        if (tab) out.set(TAB_PARAM, tab);
        return out;
      }),
    [setParams],
  );
  return { query, setQuery };
}
