import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { loadConsoleCatalogue } from '../i18n';
import { getToken } from '../shared/cookies';
import { isPlainPage } from './plain-pages';
import { PlainLoading } from './plain-loading';

// Each entry point fetches only its own code: the pages drawn without antd (sign-in, 404, the
// drivers' agreement pages; plain-pages.ts) never load the console (antd, the shell, the screens);
// the console never loads them.
const LoginPage = lazy(() => import('./routes/login-route'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));
const AgreementPage = lazy(() => import('../features/agreement/agreement-page'));
// The console waits for its whole catalogue, fetched alongside when the app started on a plain page.
const ConsoleRoot = lazy(() => Promise.all([import('./console-root'), loadConsoleCatalogue()]).then(([m]) => m));

// Off the plain pages the console's root is fetched beside the catalogue, not after it (issue 14
// item 7); it fetches the shell and the screen of the address as it loads (console-root.tsx). A
// failed fetch is left to the lazy component, which shows it. Not under the unit tests, which
// render the router with modules of their own.
if (import.meta.env.PROD && !isPlainPage(window.location.pathname)) void import('./console-root').catch(() => undefined);

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
          {/* Reachable signed in or out (DESIGN.md §9). */}
          <Route path="/404" element={<NotFoundPage />} />
          <Route path="/disclaimer/:key" element={<AgreementPage kind="disclaimer" />} />
          <Route path="/privacyAgreement/:key" element={<AgreementPage kind="privacyAgreement" />} />
          <Route path="*" element={<ConsoleRoot />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
