import { type DiagnosticsDto, diagnosticsApi } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { diagnosticsResource, inProgress } from './diagnostics.resource';

/** How often the list refreshes while a request on screen may still change. */
export const DIAGNOSTICS_REFRESH_MS = 3_000;

const listKey = [diagnosticsApi.list.path];

/**
 * Refresh the list on screen every few seconds while one of its rows is sent, uploading or
 * uploaded (its file not yet here), and not while the browser tab is hidden. A refresh still
 * under way is let finish rather than cancelled.
 */
function useRefreshWhilePending() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const timer = setInterval(() => {
      if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
      const shown = queryClient.getQueriesData<{ list: DiagnosticsDto[] }>({ queryKey: listKey, type: 'active' });
      if (shown.some(([, data]) => data?.list.some(inProgress)))
        void queryClient.refetchQueries({ queryKey: listKey, type: 'active' }, { cancelRefetch: false });
    }, DIAGNOSTICS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [queryClient]);
}

/** The point configuration page's Diagnostics tab. */
export function DiagnosticsPanel() {
  useRefreshWhilePending();
  return <ResourcePage resource={diagnosticsResource} />;
}
