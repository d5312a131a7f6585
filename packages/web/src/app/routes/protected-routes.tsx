import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AppLayout } from '../layout/app-layout';
import { flattenRoutes } from './access';
import { ScreenElement } from './screen-element';
import { useAppRoutes } from './use-app-routes';

const RedirectPage = lazy(() => import('../../features/errors/redirect-page'));

/** The signed-in part of the console: the layout around every screen the user may open (but the bare ones). */
export function ProtectedRoutes() {
  const routes = useAppRoutes();
  const all = flattenRoutes(routes);
  return (
    <Routes>
      {all.map((r) =>
        r.screen?.bare ? <Route key={r.path} path={r.path.slice(1)} element={<ScreenElement screen={r.screen} />} /> : null,
      )}
      <Route element={<AppLayout routes={routes} />}>
        <Route index element={<Navigate to="/dashboard" replace />} />
        <Route path="redirect/*" element={<RedirectPage />} />
        {all.map((r) =>
          r.screen?.bare ? null : r.screen ? (
            <Route key={r.path} path={r.path.slice(1)} element={<ScreenElement screen={r.screen} />} />
          ) : r.redirect ? (
            <Route key={r.path} path={r.path.slice(1)} element={<Navigate to={r.redirect} replace />} />
          ) : null,
        )}
      </Route>
      <Route path="*" element={<Navigate to="/404" replace />} />
    </Routes>
  );
}
