import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { pageTitle } from './page-title';
import { settingsStore } from './settings/settings-store';
import { resolveActive, useAppRoutes } from './routes/use-app-routes';

export { pageTitle };

// The pages drawn without antd (sign-in, 404, the agreement pages) set their own titles: they are outside this part of the console.

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
    const key = resolveActive(routes, pathname).current?.titleKey;
    document.title = pageTitle(key ? t(key) : undefined, t('shell.appTitle'), dynamicTitle);
  }, [pathname, routes, t, dynamicTitle]);
  return null;
}
