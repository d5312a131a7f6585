/**
 * Asks the shell to open its change-password dialog (the avatar menu owns it), so that a screen
 * such as the personal center offers the same dialog without a second copy of the form.
 */
const listeners = new Set<() => void>();

export function requestPasswordChange() {
  for (const l of listeners) l();
}

/** The shell listens; returns the unsubscribe. */
export function onPasswordChangeRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
