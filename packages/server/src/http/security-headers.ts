import type { FastifyInstance } from 'fastify';

/** Origin of the map tile template (`https://{s}.tile.example/{z}/{x}/{y}.png` → `https://*.tile.example`), if any. */
export function tileOrigin(template: string): string | undefined {
  const m = /^(https?:\/\/)([^/?#]+)/i.exec(template.trim());
  if (!m) return undefined;
  const host = m[2]!.replace(/\{[a-z]+\}/gi, '*');
  return /^[\w.*:[\]-]+$/.test(host) ? `${m[1]!.toLowerCase()}${host}` : undefined;
}

/**
 * The console's Content-Security-Policy: its own scripts only; antd's inline styles; images from
 * itself, data: (the captcha) and blob: (previews and downloads) and the map tiles; connections to
 * itself and the card reader companion on loopback; never framed.
 */
export function contentSecurityPolicy({ mapTileUrl }: { mapTileUrl: string; readerPort?: number }): string {
  const tiles = tileOrigin(mapTileUrl);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ''}`,
    "font-src 'self' data:",
    // The companion's port is the server's setting, but an operator's machine may run it elsewhere (and the
    // browser tests run one per test): any loopback port, which reaches nothing beyond the operator's computer.
    `connect-src 'self' ws://127.0.0.1:*`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers on every answer, including hijacked ones (the event stream): set on the raw response
 * first, so that a route's own value (stored files' sandbox CSP) passed at writeHead wins.
 * HSTS only when the request came over TLS (directly, or through a trusted proxy).
 */
export function securityHeaders(server: FastifyInstance, opts: { mapTileUrl: string; readerPort: number }) {
  const csp = contentSecurityPolicy(opts);
  server.addHook('onRequest', async (req, reply) => {
    const res = reply.raw;
    res.setHeader('content-security-policy', csp);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'same-origin');
    res.setHeader('x-frame-options', 'DENY');
    if (req.protocol === 'https') res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
