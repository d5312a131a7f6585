import { Button, Flex, Tree, Typography, theme, type TreeDataNode } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { allKeys, checkedToGrants, grantsToChecked, permissionParts, permissionTree, type Grants, type PermNode } from './permission-tree';

const EMPTY: Grants = { rolePaths: [], permissions: [] };
/** The system menus open: the only ones with operation permissions so far. */
const DEFAULT_EXPANDED = permissionTree()
  .filter((n) => allKeys([n]).some((k) => !k.startsWith('/')))
  .flatMap((n) => [n.key, ...n.children.filter((c) => c.children.length > 0).map((c) => c.key)]);

/** A permission's label from its resource and action names, e.g. "角色：新增" / "Role: add". */
export function permissionLabel(t: TFunction, permission: string): string {
  const { resource, action } = permissionParts(permission);
  return t('role.permissionLabel', { resource: t(`role.permResources.${resource}`), action: t(`role.permActions.${action}`) });
}

function toTreeData(nodes: PermNode[], t: TFunction): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title:
      n.kind === 'menu' ? (
        t(`menu.${n.name}`)
      ) : n.kind === 'access' ? (
        <Typography.Text type="secondary">{t('role.pageAccess')}</Typography.Text>
      ) : (
        <Typography.Text type="secondary" data-permission={n.key}>
          {permissionLabel(t, n.key)}
        </Typography.Text>
      ),
    children: n.children.length ? toTreeData(n.children, t) : undefined,
  }));
}

export interface PermissionTreeInputProps {
  /** Injected by Form.Item. */
  value?: Grants;
  onChange?: (value: Grants) => void;
  disabled?: boolean;
}

/** The role's menus and operation permissions as one checkable tree (Form.Item value: `Grants`). */
export function PermissionTreeInput({ value, onChange, disabled }: PermissionTreeInputProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const nodes = useMemo(() => permissionTree(), []);
  const treeData = useMemo(() => toTreeData(nodes, t), [nodes, t]);
  const checked = useMemo(() => grantsToChecked(value ?? EMPTY, nodes), [value, nodes]);
  const set = (keys: string[]) => onChange?.(checkedToGrants(keys, nodes));
  return (
    <div
      data-testid="permission-tree"
      style={{ border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, padding: 8, maxHeight: 360, overflow: 'auto' }}
    >
      <Flex gap={8} style={{ marginBottom: 4 }}>
        <Button size="small" type="link" disabled={disabled} onClick={() => set(allKeys(nodes))}>
          {t('role.checkAll')}
        </Button>
        <Button size="small" type="link" disabled={disabled} onClick={() => set([])}>
          {t('role.checkNone')}
        </Button>
      </Flex>
      <Tree
        checkable
        selectable={false}
        disabled={disabled}
        defaultExpandedKeys={DEFAULT_EXPANDED}
        treeData={treeData}
        checkedKeys={checked}
        onCheck={(keys) => set((Array.isArray(keys) ? keys : keys.checked).map(String))}
      />
    </div>
  );
}
