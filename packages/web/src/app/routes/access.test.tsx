import { allMenuPaths, flattenMenus, menuTree } from '@csms/contract';
import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { buildRoutes, findTrail, flattenRoutes, isPublicPath, menuRoutes } from './access';
import type { ScreenDef } from './registry';

const Dummy = lazy(async () => ({ default: () => null }));
const screen = (path: string, extra: Partial<ScreenDef> = {}): ScreenDef => ({ path, component: Dummy, ...extra });
/** A screen for every leaf of the menu, plus the dashboard. */
const allScreens = [
  screen('/dashboard', { affix: true, titleKey: 'menu.dashboard' }),
  ...flattenMenus()
    .filter((n) => !n.children)
    .map((n) => screen(n.path)),
];
const paths = (routes: ReturnType<typeof buildRoutes>) => flattenRoutes(routes).map((r) => r.path);

describe('routes from rolePaths', () => {
  it('gives the admin role every route', () => {
    const routes = buildRoutes({ roles: ['admin'], rolePaths: ['/dashboard'] }, allScreens);
    expect(new Set(paths(routes))).toEqual(new Set(['/dashboard', ...allMenuPaths]));
  });

  it('gives others only their paths, a child only under an allowed parent', () => {
    const user = { roles: ['operator'], rolePaths: ['/historyRecord', '/historyRecord/chargeRecord', '/userManagement/cardManage'] };
    const routes = buildRoutes(user, allScreens);
    expect(paths(routes)).toEqual(['/dashboard', '/historyRecord', '/historyRecord/chargeRecord']);
    expect(routes[1]?.redirect).toBe('/historyRecord/chargeRecord');
  });

  it('hides role-admin parents from non-admins even when their paths are listed', () => {
    const user = {
      roles: ['operator'],
      rolePaths: [
        '/systemManagement',
        '/systemManagement/organizationManage',
        '/financialManagement',
        '/financialManagement/invoiceRecordManage',
      ],
    };
    expect(paths(buildRoutes(user, allScreens))).toEqual(['/dashboard']);
    const admin = buildRoutes({ roles: ['operator', 'admin'], rolePaths: [] }, allScreens);
    expect(paths(admin)).toContain('/systemManagement/organizationManage');
  });

  it('shows only menu paths with a registered screen; a parent only with a child', () => {
    const routes = buildRoutes({ roles: ['admin'] }, [screen('/dashboard'), screen('/systemManagement/organizationManage')]);
    expect(paths(routes)).toEqual(['/dashboard', '/systemManagement', '/systemManagement/organizationManage']);
    expect(routes[1]?.redirect).toBe('/systemManagement/organizationManage');
  });

  it('keeps hidden children reachable but out of the menu', () => {
    const routes = buildRoutes({ roles: ['admin'] }, allScreens);
    expect(paths(routes)).toContain('/financialManagement/transferRecord');
    const menu = flattenRoutes(menuRoutes(routes)).map((r) => r.path);
    expect(menu).not.toContain('/financialManagement/transferRecord');
    expect(menu).toContain('/financialManagement/rechargeRecord');
    // /apply has only a hidden child: no empty group in the menu
    expect(menu).not.toContain('/apply');
  });

  it('gates a page outside the menu by its activeMenu', () => {
    const edit = screen('/configurationManagement/stationManagement/edit/:id', {
      hidden: true,
      activeMenu: '/configurationManagement/stationManagement',
    });
    const screens = [...allScreens, edit];
    const allowed = buildRoutes(
      { roles: ['op'], rolePaths: ['/configurationManagement', '/configurationManagement/stationManagement'] },
      screens,
    );
    expect(paths(allowed)).toContain(edit.path);
    expect(findTrail(allowed, '/configurationManagement/stationManagement/edit/7').at(-1)?.path).toBe(edit.path);
    const denied = buildRoutes({ roles: ['op'], rolePaths: ['/historyRecord', '/historyRecord/chargeRecord'] }, screens);
    expect(paths(denied)).not.toContain(edit.path);
  });

  it('finds the chain of a nested path', () => {
    const routes = buildRoutes({ roles: ['admin'] }, allScreens);
    expect(findTrail(routes, '/systemManagement/organizationManage').map((r) => r.path)).toEqual([
      '/systemManagement',
      '/systemManagement/organizationManage',
    ]);
    expect(findTrail(routes, '/nowhere')).toEqual([]);
    expect(menuTree.length).toBeGreaterThan(0);
  });
});

describe('public pages', () => {
  it('are known by their address, parameters filled in, and nothing else is', () => {
    expect(['/login', '/404', '/applyForm', '/disclaimer/3', '/privacyAgreement/abc'].filter((p) => !isPublicPath(p))).toEqual([]);
    expect(['/', '/dashboard', '/disclaimer', '/disclaimer/3/more', '/login/x'].filter(isPublicPath)).toEqual([]);
  });
});
