import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSession } from '../../shared/auth/session';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { adminMessageResource, inboxMessageResource } from './message.resource';

/** Spec §6: the user named admin sees the admin view; everyone else an inbox (the server answers the same way). */
export function messageView(username: string | undefined): 'admin' | 'inbox' {
  return username === 'admin' ? 'admin' : 'inbox';
}

/** System messages, opened from the navbar's bell. */
export default function MessagePage() {
  const info = useSession();
  const queryClient = useQueryClient();
  const view = messageView(info?.user.username);
  const resource = useMemo(() => (view === 'admin' ? adminMessageResource : inboxMessageResource(queryClient)), [view, queryClient]);
  return <ResourcePage key={view} resource={resource} />;
}
