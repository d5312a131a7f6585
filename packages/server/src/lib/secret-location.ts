/**
 * A file location as logs and the console show it. Two things in it open a door and never leave the
 * server: the password of a URL's user (the FTP login of a diagnostics request, or one an operator typed
 * into a firmware or diagnostics location), and the token of the server's own file paths for chargers
 * (`/files/diagnostics/<token>` takes an upload, `/files/firmware/<token>/…` serves a package).
 */
export function maskLocation(location: string): string {
  return location
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]+):[^/?#]*@/i, '$1:***@')
    .replace(/\/files\/(diagnostics|firmware)\/[0-9a-f]{64}(?=\/|$|\?|#)/gi, '/files/$1/***');
}
