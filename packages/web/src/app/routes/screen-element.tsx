import { useQueryClient } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { Component, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyResult } from '../../shared/lazy-result';
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
    <LazyResult
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

/** Spec §9: a screen's code that has not arrived after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** The loading spinner of a screen, which gives up with the reload offer after CHUNK_TIMEOUT_MS. */
function ScreenLoading() {
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), CHUNK_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, []);
  return late ? <ScreenFailed /> : <PageLoading />;
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

/** The first screen of a cold load is drawn in a render of its own (ScreenElement). */
let coldStart = true;

export function ScreenElement({ screen }: { screen: ScreenDef }) {
  const Screen = screen.component;
  // A cold load paints the shell first and draws the first screen in a transition just after:
  // drawn in the shell's own render, the screen delayed the shell's first paint by its whole render;
  // drawn after a Suspense fallback, React would hold it until 300 ms after that fallback
  // (loaded-lazy.ts). A transition shows no fallback, so nothing holds it.
  const [shown, setShown] = useState(!coldStart);
  useEffect(() => {
    coldStart = false;
    if (!shown) startTransition(() => setShown(true));
  }, [shown]);
  return (
    <ScreenBoundary key={screen.path}>
      <Suspense fallback={<ScreenLoading />}>
        {screen.noCache && <NoCache />}
        {shown ? <Screen /> : <ScreenLoading />}
      </Suspense>
    </ScreenBoundary>
  );
}
