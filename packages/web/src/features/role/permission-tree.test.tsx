import { allMenuPaths, allPermissions, flattenMenus, type MenuNode } from '@csms/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { polyfillDom } from '../../shared/resource/test-kit';
import { allKeys, checkedToGrants, grantsToChecked, permissionTree, type Grants } from './permission-tree';
import { permissionLabel, PermissionTreeInput } from './permission-tree-input';

const tree: MenuNode[] = [
  {
    path: '/a',
    name: 'a',
    children: [
      { path: '/a/x', name: 'x' },
      { path: '/a/y', name: 'y' },
    ],
  },
  {
    path: '/s',
    name: 's',
    children: [
      { path: '/s/log', name: 'log' },
      { path: '/s/role', name: 'role' },
    ],
  },
];
const catalogue = [
  { menu: '/s/log', permissions: ['system:log:list', 'system:log:export'] },
  { menu: '/s/role', permissions: ['system:role:list'] },
];
const nodes = permissionTree(tree, catalogue);
const sorted = (g: Grants) => ({ rolePaths: [...g.rolePaths].sort(), permissions: [...g.permissions].sort() });

beforeAll(() => polyfillDom());
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('permission tree mapping', () => {
  it('hangs each operation under its menu, after a leaf for opening the page alone', () => {
    expect(nodes.map((n) => n.key)).toEqual(['/a', '/s']);
    expect(nodes[1]!.children[0]!.children.map((c) => [c.key, c.kind])).toEqual([
      ['access:/s/log', 'access'],
      ['system:log:list', 'permission'],
      ['system:log:export', 'permission'],
    ]);
  });

  it('maps checked operations to permissions, and implies their menu and its parents', () => {
    expect(sorted(checkedToGrants(['system:log:list'], nodes))).toEqual({ rolePaths: ['/s', '/s/log'], permissions: ['system:log:list'] });
  });

  it('maps a checked menu leaf to its path and its parents', () => {
    expect(sorted(checkedToGrants(['/a/y'], nodes))).toEqual({ rolePaths: ['/a', '/a/y'], permissions: [] });
  });

  it('maps a fully checked parent (as the tree reports it) to everything below', () => {
    const all = checkedToGrants(['/s', '/s/log', 'system:log:list', 'system:log:export', '/s/role', 'system:role:list'], nodes);
    expect(sorted(all)).toEqual({
      rolePaths: ['/s', '/s/log', '/s/role'],
      permissions: ['system:log:export', 'system:log:list', 'system:role:list'],
    });
  });

  it('gives the tree only leaves, so a granted parent does not check all its children', () => {
    const grants = { rolePaths: ['/s', '/s/log', '/a', '/a/x'], permissions: ['system:log:list'] };
    expect(grantsToChecked(grants, nodes).sort()).toEqual(['/a/x', 'access:/s/log', 'system:log:list']);
  });

  it('grants a menu with operations without any of them', () => {
    expect(sorted(checkedToGrants(['access:/s/log'], nodes))).toEqual({ rolePaths: ['/s', '/s/log'], permissions: [] });
    expect(grantsToChecked({ rolePaths: ['/s', '/s/log'], permissions: [] }, nodes)).toEqual(['access:/s/log']);
  });

  it('round-trips a role through the tree', () => {
    const grants = { rolePaths: ['/a', '/a/x', '/s', '/s/role'], permissions: ['system:role:list'] };
    expect(sorted(checkedToGrants(grantsToChecked(grants, nodes), nodes))).toEqual(sorted(grants));
  });

  it("covers the contract's whole menu tree and catalogue", () => {
    const real = permissionTree();
    const everything = checkedToGrants(allKeys(real), real);
    expect(everything.rolePaths.sort()).toEqual([...allMenuPaths].sort());
    expect(everything.permissions.sort()).toEqual([...allPermissions].sort());
  });

  it('names every permission and every menu in both languages', () => {
    for (const lng of ['zh-CN', 'en-US']) {
      const t = i18n.getFixedT(lng);
      for (const p of allPermissions) expect(permissionLabel(t, p), `${lng} ${p}`).not.toMatch(/role\.perm|undefined/);
      for (const m of flattenMenus()) expect(i18n.exists(`menu.${m.name}`, { lng })).toBe(true);
    }
  });
});

describe('permission tree input', () => {
  it('reports Grants when a node is checked', async () => {
    let value: Grants = { rolePaths: [], permissions: [] };
    const { rerender } = render(<PermissionTreeInput value={value} onChange={(v) => (value = v)} />);
    fireEvent.click(screen.getByText('System log: list'));
    expect(value.permissions).toEqual(['system:log:list']);
    expect(value.rolePaths.sort()).toEqual(['/systemManagement', '/systemManagement/systemLog']);
    rerender(<PermissionTreeInput value={value} onChange={(v) => (value = v)} />);
    const node = screen.getByText('System log: list').closest('.ant-tree-treenode');
    expect(node?.className).toContain('checkbox-checked');
  });

  it('shows Chinese labels', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    render(<PermissionTreeInput value={{ rolePaths: ['/systemManagement/permissionManage'], permissions: ['system:role:add'] }} />);
    expect(screen.getByText('角色：新增')).toBeTruthy();
    expect(screen.getByText('权限管理')).toBeTruthy();
  });
});
