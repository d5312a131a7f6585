import { Route, Routes } from 'react-router';
import { Suspense } from 'react';
import { loadedCatalogue } from '../i18n';
import { getToken } from '../shared/cookies';
import { NavigationEffects } from './navigation-effects';
import { AppProviders } from './providers';
import { isPublicPath, publicPaths } from './routes/access';
import { loadedLazy } from './routes/loaded-lazy';
import { preloadScreen, screens } from './routes/registry';
import { PageLoading, ScreenElement } from './routes/screen-element';

const { component: Shell, fetch: loadShell } = loadedLazy(() => import('./shell'));

const publicScreens = screens.filter((s) => publicPaths.includes(s.path));

/**
 * A cold load with a session fetches the shell and the screen of its address as soon as this
 * module runs, side by side, instead of each after the component that renders it has rendered
 * (root → shell → session → screen, a waterfall; issue 14 item 7). The lazy components then find
 * them loaded; a failed fetch is theirs to show.
 */
function prefetchSignedIn(pathname: string): void {
  if (!getToken() || isPublicPath(pathname)) return;
  void loadShell().catch(() => undefined);
  // The root leads to the dashboard (routes/protected-routes.tsx).
  void preloadScreen(pathname === '/' ? '/dashboard' : pathname);
}

if (import.meta.env.PROD) prefetchSignedIn(window.location.pathname);

/**
 * Everything but the pages drawn without antd (plain-pages.ts): antd's theme and feedback, the query
 * cache, page titles, the public application form and the signed-in shell. A chunk of its own, so
 * that sign-in, 404 and the agreement pages never fetch antd (issue 14 item 7).
 */
export default function ConsoleRoot() {
  return (
    <AppProviders antdLocale={loadedCatalogue().antdLocale}>
      <NavigationEffects />
      <Suspense fallback={<PageLoading />}>
        <Routes>
          {publicScreens.map((s) => (
            <Route key={s.path} path={s.path} element={<ScreenElement screen={s} />} />
          ))}
          <Route path="*" element={<Shell />} />
        </Routes>
      </Suspense>
    </AppProviders>
  );
}
