import { BellOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Flex, theme, Tooltip } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppRoute } from '../routes/access';
import { deviceStore, sidebarStore, toggleSidebar } from '../state/app-store';
import { AvatarMenu } from './avatar-menu';
import { AppBreadcrumb } from './breadcrumb';
import { FullscreenButton } from './fullscreen-button';
import { HeaderSearch } from './header-search';
import { LangSelect } from './lang-select';
import { SizeSelect } from './size-select';
import { TopMenu } from './top-menu';

const MessageBell = lazy(() => import('../../features/message/message-bell'));

export interface NavbarProps {
  routes: AppRoute[];
  menus: AppRoute[];
  crumbs: AppRoute[];
  topNav: boolean;
  activeTop?: string;
  sidebarHidden: boolean;
  onOpenSettings(): void;
}

/** Header bar: hamburger, breadcrumb or top menu, then search, full screen, size, language, settings, avatar. */
export function Navbar({ routes, menus, crumbs, topNav, activeTop, sidebarHidden, onOpenSettings }: NavbarProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const opened = sidebarStore.use();
  const mobile = deviceStore.use() === 'mobile';
  return (
    <Flex
      align="center"
      gap={4}
      style={{ height: 50, paddingInline: 8, background: token.colorBgContainer, boxShadow: '0 1px 4px rgba(0,21,41,.08)' }}
    >
      {!sidebarHidden && (
        <Button
          type="text"
          aria-label={t('shell.hamburger')}
          icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={() => toggleSidebar(sidebarHidden)}
        />
      )}
      {topNav ? <TopMenu menus={menus} activeTop={activeTop} /> : <AppBreadcrumb crumbs={crumbs} />}
      <Flex align="center" gap={2} style={{ marginInlineStart: 'auto', flexShrink: 0 }}>
        {!mobile && <HeaderSearch routes={routes} />}
        {/* The bell's place is held while its code loads: a header that shifts moves the other icons under the pointer. */}
        <Suspense
          fallback={
            <Button type="text" disabled aria-label={t('message.title')}>
              <BellOutlined style={{ fontSize: 16 }} />
            </Button>
          }
        >
          <MessageBell />
        </Suspense>
        {!mobile && <FullscreenButton />}
        <SizeSelect />
        <LangSelect />
        <Tooltip title={t('shell.settings')} placement="left">
          <Button type="text" aria-label={t('shell.settings')} icon={<SettingOutlined />} onClick={onOpenSettings} />
        </Tooltip>
        <AvatarMenu compact={mobile} />
      </Flex>
    </Flex>
  );
}
