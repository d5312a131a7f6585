import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../shared/auth/session';
import { buildRoutes, findTrail, type AppRoute } from './access';
import { screens } from './registry';

/** Routes the signed-in user may open, generated from rolePaths and the screen registry. */
export function useAppRoutes(): AppRoute[] {
  const info = useSession();
  return useMemo(() => (info ? buildRoutes(info, screens) : []), [info]);
}

export interface ActiveRoute {
  /** The route being shown (undefined for paths outside the user's routes). */
  current?: AppRoute;
  /** Menu chain to highlight: the route's own, or its activeMenu's for pages outside the menu. */
  menuTrail: AppRoute[];
  /** Breadcrumb chain below the dashboard. */
  crumbs: AppRoute[];
}

export function resolveActive(routes: AppRoute[], pathname: string): ActiveRoute {
  const trail = findTrail(routes, pathname);
  const current = trail.at(-1);
  const activeMenu = current?.screen?.activeMenu;
  if (!activeMenu) return { current, menuTrail: trail, crumbs: trail };
  const menuTrail = findTrail(routes, activeMenu);
  const inMenu = trail.length > 1;
  return { current, menuTrail, crumbs: inMenu ? trail : [...menuTrail, ...(current ? [current] : [])] };
}

export function useActiveRoute(routes: AppRoute[]): ActiveRoute {
  const { pathname } = useLocation();
  return useMemo(() => resolveActive(routes, pathname), [routes, pathname]);
}
