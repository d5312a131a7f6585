import { Route, Routes } from 'react-router';
import { lazy, Suspense } from 'react';
import { loadedCatalogue } from '../i18n';
import { NavigationEffects } from './navigation-effects';
import { AppProviders } from './providers';
import { publicPaths } from './routes/access';
import { screens } from './routes/registry';
import { PageLoading, ScreenElement } from './routes/screen-element';

const Shell = lazy(() => import('./shell'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));

const publicScreens = screens.filter((s) => publicPaths.includes(s.path));

/**
 * Everything but the sign-in page: antd's theme and feedback, the query cache, page titles, the
 * public pages, 404 and the signed-in shell. A chunk of its own, so that the sign-in page, which
 * is drawn without antd, never fetches antd (issue 14 item 7).
 */
export default function ConsoleRoot() {
  return (
    <AppProviders antdLocale={loadedCatalogue().antdLocale}>
      <NavigationEffects />
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route path="/404" element={<NotFoundPage />} />
          {publicScreens.map((s) => (
            <Route key={s.path} path={s.path} element={<ScreenElement screen={s} />} />
          ))}
          <Route path="*" element={<Shell />} />
        </Routes>
      </Suspense>
    </AppProviders>
  );
}
