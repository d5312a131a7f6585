import type { RowActionDef } from './types';

type Row = Record<string, unknown>;

/**
 * A row action that asks first (系统提示) and then calls the server: the common shape of
 * enable/disable, "set as …" and similar one-click operations.
 */
export function confirmAction<R = Row>(def: {
  key: string;
  label: string;
  permi?: string[];
  danger?: boolean;
  hidden?: (row: R) => boolean;
  /** Catalogue key of the question and its parameters for this row. */
  content: string;
  params?: (row: R) => Record<string, unknown>;
  run: (row: R) => Promise<unknown>;
  success?: string;
}): RowActionDef<R> {
  const { content, params, run, success, ...rest } = def;
  return {
    ...rest,
    onClick: (row, ctx) => ctx.confirm({ content, params: params?.(row), success, onOk: () => run(row) }),
  };
}
