/**
 * Which web pages may ask for a card. Browsers always send `Origin` on a WebSocket handshake, so
 * checking it stops any other site the operator has open from reading cards (and DNS-rebinding
 * tricks, whose Origin is still the attacker's name). Allowed by default: pages served from this
 * computer (http or https on localhost, 127.0.0.1 or [::1], any port); the console's own
 * address is added with `--origin https://csms.example.com`; `--origin '*'` allows any page.
 * A handshake without Origin is not a browser and is let through (e.g. scripts, tests).
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `https://csms.example.com/path` → `https://csms.example.com`; throws on anything else. */
export function normaliseOrigin(value: string): string {
  if (value === '*') return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`"${value}" is not an origin such as https://csms.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${value}" is not an http(s) origin`);
  return url.origin;
}

export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null" (sandboxed frames, file:// pages)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return LOOPBACK_HOSTS.has(url.hostname) || allowed.includes(url.origin);
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}
