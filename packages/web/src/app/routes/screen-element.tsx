import { useQueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { Component, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScreenDef } from './registry';

export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
      <Spin size="large" />
    </div>
  );
}

/** Entering a noCache screen marks every cached query stale, so the screen refetches instead of showing old data. */
function NoCache() {
  const qc = useQueryClient();
  useEffect(() => {
    void qc.invalidateQueries({ refetchType: 'none' });
  }, [qc]);
  return null;
}

function ScreenFailed() {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('shell.screenFailed')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.refresh')}
        </Button>
      }
    />
  );
}

/** A screen whose code fails to load (or throws while rendering) shows a reload instead of a blank console. */
class ScreenBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ScreenFailed /> : this.props.children;
  }
}

export function ScreenElement({ screen }: { screen: ScreenDef }) {
  const Screen = screen.component;
  return (
    <ScreenBoundary key={screen.path}>
      <Suspense fallback={<PageLoading />}>
        {screen.noCache && <NoCache />}
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
}
