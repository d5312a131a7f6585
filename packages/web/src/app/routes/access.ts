import { ADMIN_ROLE, flattenMenus, menuTree, type MenuNode, type UserInfo } from '@csms/contract';
import type { ReactNode } from 'react';
import { matchPath } from 'react-router';
import { plainPaths } from '../plain-pages';
import type { ScreenDef } from './registry';

/** A route the signed-in user may open: a menu node or a page outside the menu, with its screen. */
export interface AppRoute {
  path: string;
  name: string;
  titleKey: string;
  icon?: ReactNode;
  /** Not shown in the menu (still reachable). */
  hidden: boolean;
  /** Parents: where the bare parent path goes (its default child, else its first child). */
  redirect?: string;
  screen?: ScreenDef;
  children: AppRoute[];
}

export type AccessUser = Pick<UserInfo, 'roles' | 'rolePaths'>;

/**
 * Paths anyone may open without signing in (spec §2): their screens render outside the layout; the
 * agreement pages are for drivers, who have no console account.
 */
export const publicPaths: readonly string[] = [...plainPaths, '/applyForm'];

/** True when an address is one of the public pages (its parameters filled in). */
export function isPublicPath(pathname: string): boolean {
  return publicPaths.some((path) => matchPath({ path, end: true }, pathname) !== null);
}

/** Spec §6: admin opens everything; others need the path in rolePaths, and the node's role if it names one. */
export function canOpen(node: Pick<MenuNode, 'path' | 'role'>, user: AccessUser): boolean {
  if (user.roles.includes(ADMIN_ROLE)) return true;
  if (node.role && !user.roles.includes(node.role)) return false;
  return (user.rolePaths ?? []).includes(node.path);
}

const lastSegment = (path: string) =>
  path
    .split('/')
    .filter((s) => s && !s.startsWith(':'))
    .pop() ?? path;

/**
 * Routes generated from rolePaths (recursively: a child needs its parent) and the screen
 * registry: a menu path appears only with a registered screen, a parent only with a child.
 */
export function buildRoutes(user: AccessUser, screens: readonly ScreenDef[], tree: readonly MenuNode[] = menuTree): AppRoute[] {
  const byPath = new Map(screens.map((s) => [s.path, s]));
  const walk = (nodes: readonly MenuNode[]): AppRoute[] =>
    nodes.flatMap((node) => {
      if (!canOpen(node, user)) return [];
      const children = walk(node.children ?? []);
      const screen = byPath.get(node.path);
      if (!screen && children.length === 0) return [];
      const preferred = children.find((c) => c.path === node.redirect) ?? children.find((c) => !c.hidden) ?? children[0];
      return [
        {
          path: node.path,
          name: node.name,
          titleKey: screen?.titleKey ?? `menu.${node.name}`,
          icon: screen?.icon,
          hidden: Boolean(node.hidden || screen?.hidden),
          redirect: screen ? undefined : preferred?.path,
          screen,
          children,
        },
      ];
    });
  const menuRoutes = walk(tree);
  const inMenu = new Set(flattenMenus([...tree]).map((n) => n.path));
  const open = new Set(flattenRoutes(menuRoutes).map((r) => r.path));
  const pages: AppRoute[] = screens
    .filter((s) => !inMenu.has(s.path) && !publicPaths.includes(s.path))
    .filter((s) => !s.activeMenu || !inMenu.has(s.activeMenu) || open.has(s.activeMenu))
    .map((s) => ({
      path: s.path,
      name: lastSegment(s.path),
      titleKey: s.titleKey ?? `menu.${lastSegment(s.path)}`,
      icon: s.icon,
      hidden: Boolean(s.hidden),
      screen: s,
      children: [],
    }));
  return [...pages, ...menuRoutes];
}

export function flattenRoutes(routes: readonly AppRoute[]): AppRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children)]);
}

/** The chain of routes from the top level down to the one matching `pathname` (empty when none). */
export function findTrail(routes: readonly AppRoute[], pathname: string): AppRoute[] {
  for (const r of routes) {
    if (matchPath({ path: r.path, end: true }, pathname)) return [r];
    const below = findTrail(r.children, pathname);
    if (below.length) return [r, ...below];
  }
  return [];
}

/** Routes shown in a menu: hidden ones dropped, parents without a visible child dropped. */
export function menuRoutes(routes: readonly AppRoute[]): AppRoute[] {
  return routes.flatMap((r) => {
    if (r.hidden) return [];
    const children = menuRoutes(r.children);
    if (!r.screen && children.length === 0) return [];
    return [{ ...r, children }];
  });
}
