import { Drawer, Layout } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { menuRoutes, type AppRoute } from '../routes/access';
import { useActiveRoute } from '../routes/use-app-routes';
import { settingsStore } from '../settings/settings-store';
import { closeSidebar, deviceStore, MOBILE_BREAKPOINT, sidebarStore, sidebarWidth } from '../state/app-store';
import { TagsView } from '../tags/tags-view';
import { Navbar } from './navbar';
import { Sidebar } from './sidebar';

// The settings drawer (colour picker, sliders, switches) is fetched when first opened.
const SettingsDrawer = lazy(() => import('../settings/settings-drawer').then((m) => ({ default: m.SettingsDrawer })));

/** Mobile below 992 px: the sidebar becomes a drawer, closed whenever the device switches. */
function useDevice() {
  useEffect(() => {
    const onResize = () => {
      const next = window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
      if (next === deviceStore.get()) return;
      deviceStore.set(next);
      if (next === 'mobile') closeSidebar();
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return deviceStore.use();
}

/** The signed-in frame: sidebar, navbar, tab strip and the page. */
export function AppLayout({ routes }: { routes: AppRoute[] }) {
  const settings = settingsStore.use();
  const opened = sidebarStore.use();
  const device = useDevice();
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsUsed, setSettingsUsed] = useState(false);
  const menus = useMemo(() => menuRoutes(routes), [routes]);
  const { current, menuTrail, crumbs } = useActiveRoute(routes);

  // With the top menu, the sidebar holds the children of the chosen top entry; none hides it.
  const top = settings.topNav ? menus.find((m) => m.path === menuTrail[0]?.path) : undefined;
  const sideMenus = settings.topNav ? (top?.children ?? []) : menus;
  const sidebarHidden = settings.topNav && sideMenus.length === 0;

  useEffect(() => {
    if (deviceStore.get() === 'mobile') closeSidebar();
  }, [pathname]);

  const mobile = device === 'mobile';
  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!sidebarHidden &&
        (mobile ? (
          <Drawer
            open={opened}
            placement="left"
            size={sidebarWidth(i18n.language)}
            closable={false}
            onClose={closeSidebar}
            styles={{ body: { padding: 0 } }}
          >
            <Sidebar menus={sideMenus} trail={menuTrail} collapsed={false} inDrawer />
          </Drawer>
        ) : (
          <Sidebar menus={sideMenus} trail={menuTrail} collapsed={!opened} />
        ))}
      <Layout style={{ minWidth: 0 }}>
        <div style={settings.fixedHeader ? { position: 'sticky', top: 0, zIndex: 100 } : undefined}>
          <Navbar
            routes={routes}
            menus={menus}
            crumbs={crumbs}
            topNav={settings.topNav}
            activeTop={top?.path ?? menuTrail[0]?.path}
            sidebarHidden={sidebarHidden}
            onOpenSettings={() => {
              setSettingsUsed(true);
              setSettingsOpen(true);
            }}
          />
          {settings.tagsView && <TagsView routes={routes} current={current} />}
        </div>
        <Layout.Content style={{ padding: 16, minWidth: 0 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
      {settingsUsed && (
        <Suspense fallback={null}>
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </Layout>
  );
}
