import { matchPath } from 'react-router';

/** Paths anyone may open without signing in (spec §2); their screens render outside the layout. */
/** Open without a session; the agreement pages are for drivers, who have no console account. */
export const publicPaths = ['/login', '/applyForm', '/404', '/disclaimer/:key', '/privacyAgreement/:key'];

/** True when an address is one of the public pages (its parameters filled in). */
export function isPublicPath(pathname: string): boolean {
  return publicPaths.some((path) => matchPath({ path, end: true }, pathname) !== null);
}
