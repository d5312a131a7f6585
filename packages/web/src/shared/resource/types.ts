import type { BodyOf, DataOf, DictType, EndpointDef, QueryOf } from '@csms/contract';
import type { FormInstance } from 'antd';
import type { ReactNode } from 'react';
import type { z } from 'zod';

type Row = Record<string, unknown>;
export type RowOf<L> = DataOf<L> extends { list: Array<infer R> } ? R : Row;
type Keys<T> = Extract<keyof T, string>;
type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type BodyKeys<A, K extends string> = A extends { [P in K]: infer X } ? Keys<BodyOf<X>> : never;
type SchemaKeys<S, K extends string> = S extends { [P in K]: infer X } ? Keys<InputOf<X>> : never;

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

export type CellKind = 'text' | 'datetime' | 'date' | 'number' | 'image' | 'file';

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
}

export type SearchKind = 'text' | 'number' | 'select' | 'dict' | 'date' | 'dateRange';

export type SearchDef<Q = Row> =
  | { key: Keys<Q>; kind: Exclude<SearchKind, 'dateRange'>; label?: string; dict?: DictType; options?: Option[] }
  /** Two query keys (from, to) edited by one range picker; `key` only names the label. */
  | { key: string; kind: 'dateRange'; keys: [Keys<Q>, Keys<Q>]; label?: string; format?: string };

export type FormKind = 'text' | 'password' | 'textarea' | 'number' | 'select' | 'dict' | 'switch' | 'image' | 'file' | 'date' | 'datetime' | 'custom';

export interface FormFieldCtx {
  mode: 'create' | 'edit';
  form: FormInstance;
}

export interface FormFieldDef<K extends string = string> {
  key: K;
  kind: FormKind;
  label?: string;
  /** Shows the asterisk; by default derived from the schema (a field that refuses `undefined`). */
  required?: boolean;
  dict?: DictType;
  options?: Option[];
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
}

export interface RowActionCtx {
  refetch: () => void;
  openEdit: (row: Row) => void;
  openDetail: (row: Row) => void;
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

export interface ResourceDef<A extends ApiShape, S extends SchemaShape = SchemaShape> {
  /** Vocabulary key: labels from `fields.<name>.<key>`, noun from the UI catalogue `<name>.entity`. */
  name: string;
  api: A;
  permissions: { list?: string; query?: string; add?: string; edit?: string; remove?: string; export?: string };
  rowKey?: Keys<RowOf<A['list']>>;
  columns: ColumnDef<RowOf<A['list']>>[];
  search?: SearchDef<QueryOf<A['list']>>[];
  form?: FormFieldDef<FormKeys<A, S>>[];
  /** Defaults to the bodies of `api.add` and `api.edit`. */
  formSchema?: S;
  /** Dialog width; default 1000 for more than six fields, else 600. */
  formWidth?: number;
  /** Record → form values, and validated form values → request body. */
  toForm?: (row: RowOf<A['list']>) => Row;
  toBody?: (values: Row, mode: 'create' | 'edit') => Row;
  rowActions?: RowActionDef<RowOf<A['list']>>[];
  /** Built-in row buttons to leave out. */
  hideActions?: Array<'detail' | 'edit' | 'remove'>;
}

/** The erased shape ResourcePage consumes. */
export interface Resource {
  name: string;
  api: ApiShape;
  permissions: ResourceDef<ApiShape>['permissions'];
  rowKey?: string;
  columns: ColumnDef<Row>[];
  search?: SearchDef<Row>[];
  form?: FormFieldDef[];
  formSchema?: { create?: z.ZodType; edit?: z.ZodType };
  formWidth?: number;
  toForm?: (row: Row) => Row;
  toBody?: (values: Row, mode: 'create' | 'edit') => Row;
  rowActions?: RowActionDef<Row>[];
  hideActions?: Array<'detail' | 'edit' | 'remove'>;
}

/** Declare a screen: typed against its contract endpoints, consumed by `<ResourcePage>`. */
export function defineResource<A extends ApiShape, S extends SchemaShape = Record<never, never>>(def: ResourceDef<A, S>): Resource {
  return def as unknown as Resource;
}
