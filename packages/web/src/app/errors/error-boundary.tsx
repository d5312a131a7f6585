import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportError } from './error-reporting';

// The boundary wraps the sign-in page too, which is drawn without antd: antd comes with the crash page.
const AntdCrashed = lazy(() => import('./crashed'));

/** The same words and a plain reload button, while antd's picture is fetched (or if it cannot be). */
function PlainCrashed() {
  const { t } = useTranslation();
  return (
    <div style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div style={{ fontSize: 24 }}>{t('errorLog.crashedTitle')}</div>
      <div style={{ marginTop: 8 }}>{t('errorLog.crashedHint')}</div>
      <button type="button" style={{ marginTop: 24 }} onClick={() => window.location.reload()}>
        {t('errorLog.reload')}
      </button>
    </div>
  );
}

/** antd's crash page; the plain one while it is fetched, and if it cannot be (offline, a new build). */
class Crashed extends Component<object, { plain: boolean }> {
  override state = { plain: false };
  static getDerivedStateFromError() {
    return { plain: true };
  }
  override render() {
    if (this.state.plain) return <PlainCrashed />;
    return (
      <Suspense fallback={<PlainCrashed />}>
        <AntdCrashed />
      </Suspense>
    );
  }
}

/**
 * Production: a screen that throws while rendering is reported to the error log (with React's
 * component stack) and replaced by a reload prompt instead of a blank page.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    const withComponents = Object.assign(new Error(error.message), {
      name: error.name,
      stack: `${error.stack ?? ''}\n${info.componentStack ?? ''}`.trim(),
    });
    reportError(withComponents, 'boundary');
  }

  override render() {
    return this.state.failed ? <Crashed /> : this.props.children;
  }
}
