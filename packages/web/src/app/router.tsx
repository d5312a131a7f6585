import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { loadConsoleCatalogue } from '../i18n';
import { getToken } from '../shared/cookies';
import { PlainLoading } from './plain-loading';

// Each entry point fetches only its own code: the sign-in page is drawn without antd and never
// loads the console (antd, the shell, the screens); the console never loads the sign-in page.
const LoginPage = lazy(() => import('./routes/login-route'));
// The console waits for its whole catalogue, fetched alongside when the app started on the sign-in page.
const ConsoleRoot = lazy(() => Promise.all([import('./console-root'), loadConsoleCatalogue()]).then(([m]) => m));

// Off the sign-in page the console's root is fetched beside the catalogue, not after it (issue 14
// item 7); it fetches the shell and the screen of the address as it loads (console-root.tsx). A
// failed fetch is left to the lazy component, which shows it. Not under the unit tests, which
// render the router with modules of their own.
if (import.meta.env.PROD && window.location.pathname !== '/login') void import('./console-root').catch(() => undefined);

/** With a session, the sign-in page sends the user on to the root (spec §2). */
function LoginRoute() {
  if (getToken()) return <Navigate to="/" replace />;
  return <LoginPage />;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <Suspense fallback={<PlainLoading />}>
        <Routes>
          <Route path="/login" element={<LoginRoute />} />
          <Route path="*" element={<ConsoleRoot />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
