import {
  AccountBookOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  FileSearchOutlined,
  MonitorOutlined,
  SettingOutlined,
  TeamOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { isExternal } from '@csms/contract';
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { NavigateFunction } from 'react-router';
import type { AppRoute } from '../routes/access';

/** Icons of the menu groups (a collapsed sidebar shows only icons). */
const groupIcons: Record<string, ReactNode> = {
  realTimeMonitor: <MonitorOutlined />,
  workOrder: <ToolOutlined />,
  historyRecord: <FileSearchOutlined />,
  userManagement: <TeamOutlined />,
  operateManagement: <BarChartOutlined />,
  financialManagement: <AccountBookOutlined />,
  configurationManagement: <AppstoreOutlined />,
  systemManagement: <SettingOutlined />,
  apply: <AuditOutlined />,
};

export type MenuItem = NonNullable<MenuProps['items']>[number];

export function iconOf(r: AppRoute): ReactNode {
  return r.icon ?? groupIcons[r.name];
}

/** antd menu items from visible routes; `depth` 0 shows icons. */
export function toMenuItems(routes: readonly AppRoute[], t: TFunction, depth = 0): MenuItem[] {
  return routes.map((r) => {
    const base = { key: r.path, label: t(r.titleKey), icon: depth === 0 || r.icon ? iconOf(r) : undefined };
    return r.children.length > 0 ? { ...base, children: toMenuItems(r.children, t, depth + 1) } : base;
  });
}

/** Follow a menu entry: external links open a new tab (spec §2), the rest navigate. */
export function openMenuPath(path: string, navigate: NavigateFunction) {
  if (isExternal(path)) window.open(path, '_blank', 'noopener');
  else void navigate(path);
}
