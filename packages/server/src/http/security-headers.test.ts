import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, tileOrigin } from './security-headers.js';

describe("the console's Content-Security-Policy (issue 12, item 7)", () => {
  it('is never framed, runs only its own scripts and allows what the console needs', () => {
    const csp = contentSecurityPolicy({ mapTileUrl: '', readerPort: 8989 });
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self' ws://127.0.0.1:*");
  });

  it('lets the map tiles in by their origin, subdomain placeholders as a wildcard', () => {
    expect(tileOrigin('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org');
    expect(tileOrigin('HTTPS://tiles.example:8443/{z}/{x}/{y}.png')).toBe('https://tiles.example:8443');
    expect(tileOrigin('javascript:alert(1)')).toBeUndefined();
    expect(tileOrigin("https://a.example'; script-src *")).toBeUndefined();
    expect(contentSecurityPolicy({ mapTileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', readerPort: 1 })).toContain(
      "img-src 'self' data: blob: https://*.tile.example.org",
    );
  });
});
