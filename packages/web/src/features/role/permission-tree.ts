import { menuTree, permissionCatalogue, type MenuNode, type PermissionGroup } from '@csms/contract';

/** One node of the role editor's tree: a menu of the contract's menuTree, or an operation permission under its menu. */
export interface PermNode {
  key: string;
  /** `access`: opening a menu that also has operations, on its own (a role may see a page without acting on it). */
  kind: 'menu' | 'access' | 'permission';
  /** Menu name (`menu.<name>`) or the permission string. */
  name: string;
  children: PermNode[];
}

/** What a role holds: menu paths and operation permissions (the body of createRole / editRoleInfo). */
export interface Grants {
  rolePaths: string[];
  permissions: string[];
}

/** Menus with their submenus, then the operations the catalogue hangs under each menu. */
export function permissionTree(
  tree: readonly MenuNode[] = menuTree,
  catalogue: readonly PermissionGroup[] = permissionCatalogue,
): PermNode[] {
  const byMenu = new Map(catalogue.map((g) => [g.menu, g.permissions]));
  const walk = (nodes: readonly MenuNode[]): PermNode[] =>
    nodes.map((n) => ({
      key: n.path,
      kind: 'menu',
      name: n.name,
      children: [...walk(n.children ?? []), ...operations(n.path)],
    }));
  const operations = (path: string): PermNode[] => {
    const perms = byMenu.get(path) ?? [];
    if (perms.length === 0) return [];
    return [
      { key: accessKey(path), kind: 'access', name: path, children: [] },
      ...perms.map((p): PermNode => ({ key: p, kind: 'permission', name: p, children: [] })),
    ];
  };
  return walk(tree);
}

/** Key of a menu's "page access" leaf. */
export const accessKey = (path: string) => `access:${path}`;

function flatten(nodes: readonly PermNode[]): PermNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/**
 * The tree's checked keys for a role. Only leaves are given: the tree checks a parent itself
 * once all its children are, so a parent path alone must not check everything below it.
 */
export function grantsToChecked(grants: Grants, nodes: readonly PermNode[] = permissionTree()): string[] {
  const paths = new Set(grants.rolePaths);
  const perms = new Set(grants.permissions);
  return flatten(nodes)
    .filter(
      (n) => n.children.length === 0 && (n.kind === 'permission' ? perms.has(n.key) : paths.has(n.kind === 'access' ? n.name : n.key)),
    )
    .map((n) => n.key);
}

/**
 * A role from the tree's checked keys: checked operations are its permissions; a menu is one of
 * its paths when it is checked or anything below it is (a permission implies its menu and the parents).
 */
export function checkedToGrants(checked: readonly string[], nodes: readonly PermNode[] = permissionTree()): Grants {
  const on = new Set(checked);
  const rolePaths: string[] = [];
  const permissions: string[] = [];
  const walk = (list: readonly PermNode[]): boolean => {
    let any = false;
    for (const n of list) {
      const below = walk(n.children);
      const hit = on.has(n.key) || below;
      if (hit && n.kind === 'menu') rolePaths.push(n.key);
      if (on.has(n.key) && n.kind === 'permission') permissions.push(n.key);
      any ||= hit;
    }
    return any;
  };
  walk(nodes);
  return { rolePaths, permissions };
}

/** Every key of the tree, to check everything at once. */
export function allKeys(nodes: readonly PermNode[] = permissionTree()): string[] {
  return flatten(nodes).map((n) => n.key);
}

/** `system:role:add` → resource `role`, action `add` (labels `role.permResources.*`, `role.permActions.*`). */
export function permissionParts(permission: string): { resource: string; action: string } {
  const [, resource = '', action = ''] = permission.split(':');
  return { resource, action };
}
