import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Flex, Popover, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { Authorized } from '../auth/authorized';
import type { ResourceText } from './labels';
import type { BatchActionDef, ColumnDef } from './types';

/** Renders children only with a declared permission the user holds (deny by default), or when `open` (the endpoint's access is `session`). */
export function Gate({ permi, open, children }: { permi?: string; open?: boolean; children: ReactNode }) {
  if (open) return <>{children}</>;
  return permi ? <Authorized permi={[permi]}>{children}</Authorized> : null;
}

export interface ToolbarProps {
  text: ResourceText;
  permissions: { add?: string; remove?: string; export?: string };
  canAdd: boolean;
  canRemove: boolean;
  canExport: boolean;
  /** The export endpoint is open to every signed-in user (its contract access is `session`). */
  sessionExport?: boolean;
  selectedCount: number;
  /** Buttons on the selected rows, enabled when a selected row applies. */
  batchActions?: BatchActionDef[];
  selectedRows?: Record<string, unknown>[];
  onAdd: () => void;
  onBatchRemove: () => void;
  onExport: (format: 'xlsx' | 'csv') => void;
  /** Offers the export's column settings in the export menu. */
  onExportColumns?: () => void;
  showSearch: boolean | null;
  onToggleSearch: () => void;
  onRefresh: () => void;
  columns: ColumnDef[];
  hidden: string[];
  onHiddenChange: (hidden: string[]) => void;
}

/** Buttons above the table: add, batch delete, batch buttons, export; search toggle, refresh, column settings. */
export function Toolbar(p: ToolbarProps) {
  const { t } = p.text;
  const columnPicker = (
    <Checkbox.Group
      style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
      value={p.columns.map((c) => c.key).filter((k) => !p.hidden.includes(k))}
      options={p.columns.map((c) => ({ value: c.key, label: p.text.label(c.key, c.label) }))}
      onChange={(shown) => p.onHiddenChange(p.columns.map((c) => c.key).filter((k) => !shown.includes(k)))}
    />
  );
  return (
    <Flex justify="space-between" align="center" gap={10} style={{ marginBottom: 10 }} wrap>
      <Space size={10} wrap>
        {p.canAdd && (
          <Gate permi={p.permissions.add}>
            <Button type="primary" ghost icon={<PlusOutlined />} onClick={p.onAdd}>
              {t('common.add')}
            </Button>
          </Gate>
        )}
        {p.canRemove && (
          <Gate permi={p.permissions.remove}>
            <Button danger ghost icon={<DeleteOutlined />} disabled={p.selectedCount === 0} onClick={p.onBatchRemove}>
              {t('kit.batchDelete')}
            </Button>
          </Gate>
        )}
        {(p.batchActions ?? []).map((b) => {
          const rows = (p.selectedRows ?? []).filter((r) => b.applies?.(r) ?? true);
          const button = (
            <Button key={b.key} icon={b.icon} disabled={rows.length === 0} onClick={() => void b.onClick(rows)}>
              {t(b.label)}
            </Button>
          );
          return b.permi ? (
            <Gate key={b.key} permi={b.permi}>
              {button}
            </Gate>
          ) : (
            button
          );
        })}
        {p.canExport && (
          <Gate permi={p.permissions.export} open={p.sessionExport}>
            <Dropdown
              menu={{
                items: [
                  { key: 'xlsx', label: t('kit.exportXlsx') },
                  { key: 'csv', label: t('kit.exportCsv') },
                  ...(p.onExportColumns
                    ? [{ type: 'divider' as const }, { key: 'columns', icon: <SettingOutlined />, label: t('kit.exportColumns') }]
                    : []),
                ],
                onClick: ({ key }) => (key === 'columns' ? p.onExportColumns?.() : p.onExport(key as 'xlsx' | 'csv')),
              }}
            >
              <Button icon={<DownloadOutlined />} color="orange" variant="outlined">
                {t('common.export')}
              </Button>
            </Dropdown>
          </Gate>
        )}
      </Space>
      <Space size={8}>
        {p.showSearch !== null && (
          <Tooltip title={t(p.showSearch ? 'kit.hideSearch' : 'kit.showSearch')}>
            <Button
              shape="circle"
              icon={<SearchOutlined />}
              aria-label={t(p.showSearch ? 'kit.hideSearch' : 'kit.showSearch')}
              onClick={p.onToggleSearch}
            />
          </Tooltip>
        )}
        <Tooltip title={t('common.refresh')}>
          <Button shape="circle" icon={<ReloadOutlined />} aria-label={t('common.refresh')} onClick={p.onRefresh} />
        </Tooltip>
        <Popover trigger="click" placement="bottomRight" title={t('kit.columns')} content={columnPicker}>
          <Tooltip title={t('kit.columns')}>
            <Button shape="circle" icon={<SettingOutlined />} aria-label={t('kit.columns')} />
          </Tooltip>
        </Popover>
      </Space>
    </Flex>
  );
}
