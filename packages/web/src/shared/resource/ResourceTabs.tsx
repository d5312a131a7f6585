import { useQueryClient } from '@tanstack/react-query';
import { Card } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/useAuth';
import { ResourcePage } from './ResourcePage';
import type { Resource } from './types';
import { TAB_PARAM } from './url-query';

export interface ResourceTab {
  key: string;
  /** Catalogue key of the tab's title. */
  label: string;
  resource: Resource;
  /** A tab that is not the resource's list (one record's form): what it shows, and the permission it needs instead of `list`. */
  render?: () => ReactNode;
  permi?: string;
  /** Buttons of the tab beside the tab titles (an import), shown while the tab is open. */
  extra?: () => ReactNode;
}

/**
 * Several resources on one page, one tab each. The open tab lives in the URL (`?tab=`) beside
 * its list's filters; only the open tab is mounted, so the lists never read each other's filters.
 * A tab shows only to users who may list its resource.
 */
export function ResourceTabs({ tabs }: { tabs: ResourceTab[] }) {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const [params, setParams] = useSearchParams();
  const shown = tabs.filter((tab) => {
    const needs = tab.permi ?? tab.resource.permissions.list;
    return !needs || hasPermi(needs);
  });
  const active = shown.find((tab) => tab.key === params.get(TAB_PARAM)) ?? shown[0];
  const queryClient = useQueryClient();
  return (
    <Card
      variant="borderless"
      activeTabKey={active?.key}
      tabList={shown.map((tab) => ({ key: tab.key, label: t(tab.label) }))}
      tabBarExtraContent={active?.extra?.()}
      // A new tab starts from its own defaults: the previous tab's filters mean nothing there.
      onTabChange={(key) => {
        // Opening a tab is like opening a page: its list may have changed meanwhile (a point moved, a count changed).
        const tab = shown.find((x) => x.key === key);
        if (tab) void queryClient.invalidateQueries({ queryKey: [tab.resource.api.list.path] });
        setParams(key === shown[0]?.key ? {} : { [TAB_PARAM]: key });
      }}
      styles={{ body: { padding: 0 } }}
    >
      {active &&
        (active.render ? <div key={active.key}>{active.render()}</div> : <ResourcePage key={active.key} resource={active.resource} />)}
    </Card>
  );
}
