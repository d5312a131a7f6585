import { DeleteOutlined, DownOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import { pageSizes } from '@csms/contract';
import { Button, ConfigProvider, Dropdown, Space, Table, theme, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { useRef } from 'react';
import { useAuth } from '../auth/useAuth';
import { actionsColumnWidth } from './actions-width';
import { compareBy, renderCell } from './cells';
import type { ResourceText } from './labels';
import type { Resource, RowActionCtx } from './types';

type Row = Record<string, unknown>;
type TableRef = { scrollTo?: (c: { top?: number; index?: number }) => void } | null;

export const TABLE_MAX_HEIGHT = 500;
/** Beyond this many row actions, the rest fold into a "more" menu so the columns stay visible. */
const INLINE_ACTIONS = 3;

export interface ResourceTableProps {
  resource: Resource;
  text: ResourceText;
  rows: Row[];
  total: number;
  /** The total is the server's estimate: shown as "about". */
  totalEstimated?: boolean;
  loading: boolean;
  page: number;
  limit: number;
  hidden: string[];
  selected: Key[];
  onSelect: (keys: Key[], rows: Row[]) => void;
  onPage: (page: number, limit: number) => void;
  onRemove: (ids: Array<string | number>) => void;
  ctx: RowActionCtx;
}

interface Action {
  key: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  run: () => void;
}

/** The buttons shown in the row and those folded into its "more" menu. */
function splitActions(all: Action[]): { inline: Action[]; rest: Action[] } {
  if (all.length <= INLINE_ACTIONS) return { inline: all, rest: [] };
  return { inline: all.slice(0, INLINE_ACTIONS - 1), rest: all.slice(INLINE_ACTIONS - 1) };
}

/** The list: declared columns, row buttons by permission, server-side paging (spec §9). */
export function ResourceTable(p: ResourceTableProps) {
  const { resource, text } = p;
  const { hasPermi } = useAuth();
  const { token } = theme.useToken();
  const { componentSize } = ConfigProvider.useConfig();
  const ref = useRef<TableRef>(null);
  const rowKey = resource.rowKey ?? 'id';
  const may = (permi?: string) => permi !== undefined && hasPermi(permi);
  const off = new Set(resource.hideActions ?? []);
  const { permissions: perm, api } = resource;

  const actionsOf = (row: Row): Action[] => {
    const list: Action[] = [];
    const readOnly = resource.rowReadOnly?.(row) ?? false;
    if (!off.has('detail') && may(perm.query ?? perm.list))
      list.push({ key: 'detail', label: text.t('common.detail'), icon: <EyeOutlined />, run: () => p.ctx.openDetail(row) });
    if (!off.has('edit') && !readOnly && api.edit && may(perm.edit))
      list.push({ key: 'edit', label: text.t('common.edit'), icon: <EditOutlined />, run: () => p.ctx.openEdit(row) });
    if (!off.has('remove') && !readOnly && (resource.rowRemovable?.(row) ?? true) && api.remove && may(perm.remove))
      list.push({
        key: 'remove',
        label: text.t('common.delete'),
        icon: <DeleteOutlined />,
        danger: true,
        run: () => p.onRemove([row[rowKey] as number]),
      });
    for (const a of resource.rowActions ?? []) {
      if (a.hidden?.(row) || (a.permi && !hasPermi(a.permi))) continue;
      list.push({ key: a.key, label: text.t(a.label), icon: a.icon, danger: a.danger, run: () => void a.onClick(row, p.ctx) });
    }
    return list;
  };
  const rowActions = p.rows.map(actionsOf);

  const columns: TableProps<Row>['columns'] = resource.columns
    .filter((c) => !c.hideInTable && !p.hidden.includes(c.key))
    .map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: text.label(c.key, c.label),
      width: c.width,
      fixed: c.fixed,
      ellipsis: c.ellipsis,
      align: 'center',
      sorter: c.sorter ? compareBy(c.key) : undefined,
      render: (_: unknown, row: Row) => renderCell(c, row),
    }));
  if (rowActions.some((all) => all.length > 0)) {
    const title = text.t('common.actions');
    const more = text.t('common.more');
    // As wide as the longest row of buttons in this language, on one line. antd pads cells by
    // `paddingXS` in small and medium tables, by `padding` otherwise (a context size `middle` included).
    const compact = componentSize === 'small' || componentSize === 'medium';
    const width = actionsColumnWidth(
      rowActions.map((all) => {
        const { inline, rest } = splitActions(all);
        const labels = inline.map((a) => ({ label: a.label, icon: a.icon !== undefined }));
        return rest.length > 0 ? [...labels, { label: more, icon: true }] : labels;
      }),
      title,
      { ...token, cellPadding: compact ? token.paddingXS : token.padding },
    );
    columns.push({
      key: '$actions',
      title,
      width,
      fixed: 'right',
      align: 'center',
      render: (_: unknown, row: Row) => {
        const { inline, rest } = splitActions(actionsOf(row));
        return (
          <Space size={0}>
            {inline.map((a) => (
              <Button key={a.key} type="link" size="small" danger={a.danger} icon={a.icon} onClick={a.run}>
                {a.label}
              </Button>
            ))}
            {rest.length > 0 && (
              <Dropdown
                trigger={['click']}
                menu={{ items: rest.map((a) => ({ key: a.key, label: a.label, icon: a.icon, danger: a.danger, onClick: a.run })) }}
              >
                <Button type="link" size="small" icon={<DownOutlined />} iconPlacement="end">
                  {more}
                </Button>
              </Dropdown>
            )}
          </Space>
        );
      },
    });
  }

  const batch = (resource.batchActions ?? []).some((b) => b.permi === undefined || may(b.permi));
  const selectable = (api.remove !== undefined && may(perm.remove)) || batch;
  // Fill the card when it is wide enough, scroll sideways when it is not (columns without a width count 150 px).
  const scrollX = columns.reduce(
    (sum, c) => sum + (typeof c.width === 'number' ? c.width : 150),
    (selectable ? 48 : 0) + (resource.expandable ? 48 : 0),
  );
  return (
    <Table<Row>
      ref={ref as never}
      rowKey={resource.rowId ?? rowKey}
      columns={columns}
      dataSource={p.rows}
      loading={p.loading}
      scroll={{ x: scrollX, y: TABLE_MAX_HEIGHT }}
      rowSelection={
        selectable
          ? {
              selectedRowKeys: p.selected,
              onChange: (keys, rows) => p.onSelect(keys, rows),
              // A row never deleted is still chosen for the batch buttons (the batch delete leaves it out).
              getCheckboxProps: (row) => ({
                disabled: (resource.rowReadOnly?.(row) ?? false) || (!batch && resource.rowRemovable?.(row) === false),
              }),
            }
          : undefined
      }
      expandable={
        resource.expandable
          ? {
              expandedRowRender: (row) => resource.expandable!.render(row),
              onExpand: (expanded, row) => {
                if (expanded) resource.expandable!.onExpand?.(row, p.ctx);
              },
            }
          : undefined
      }
      pagination={{
        current: p.page,
        pageSize: p.limit,
        total: p.total,
        showSizeChanger: resource.pageSize === undefined,
        showQuickJumper: true,
        pageSizeOptions: pageSizes.map(String),
        showTotal: (total) => text.t(p.totalEstimated ? 'kit.totalAbout' : 'kit.total', { total }),
        onChange: (page, limit) => {
          p.onPage(page, limit);
          ref.current?.scrollTo?.({ top: 0 });
          window.scrollTo({ top: 0, behavior: 'smooth' });
        },
      }}
    />
  );
}
