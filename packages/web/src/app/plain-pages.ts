import { matchPath } from 'react-router';

/**
 * The pages drawn without antd and without the console (issue 14 item 7): sign-in, 404 and the
 * drivers' agreement pages. Each fetches its own small code and the catalogue's small part
 * (src/i18n/sign-in.*.ts), never antd, the shell or the whole catalogue (router.tsx, main.tsx).
 */
export const plainPaths = ['/login', '/404', '/disclaimer/:key', '/privacyAgreement/:key'] as const;

export function isPlainPage(pathname: string): boolean {
  return plainPaths.some((path) => matchPath({ path, end: true }, pathname) !== null);
}
