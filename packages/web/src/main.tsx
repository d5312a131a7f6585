import 'antd/dist/reset.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary } from './app/errors/error-boundary';
import { installErrorReporting } from './app/errors/error-reporting';
import { isPlainPage } from './app/plain-pages';
import { AppRouter } from './app/router';
import { startI18n } from './i18n';
import { currentLocale } from './i18n/lang';

const locale = currentLocale();
document.documentElement.lang = locale;

// Spec §9: the error log is for production; development keeps Vite's overlay and the console as they are.
if (import.meta.env.PROD) installErrorReporting();

// Only the chosen language's catalogue is fetched (issue 14 item 7), and on the pages drawn without
// antd (sign-in, 404, the agreement pages) only their part of it: the console's copy comes with the
// console (app/router.tsx). antd's providers come with the console's chunk (app/console-root.tsx).
void startI18n(locale, { plain: isPlainPage(window.location.pathname) }).then(() => {
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
