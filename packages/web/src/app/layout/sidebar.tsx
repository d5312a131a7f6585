import { Layout, Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/auth/session';
import type { AppRoute } from '../routes/access';
import { settingsStore } from '../settings/settings-store';
import { sidebarWidth } from '../state/app-store';
import { openMenuPath, toMenuItems } from './menu-items';
import { formatProviderName } from './provider-name';

export const COLLAPSED_WIDTH = 64;
const DEFAULT_LOGO = '/favicon.svg';

function SidebarLogo({ collapsed, dark }: { collapsed: boolean; dark: boolean }) {
  const { t } = useTranslation();
  const info = useSession();
  const name = info?.providerName ? formatProviderName(info.providerName) : t('shell.appTitle');
  return (
    <div style={{ height: 50, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 8, overflow: 'hidden' }}>
      <img
        src={info?.logoPath || DEFAULT_LOGO}
        alt=""
        style={{ width: 32, height: 32, objectFit: 'contain' }}
        // A logo file that is gone shows the default logo, not a broken image.
        onError={(e) => {
          if (!e.currentTarget.src.endsWith(DEFAULT_LOGO)) e.currentTarget.src = DEFAULT_LOGO;
        }}
      />
      {!collapsed && (
        <span data-testid="provider-name" style={{ fontWeight: 600, fontSize: 14, whiteSpace: 'nowrap', color: dark ? '#fff' : undefined }}>
          {name}
        </span>
      )}
    </div>
  );
}

export interface SidebarProps {
  menus: AppRoute[];
  /** Menu chain of the open page (selected leaf last). */
  trail: AppRoute[];
  collapsed: boolean;
  /** Inside the mobile drawer: no Sider, full width. */
  inDrawer?: boolean;
}

export function Sidebar({ menus, trail, collapsed, inDrawer }: SidebarProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const settings = settingsStore.use();
  const dark = settings.sideTheme === 'dark';
  const items = useMemo(() => toMenuItems(menus, t), [menus, t]);
  const selected = trail.at(-1)?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(() => trail.slice(0, -1).map((r) => r.path));
  useEffect(() => {
    // Collapsed menus open as popups: start closed; expanded ones show the open page's parents.
    const parents = trail.slice(0, -1).map((r) => r.path);
    setOpenKeys((keys) => (collapsed ? [] : Array.from(new Set([...keys, ...parents]))));
  }, [trail, collapsed]);

  const body = (
    <>
      {settings.sidebarLogo && <SidebarLogo collapsed={collapsed} dark={dark} />}
      <Menu
        mode="inline"
        theme={dark ? 'dark' : 'light'}
        items={items}
        selectedKeys={selected ? [selected] : []}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => openMenuPath(key, navigate)}
        style={{ borderInlineEnd: 0 }}
      />
    </>
  );
  if (inDrawer) return <div style={{ minHeight: '100%', background: dark ? '#001529' : '#fff' }}>{body}</div>;
  return (
    <Layout.Sider
      width={sidebarWidth(i18n.language)}
      collapsedWidth={COLLAPSED_WIDTH}
      collapsed={collapsed}
      trigger={null}
      theme={dark ? 'dark' : 'light'}
      style={{
        height: '100vh',
        position: 'sticky',
        top: 0,
        overflow: 'auto',
        borderInlineEnd: dark ? undefined : '1px solid rgba(5,5,5,0.06)',
      }}
    >
      {body}
    </Layout.Sider>
  );
}
