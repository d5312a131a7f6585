import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * `CSMS_TRUST_PROXY`: which proxies in front of the server are believed when they say, in
 * `X-Forwarded-For`, who the client is. Off (`false`); a number of proxies (`true`: one, the load
 * balancer a README deployment puts in front); or the proxies' addresses and ranges. Never every
 * hop: the leftmost entries are the client's own to write, and believing them let a client pick a
 * new address for every sign-in, application or charger connection the per-address limits count.
 */
export type TrustProxy = false | number | string[];

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const v = raw?.trim() ?? '';
  if (v === '' || /^(0|false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(list);
  } catch (err) {
    throw new Error(`CSMS_TRUST_PROXY must be true, a number of proxies, or their addresses (comma-separated): ${(err as Error).message}`);
  }
  return list;
}

/** The test whether a hop (its address, its distance from the server: 0 is the socket's peer) is a trusted proxy. */
export function trustFunction(t: TrustProxy): ((addr: string, i: number) => boolean) | false {
  if (t === false) return false;
  if (typeof t === 'number') return (_addr, i) => i < t;
  return proxyAddr.compile(t);
}

/** The client's address as the limits count it: the socket's peer, or the nearest hop no trusted proxy vouches for. */
export function clientAddress(req: IncomingMessage, trust: ReturnType<typeof trustFunction>): string {
  return (trust ? proxyAddr(req, trust) : req.socket.remoteAddress) ?? '';
}
