import type { Resource } from './types';

/** Columns and filters that name a record's provider. */
export const PROVIDER_KEYS: ReadonlySet<string> = new Set(['providerId', 'providerName']);

/**
 * The user info's `isShowProvider` (spec §3, §6): a user who sees one provider only (a common
 * provider without sub-providers) gets no provider columns or filters, which would repeat its own
 * name on every row. Forms keep their provider field: it is still the record's owner.
 */
export function withProviderScope(resource: Resource, showProvider: boolean): Resource {
  if (showProvider || resource.keepProviderColumns) return resource;
  return {
    ...resource,
    columns: resource.columns.filter((c) => !PROVIDER_KEYS.has(c.key)),
    detailColumns: resource.detailColumns?.filter((c) => !PROVIDER_KEYS.has(c.key)),
    search: resource.search?.filter((s) => !PROVIDER_KEYS.has(s.key)),
  };
}
