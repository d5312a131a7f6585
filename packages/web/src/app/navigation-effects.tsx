import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { pageTitle } from './page-title';
import { settingsStore } from './settings/settings-store';
import { resolveActive, useAppRoutes } from './routes/use-app-routes';

export { pageTitle };

// The sign-in page sets its own title (it is drawn outside this part of the console).
const fixedTitles: Record<string, string> = { '/404': 'shell.notFound.title' };

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
