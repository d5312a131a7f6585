import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { settingsStore } from './settings/settings-store';
import { resolveActive, useAppRoutes } from './routes/use-app-routes';

const fixedTitles: Record<string, string> = { '/login': 'auth.loginTitle', '/404': 'shell.notFound.title' };

/** Compose '{title} - CSMS' (en) / '{title} - 充电运营管理平台' (zh); just the product name when dynamic titles are off. */
export function pageTitle(title: string | undefined, appTitle: string, dynamic: boolean): string {
  return dynamic && title ? `${title} - ${appTitle}` : appTitle;
}

/** Per navigation: scroll to the top and set the document title. */
export function NavigationEffects() {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const routes = useAppRoutes();
  const { dynamicTitle } = settingsStore.use();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  useEffect(() => {
    const key = fixedTitles[pathname] ?? resolveActive(routes, pathname).current?.titleKey;
    document.title = pageTitle(key ? t(key) : undefined, t('shell.appTitle'), dynamicTitle);
  }, [pathname, routes, t, dynamicTitle]);
  return null;
}
