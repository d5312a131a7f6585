import { Button } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyResult } from '../../shared/lazy-result';
import { reportError } from './error-reporting';

function Crashed() {
  const { t } = useTranslation();
  return (
    <LazyResult
      status="error"
      title={t('errorLog.crashedTitle')}
      subTitle={t('errorLog.crashedHint')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('errorLog.reload')}
        </Button>
      }
    />
  );
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
