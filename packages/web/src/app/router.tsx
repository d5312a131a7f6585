import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { getToken } from '../shared/cookies';
import { NavigationEffects } from './navigation-effects';
import { publicPaths } from './routes/access';
import { screens } from './routes/registry';
import { PageLoading, ScreenElement } from './routes/screen-element';

// Each entry point fetches only its own code: the sign-in page never loads the signed-in shell.
const LoginPage = lazy(() => import('./routes/login-route'));
const Shell = lazy(() => import('./shell'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));

/** With a session, the sign-in page sends the user on to the root (spec §2). */
function LoginRoute() {
  if (getToken()) return <Navigate to="/" replace />;
  return <LoginPage />;
}

const publicScreens = screens.filter((s) => publicPaths.includes(s.path));

export function AppRouter() {
  return (
    <BrowserRouter>
      <NavigationEffects />
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route path="/login" element={<LoginRoute />} />
          <Route path="/404" element={<NotFoundPage />} />
          {publicScreens.map((s) => (
            <Route key={s.path} path={s.path} element={<ScreenElement screen={s} />} />
          ))}
          <Route path="*" element={<Shell />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
