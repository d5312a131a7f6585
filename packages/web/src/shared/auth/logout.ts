// The area's endpoints, not the whole `api`: this runs in the entry chunk, before any screen.
import { authApi } from '@csms/contract';
import { call } from '../api/client';
import { clearSession } from './session';

/** Revoke the session on the server; failures are ignored (the token may already be invalid). */
export async function revokeSession(): Promise<void> {
  try {
    await call(authApi.logout, {}, { silent: true });
  } catch {
    // What matters is the local logout that follows.
  }
}

/** Log out: revoke on the server, then clear token, stored credentials and info locally. */
export async function logout(): Promise<void> {
  await revokeSession();
  clearSession();
}
