import { z } from 'zod';

/**
 * Who may call an endpoint. Every endpoint states one; the server refuses to start with a
 * route that has none, and the conformance test walks them all.
 *  - public:  no session needed (sign-in, captcha, health)
 *  - session: any signed-in user (own profile, dictionaries, logout)
 *  - { permi }: the permission `<area>:<resource>:<action>` (admin and `*:*:*` pass)
 *  - { anyPermi }: any one of these permissions (a picker that several screens use)
 *  - { role }:  a role key (admin passes)
 */
export type Access = 'public' | 'session' | { permi: string } | { anyPermi: readonly string[] } | { role: string };

export type Method = 'GET' | 'POST';

export interface EndpointDef<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  method: Method;
  /** Path below `/prod-api`, exactly as the spec names it. */
  path: string;
  access: Access;
  /** Vocabulary key that names fields in messages: `fields.<resource>.<key>`. */
  resource: string;
  /** Operation recorded in the system log; mutations only. */
  operation?: string;
  /** POSTs are mutations unless marked as queries (search by body). */
  mutation: boolean;
  query?: Q;
  body?: B;
  data: D;
  /** Path parameters (`/system/dict/data/type/:type`). */
  params?: z.ZodObject;
  /**
   * Reply is not the plain envelope: `flat` spreads `data` beside code and msg (the spec's
   * upload and captcha shapes), `download` streams a file, `stream` is server-sent events.
   */
  raw?: RawKind;
  /** Accepts a form-encoded body as well as JSON (the download helper's form POST); others refuse one. */
  form?: boolean;
  summary?: string;
}

export type RawKind = 'flat' | 'download' | 'stream';

type Opt<T extends z.ZodType | undefined> = T extends z.ZodType ? T : z.ZodUndefined;

export function endpoint<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  D extends z.ZodType = z.ZodNull,
>(def: {
  method: Method;
  path: string;
  access: Access;
  resource: string;
  operation?: string;
  mutation?: boolean;
  query?: Q;
  body?: B;
  params?: z.ZodObject;
  data?: D;
  raw?: RawKind;
  form?: boolean;
  summary?: string;
}): EndpointDef<Opt<Q>, Opt<B>, D> {
  return {
    ...def,
    mutation: def.mutation ?? def.method === 'POST',
    data: (def.data ?? z.null()) as D,
  } as unknown as EndpointDef<Opt<Q>, Opt<B>, D>;
}

export type QueryOf<E> = E extends EndpointDef<infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type BodyOf<E> = E extends EndpointDef<z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type DataOf<E> = E extends EndpointDef<z.ZodType, z.ZodType, infer D> ? z.output<D> : never;
export type ParsedQuery<E> = E extends EndpointDef<infer Q, z.ZodType, z.ZodType> ? z.output<Q> : never;
export type ParsedBody<E> = E extends EndpointDef<z.ZodType, infer B, z.ZodType> ? z.output<B> : never;

/** Page sizes the console offers (spec §9); 1000 only where the spec asks (messages). */
export const pageSizes = [10, 20, 50, 300] as const;
export const longPageSizes = [...pageSizes, 1000] as const;

const pageQueryOf = (sizes: readonly number[], message: string) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce
      .number()
      .int()
      .refine((n) => sizes.includes(n), { message })
      .default(10),
  });

/** `page` from 1 and `limit` one of the spec's page sizes. */
export const pageQuery = pageQueryOf(pageSizes, 'validation.pageSize');
/** The message list's paging, which also offers 1000 per page (spec §8). */
export const longPageQuery = pageQueryOf(longPageSizes, 'validation.pageSizeLong');

/**
 * A page of a list and how many rows match. Lists of records, logs and drivers count exactly up to
 * 10,000 matching rows (the OCPP log up to 1,000); past that `total` is the database's estimate,
 * never below the limit + 1, and `totalEstimated` is true, so a screen can say "about". The last
 * page, shorter than the page size, always gives the exact total.
 */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), totalEstimated: z.boolean().optional() });
}

export const idsBody = z.object({ ids: z.array(z.number().int().positive()).min(1) });
export const idBody = z.object({ id: z.number().int().positive() });

/** Export request: the list's filters plus the file format and an id that progress events carry. */
export const exportOptions = z.object({
  format: z.enum(['xlsx', 'csv']).default('xlsx'),
  exportId: z.string().max(64).optional(),
});

/** `?id=` of a single-row read. */
export const idQuery = z.object({ id: z.coerce.number().int().positive() });

/** What one endpoint of `crud()` states otherwise than the convention. */
export interface CrudVariant {
  /** The last path segment where the spec names one (`createOrg`); a path from `/` leaves the base (`/web/getProvider`). */
  path?: string;
  access?: Access;
  /** The logged operation of a change. */
  operation?: string;
  summary?: string;
}

/**
 * The endpoints of a resource, each shape written once: `list` (page and filter in the query;
 * `search` takes them in the body), `get` (`?id=`), `add`, `edit`, `remove` (ids), `export`
 * (the filter and `exportOptions`, a download) and `action` for its other changes. Paths follow
 * the `/web/{resource}/{action}` convention of DESIGN.md §4 (another `base` for the spec's
 * areas); access is the permission `<permission>:<action>`, `get` and `search` needing `query`
 * and `list`. A `CrudVariant` states where an endpoint differs; `path` and `permi` serve the
 * resource's hand-written endpoints.
 */
export function crud(resource: string, permission: string, base = `/web/${resource}`) {
  const path = (action: string) => (action.startsWith('/') ? action : `${base}/${action}`);
  const permi = (action: string) => ({ permi: `${permission}:${action}` });
  const at = (action: string, permiAction: string, v: CrudVariant) => ({
    path: path(v.path ?? action),
    access: v.access ?? permi(permiAction),
    resource,
    summary: v.summary,
  });
  return {
    path,
    permi,
    list: <S extends z.ZodRawShape, I extends z.ZodType>(filter: z.ZodObject<S>, item: I, v: CrudVariant = {}) =>
      endpoint({ method: 'GET', ...at('list', 'list', v), query: pageQuery.extend(filter.shape), data: listOf(item) }),
    /** The list's search by body, for the spec's POST searches. */
    search: <S extends z.ZodRawShape, I extends z.ZodType>(filter: z.ZodObject<S>, item: I, v: CrudVariant = {}) =>
      endpoint({ method: 'POST', ...at('search', 'list', v), mutation: false, body: pageQuery.extend(filter.shape), data: listOf(item) }),
    get: <I extends z.ZodType>(item: I, v: CrudVariant = {}) =>
      endpoint({ method: 'GET', ...at('get', 'query', v), query: idQuery, data: item }),
    add: <B extends z.ZodType, I extends z.ZodType>(body: B, item: I, v: CrudVariant = {}) =>
      endpoint({ method: 'POST', ...at('add', 'add', v), operation: v.operation ?? 'add', body, data: item }),
    edit: <B extends z.ZodType, I extends z.ZodType>(body: B, item: I, v: CrudVariant = {}) =>
      endpoint({ method: 'POST', ...at('edit', 'edit', v), operation: v.operation ?? 'edit', body, data: item }),
    remove: (v: CrudVariant = {}) =>
      endpoint({
        method: 'POST',
        ...at('remove', 'remove', v),
        operation: v.operation ?? 'remove',
        body: idsBody,
        data: z.object({ removed: z.number() }),
      }),
    /** Any other change: `name` is the path segment, the permission's action and the logged operation. */
    action: <B extends z.ZodType, I extends z.ZodType>(name: string, body: B, data: I, v: CrudVariant = {}) =>
      endpoint({ method: 'POST', ...at(name, name, v), operation: v.operation ?? name, body, data }),
    export: <S extends z.ZodRawShape>(filter: z.ZodObject<S>, v: CrudVariant = {}) =>
      endpoint({
        method: 'POST',
        ...at('export', 'export', v),
        operation: v.operation ?? 'export',
        mutation: false,
        body: filter.extend(exportOptions.shape),
        raw: 'download',
      }),
  };
}

/**
 * The first rows of a select's options (`limit`, by name), the rows of the values it shows
 * (`ids`, comma-separated) beside them: a select searches the rest on the server by name.
 */
export const optionsWindow = {
  limit: z.coerce.number().int().min(1).max(100).optional(),
  ids: z
    .string()
    .regex(/^\d+(,\d+){0,99}$/)
    .optional(),
};

/** Optional free text; an empty string clears the value (the repo stores null). */
export const optText = (max: number) => z.string().trim().max(max).optional();

/** Optional e-mail; empty clears it. */
export const optEmail = z.union([z.literal(''), z.email().max(100)]).optional();

/** Phone numbers: digits with an optional leading +, spaces and dashes. */
export const phoneNumber = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 -]{3,28}[0-9]$/);

/**
 * A time filter of a record list: a day `YYYY-MM-DD`, which the server bounds on the wall clock of
 * the list's zone (the station's where the list is of one station, else the default zone: see
 * `dayZone`), or an ISO date-time, used as it is; empty means no filter.
 */
export const dayFilter = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.coerce.date()]).optional(),
);

/** A time filter from a query string or body: ISO date or date-time; empty means no filter. */
export const timeFilter = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.date().optional());
