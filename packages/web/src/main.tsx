import 'antd/dist/reset.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary } from './app/errors/error-boundary';
import { installErrorReporting } from './app/errors/error-reporting';
import { AppRouter } from './app/router';
import { startI18n } from './i18n';
import { currentLocale } from './i18n/lang';

const locale = currentLocale();
document.documentElement.lang = locale;

// Spec §9: the error log is for production; development keeps Vite's overlay and the console as they are.
if (import.meta.env.PROD) installErrorReporting();

// Only the chosen language's catalogue is fetched (issue 14 item 7), and on the sign-in page only
// its part of it: the console's copy comes with the console (app/router.tsx). antd's providers come
// with the console's chunk (app/console-root.tsx): the sign-in page has none.
void startI18n(locale, { signIn: window.location.pathname === '/login' }).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {import.meta.env.PROD ? (
        <ErrorBoundary>
          <AppRouter />
        </ErrorBoundary>
      ) : (
        <AppRouter />
      )}
    </StrictMode>,
  );
});
