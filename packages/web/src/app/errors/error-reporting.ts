// The area's endpoints, not the whole `api`: this runs in the entry chunk, before any screen.
import { clientErrorApi, type clientErrorSources } from '@csms/contract';
import { call } from '../../shared/api/client';

type Source = (typeof clientErrorSources)[number];

/** At most this many reports per page load; the server rate-limits again per session and address. */
const MAX_PER_PAGE = 10;

export const BUILD_ID: string = (import.meta.env.VITE_CSMS_BUILD_ID as string | undefined) || 'dev';

let sent = 0;
const seen = new Set<string>();

/** Forget what this page load has reported (tests). */
export function resetErrorReporting() {
  sent = 0;
  seen.clear();
}

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) return { message: `${reason.name}: ${reason.message}`.slice(0, 1000), stack: reason.stack?.slice(0, 8000) };
  let message: string;
  try {
    message = typeof reason === 'string' ? reason : JSON.stringify(reason);
  } catch {
    message = String(reason);
  }
  return { message: (message || String(reason)).slice(0, 1000) };
}

/**
 * Send one uncaught error to the server's error log (spec §9): the route, the build and, through the
 * session header when there is one, the user. The same error is sent once per page load; a report
 * that fails is dropped silently (reporting must never raise an error of its own).
 */
export function reportError(reason: unknown, source: Source): void {
  const { message, stack } = describe(reason);
  const key = `${message}\n${stack ?? ''}`;
  if (seen.has(key) || sent >= MAX_PER_PAGE) return;
  seen.add(key);
  sent += 1;
  const route = `${window.location.pathname}${window.location.hash}`.slice(0, 500);
  void call(
    clientErrorApi.report,
    { body: { message: message || source, ...(stack ? { stack } : {}), source, route, buildId: BUILD_ID } },
    { silent: true },
  ).catch(() => undefined);
}

/**
 * Production builds report window errors and unhandled rejections; development builds do not
 * install this and keep Vite's overlay and the browser console. Returns the uninstaller.
 */
export function installErrorReporting(): () => void {
  const onError = (e: ErrorEvent) => reportError(e.error ?? e.message, 'error');
  const onRejection = (e: PromiseRejectionEvent) => reportError(e.reason, 'unhandledrejection');
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
