import { useQueryClient } from '@tanstack/react-query';
import { Spin } from 'antd';
import { Suspense, useEffect } from 'react';
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

export function ScreenElement({ screen }: { screen: ScreenDef }) {
  const Component = screen.component;
  return (
    <Suspense fallback={<PageLoading />}>
      {screen.noCache && <NoCache />}
      <Component />
    </Suspense>
  );
}
