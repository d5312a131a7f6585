import type { BodyOf, DataOf, DictType, EndpointDef, ExportSource, QueryOf } from '@csms/contract';
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { z } from 'zod';

type Row = Record<string, unknown>;
export type RowOf<L> = DataOf<L> extends { list: Array<infer R> } ? R : Row;
/** The record `api.get` answers (the detail view's extra columns name its keys). */
export type GetRowOf<A> = A extends { get: infer G } ? (DataOf<G> extends Row ? DataOf<G> : Row) : Row;
type Keys<T> = Extract<keyof T, string>;
type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type BodyKeys<A, K extends string> = A extends { [P in K]: infer X } ? Keys<BodyOf<X>> : never;
type SchemaKeys<S, K extends string> = S extends { [P in K]: infer X } ? Keys<InputOf<X>> : never;
/** A list's filters: its query, or its body for a list searched by POST (`getConditionProviders`). */
export type FilterOf<L> = [QueryOf<L>] extends [undefined] ? BodyOf<L> : QueryOf<L>;

export interface ApiShape {
  list: EndpointDef;
  get?: EndpointDef;
  add?: EndpointDef;
  edit?: EndpointDef;
  remove?: EndpointDef;
  export?: EndpointDef;
}
export interface SchemaShape {
  create?: z.ZodType;
  edit?: z.ZodType;
}
/** Keys a form may hold: the create and edit schemas' inputs (the overrides, else the add and edit bodies). */
type FormKeys<A, S> = SchemaKeys<S, 'create'> | SchemaKeys<S, 'edit'> | BodyKeys<A, 'add'> | BodyKeys<A, 'edit'>;

export interface Option {
  value: string | number;
  /** Catalogue key of the label (no literals). */
  label: string;
}

/** How many options a searching select shows before the operator types (the server's `limit`). */
export const OPTIONS_LIMIT = 100;

/** Options loaded from the server; their labels are data, already in the caller's language. */
export interface RemoteOptions {
  /** Cache key of the list (the language is added). */
  key: string;
  load: () => Promise<Array<{ value: string | number; label: string }>>;
  /**
   * Lists too long to load whole (roles, providers): `load` gives the first ones and this searches
   * the server by the typed text (debounced), `values` naming the selected ones so their labels show.
   */
  search?: (text: string, values: Array<string | number>) => Promise<Array<{ value: string | number; label: string }>>;
}

/** `html`: rich text, shown sanitised. */
export type CellKind = 'text' | 'datetime' | 'date' | 'number' | 'image' | 'file' | 'html';

export interface ColumnDef<R = Row> {
  key: Keys<R>;
  /** Catalogue key overriding `fields.<resource>.<key>`. */
  label?: string;
  kind?: CellKind;
  dict?: DictType;
  render?: (value: unknown, row: R) => ReactNode;
  width?: number;
  fixed?: 'left' | 'right';
  ellipsis?: boolean;
  /** Sort the rows on screen (the page the server returned). */
  sorter?: boolean;
  hideInTable?: boolean;
  hideInDetail?: boolean;
  /** Hidden until the user turns it on in the column settings. */
  defaultHidden?: boolean;
  /** In the detail view, spans the whole row (long text, JSON). */
  wide?: boolean;
}

export type SearchKind = 'text' | 'number' | 'select' | 'dict' | 'date' | 'dateRange';

export type SearchDef<Q = Row> =
  | { key: Keys<Q>; kind: Exclude<SearchKind, 'dateRange'>; label?: string; dict?: DictType; options?: Option[]; remote?: RemoteOptions }
  /**
   * Two query keys (from, to) edited by one range picker; `key` only names the label. `instant`
   * sends the start of the first day and the end of the last as ISO instants (time filters).
   * `zoneDays` sends the days as they are, for the server to bound in the list's zone (the
   * station's for a list of one station, `dayZone`), and names that zone beside the picker.
   */
  | {
      key: string;
      kind: 'dateRange';
      keys: [Keys<Q>, Keys<Q>];
      label?: string;
      format?: string;
      instant?: boolean;
      zoneDays?: boolean;
    };

export type FormKind =
  | 'text'
  | 'password'
  | 'textarea'
  /** Rich text (HTML) in the shared editor; images go through the upload endpoint. */
  | 'richtext'
  | 'number'
  | 'select'
  | 'dict'
  | 'switch'
  | 'checkbox'
  | 'image'
  | 'file'
  | 'date'
  | 'datetime'
  | 'custom';

export interface FormFieldCtx {
  mode: 'create' | 'edit';
  form: FormInstance;
  /** The record being edited (undefined in the create dialog). */
  record?: Row;
  t: TFunction;
}

export interface FormFieldDef<K extends string = string> {
  key: K;
  kind: FormKind;
  label?: string;
  /** Shows the asterisk; by default derived from the schema (a field that refuses `undefined`). */
  required?: boolean;
  dict?: DictType;
  options?: Option[];
  /** kind `select`: options from the server instead of `options`. */
  remote?: RemoteOptions;
  /** Only in one of the dialogs. */
  on?: 'create' | 'edit';
  /** Shown but not editable in this mode. */
  readOnlyOn?: 'create' | 'edit';
  /** 24 spans the whole dialog; default 12 in the wide dialog, 24 in the narrow one. */
  span?: 12 | 24;
  /** Extra props for the input (e.g. `{ limit: 1, fileSize: 2, fileType: ['png'] }` for an image). */
  props?: Record<string, unknown>;
  /** kind `custom`: render the input yourself (value/onChange are injected by Form.Item). */
  render?: (ctx: FormFieldCtx) => ReactNode;
  /** Shown only when this holds (e.g. for some users or some records). */
  visible?: (ctx: FormFieldCtx) => boolean;
  /** Catalogue key of a heading (a divider) opening a group of fields; put it on the group's first field. */
  section?: string;
  /** Catalogue key of a hint under the input, or none. */
  extra?: (ctx: FormFieldCtx) => string | undefined;
  /**
   * A server-side check run on blur and on submit once the schema passes (uniqueness):
   * resolves to the message to show, or nothing when the value is fine.
   */
  validate?: (value: unknown, ctx: FormFieldCtx) => Promise<string | null | undefined>;
}

export interface ConfirmOptions {
  /** Catalogue key of the question, with its parameters. */
  content: string;
  params?: Record<string, unknown>;
  onOk: () => Promise<unknown>;
  /** Catalogue key of the success toast; default `common.success`; null when `onOk` tells the outcome itself. */
  success?: string | null;
}

export interface PromptOptions {
  /** Catalogue key of the dialog title. */
  title: string;
  /** Body key the input fills; labelled `fields.<resource>.<field>`. */
  field: string;
  kind?: 'text' | 'password';
  /** A choice among options the server lists instead of typed text; `onOk` gets the chosen value as a string. */
  select?: RemoteOptions;
  /** Catalogue key of a line shown above the input, with its parameters. */
  hint?: string;
  hintParams?: Record<string, unknown>;
  /** Validates `{ ...base, [field]: value }` (the endpoint's body), with the server's messages. */
  schema?: z.ZodType;
  base?: Record<string, unknown>;
  /** Runs the call; the dialog closes when it resolves and stays open when it throws. */
  onOk: (value: string) => Promise<Record<string, unknown> | void>;
  /** Catalogue key of the success toast; what `onOk` resolves with fills its parameters. */
  success?: string;
}

export interface RowActionCtx {
  refetch: () => void;
  openEdit: (row: Row) => void;
  openDetail: (row: Row) => void;
  /** The spec's confirm (系统提示, 确定/取消), then the call, a success toast and a refetch. */
  confirm: (opts: ConfirmOptions) => void;
  /** A one-field dialog (the spec's prompt), validated by the call's schema. */
  prompt: (opts: PromptOptions) => void;
  /** Open another screen (e.g. a related list, filtered). */
  navigate: (to: string) => void;
}

export interface RowActionDef<R = Row> {
  key: string;
  /** Catalogue key of the button text. */
  label: string;
  icon?: ReactNode;
  permi?: string[];
  danger?: boolean;
  hidden?: (row: R) => boolean;
  onClick: (row: R, ctx: RowActionCtx) => void | Promise<void>;
}

/** A toolbar button acting on the selected rows (e.g. download their pictures in one zip). */
export interface BatchActionDef<R = Row> {
  key: string;
  /** Catalogue key of the button text. */
  label: string;
  icon?: ReactNode;
  /** Shown only with this permission; none: to everyone who sees the list (the call checks its own). */
  permi?: string;
  /** Enabled only when the selection holds a row this accepts (default: any selection). */
  applies?: (row: R) => boolean;
  onClick: (rows: R[]) => void | Promise<void>;
}

export interface ResourceDef<A extends ApiShape, S extends SchemaShape = SchemaShape> {
  /** Vocabulary key: labels from `fields.<name>.<key>`, noun from the UI catalogue `<name>.entity`. */
  name: string;
  api: A;
  /**
   * Optional: each button's permission defaults to what its contract endpoint requires (the
   * server's own check), and detail (`query`) to `get`'s, else `list`'s. Set one only to differ.
   */
  permissions?: { list?: string; query?: string; add?: string; edit?: string; remove?: string; export?: string };
  rowKey?: Keys<RowOf<A['list']>>;
  columns: ColumnDef<RowOf<A['list']>>[];
  search?: SearchDef<FilterOf<A['list']>>[];
  form?: FormFieldDef<FormKeys<A, S>>[];
  /** Defaults to the bodies of `api.add` and `api.edit`. */
  formSchema?: S;
  /** Dialog width; default 1000 for more than six fields, else 600. */
  formWidth?: number;
  /** Record → form values, and validated form values → request body. */
  toForm?: (row: RowOf<A['list']>) => Row;
  toBody?: (values: Row, mode: 'create' | 'edit') => Row;
  rowActions?: RowActionDef<RowOf<A['list']>>[];
  /** Toolbar buttons on the selected rows; they make the rows selectable. */
  batchActions?: BatchActionDef<RowOf<A['list']>>[];
  /** Built-in row buttons to leave out. */
  hideActions?: Array<'detail' | 'edit' | 'remove'>;
  /** Rows that are shown but never edited or deleted (e.g. the built-in admin role). */
  rowReadOnly?: (row: RowOf<A['list']>) => boolean;
  /** Rows that may be edited but never deleted (false: no delete button, not selectable). */
  rowRemovable?: (row: RowOf<A['list']>) => boolean;
  /** The record the edit dialog starts from, instead of `api.get` (e.g. a row plus its permissions). */
  load?: (row: RowOf<A['list']>) => Promise<Row>;
  /** Extra columns of the detail view only (keys of `api.get`'s record). */
  detailColumns?: ColumnDef<GetRowOf<A>>[];
  /** The export's column configuration (`getExportConfig` / `exportConfig`), offered beside the export button. */
  exportSource?: ExportSource;
  /** A fixed page size the spec asks for (messages: 1000); the size changer is hidden. */
  pageSize?: number;
  /** Table row identity when `rowKey` is not unique on screen (one message per recipient). */
  rowId?: (row: RowOf<A['list']>) => string;
  /** A row opens below itself; `onExpand` runs when it opens. */
  expandable?: { render: (row: RowOf<A['list']>) => ReactNode; onExpand?: (row: RowOf<A['list']>, ctx: RowActionCtx) => void };
  /** Catalogue keys replacing the kit's texts around saving. */
  texts?: FormTexts;
  /** Add and edit on pages of their own (routes of the screen registry) instead of the dialog. */
  pages?: { create: string; edit: (row: RowOf<A['list']>) => string };
  /** After a successful add or edit, with the call's data (e.g. a key shown once). */
  onSaved?: (data: unknown, mode: 'create' | 'edit') => void;
  /** Values a new record's form starts with. */
  initialValues?: () => Row;
  /**
   * Keep the provider columns and filters for users who see one provider only (the provider
   * list itself, whose name column is the record's own); see `withProviderScope`.
   */
  keepProviderColumns?: boolean;
}

export interface FormTexts {
  /** Title of the create dialog instead of "Add <entity>". */
  createTitle?: string;
  /** Asked (系统提示) before a new record is saved. */
  createConfirm?: string;
  /** Toast after a successful save. */
  saved?: string;
  /** Toast after a failed save (besides the server's reason). */
  saveFailed?: string;
  /** Toast when the list (a search) fails, besides the server's reason. */
  listFailed?: string;
}

/** The erased shape ResourcePage consumes. */
export interface Resource {
  name: string;
  api: ApiShape;
  permissions: NonNullable<ResourceDef<ApiShape>['permissions']>;
  rowKey?: string;
  columns: ColumnDef<Row>[];
  search?: SearchDef<Row>[];
  form?: FormFieldDef[];
  formSchema?: { create?: z.ZodType; edit?: z.ZodType };
  formWidth?: number;
  toForm?: (row: Row) => Row;
  toBody?: (values: Row, mode: 'create' | 'edit') => Row;
  rowActions?: RowActionDef<Row>[];
  batchActions?: BatchActionDef<Row>[];
  hideActions?: Array<'detail' | 'edit' | 'remove'>;
  rowReadOnly?: (row: Row) => boolean;
  rowRemovable?: (row: Row) => boolean;
  load?: (row: Row) => Promise<Row>;
  detailColumns?: ColumnDef<Row>[];
  exportSource?: ExportSource;
  pageSize?: number;
  rowId?: (row: Row) => string;
  expandable?: { render: (row: Row) => ReactNode; onExpand?: (row: Row, ctx: RowActionCtx) => void };
  texts?: FormTexts;
  pages?: { create: string; edit: (row: Row) => string };
  onSaved?: (data: unknown, mode: 'create' | 'edit') => void;
  initialValues?: () => Row;
  keepProviderColumns?: boolean;
}

/** Declare a screen: typed against its contract endpoints, consumed by `<ResourcePage>`. */
const permiOf = (ep: EndpointDef | undefined) =>
  ep && typeof ep.access === 'object' && 'permi' in ep.access ? ep.access.permi : undefined;

export function defineResource<A extends ApiShape, S extends SchemaShape = Record<never, never>>(def: ResourceDef<A, S>): Resource {
  const { api } = def;
  const derived = {
    list: permiOf(api.list),
    query: permiOf(api.get) ?? permiOf(api.list),
    add: permiOf(api.add),
    edit: permiOf(api.edit),
    remove: permiOf(api.remove),
    export: permiOf(api.export),
  };
  return { ...def, permissions: { ...derived, ...def.permissions } } as unknown as Resource;
}
