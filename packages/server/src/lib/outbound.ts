import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Addresses the server connects to on an operator's behalf (a provider's SMTP server). An operator
 * must not be able to point the server at its own network: loopback, link-local (cloud metadata),
 * private, CGNAT, unspecified, multicast and reserved addresses are refused, IPv4-mapped and NAT64
 * forms judged by the IPv4 address inside, unless the administrator lists the host in
 * `CSMS_OUTBOUND_ALLOW`. A name is resolved once; the caller connects to the address that was
 * checked, so a second DNS answer (rebinding) never decides where the connection goes.
 */

export interface OutboundAllowEntry {
  /** Lower-case host name, or an IP address in canonical form. */
  host: string;
  /** Any port when absent. */
  port?: number;
}

export interface OutboundTarget {
  /** The host as the operator typed it: the TLS server name when it is a name. */
  host: string;
  port: number;
  /** The checked address to connect to. */
  address: string;
}

/** Why an address is refused; the operator sees a generic message, the server log this. */
export class OutboundRefused extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly reason: string,
  ) {
    super(`outbound connection to ${host}:${port} refused: ${reason}`);
  }
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dns.promises.lookup(host, { all: true });

/** One spelling per address (RFC 5952 for IPv6), so that allow-list entries and resolved addresses compare. */
const canonicalIp = (ip: string) => ipaddr.parse(ip).toString();

/**
 * The special range an address lies in (`loopback`, `private`, `linkLocal`, …), or null for an
 * ordinary public unicast address. Deny by default: anything ipaddr.js does not call unicast.
 */
export function internalRange(ip: string): string | null {
  const addr = ipaddr.parse(ip);
  const range = addr.range();
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    // ::ffff:a.b.c.d, ::ffff:0:a.b.c.d and 64:ff9b::a.b.c.d reach the IPv4 address inside.
    if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
      const inner = ipaddr.fromByteArray(v6.toByteArray().slice(-4)).toString();
      const innerRange = internalRange(inner);
      return innerRange && `${range}(${innerRange})`;
    }
  }
  return range === 'unicast' ? null : range;
}

/**
 * The host as an IP address when it is one, including the shorthand IPv4 forms a resolver accepts
 * (`127.1`, `2130706433`, `0x7f.0.0.1`), normalised by the WHATWG URL parser; else undefined.
 */
function ipLiteral(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(bare)) return bare;
  try {
    const hostname = new URL(`http://${bare}`).hostname.replace(/^\[(.*)\]$/, '$1');
    return net.isIP(hostname) ? hostname : undefined;
  } catch {
    return undefined;
  }
}

const normalHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** `CSMS_OUTBOUND_ALLOW`: comma-separated `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
export function parseOutboundAllow(value: string | undefined): OutboundAllowEntry[] {
  const entries: OutboundAllowEntry[] = [];
  for (const raw of (value ?? '').split(',')) {
    const item = raw.trim();
    if (!item) continue;
    let host = item;
    let port: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(item);
    if (bracketed) [, host = '', port] = bracketed;
    else if (!net.isIPv6(item) && item.includes(':')) [host = '', port] = item.split(':');
    const ip = ipLiteral(host);
    const portNumber = port === undefined ? undefined : Number(port);
    const badPort = portNumber !== undefined && !(Number.isInteger(portNumber) && portNumber >= 1 && portNumber <= 65535);
    if (!host || badPort || (!ip && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(host))) {
      throw new Error(`CSMS_OUTBOUND_ALLOW: "${item}" is not host, host:port or [IPv6]:port`);
    }
    entries.push({ host: ip ? canonicalIp(ip) : normalHost(host), ...(portNumber !== undefined ? { port: portNumber } : {}) });
  }
  return entries;
}

export function createOutboundGuard({ allow, lookup = systemLookup }: { allow: readonly OutboundAllowEntry[]; lookup?: Lookup }) {
  const allowed = (host: string, port: number) => allow.some((e) => e.host === host && (e.port === undefined || e.port === port));

  /** The range a host typed as an address (or `localhost`) is in, found without DNS; null when a name or public. */
  function literalRange(host: string): string | null {
    const h = normalHost(host);
    if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
    const ip = ipLiteral(h);
    return ip ? internalRange(ip) : null;
  }

  return {
    /**
     * A check without DNS, for saving a setting: the range when the host is an internal address
     * (or a `localhost` name) that the allow-list does not name; names are checked when used.
     */
    refusedLiteral(host: string, port: number): string | null {
      const range = literalRange(host);
      if (!range) return null;
      const ip = ipLiteral(normalHost(host));
      return allowed(normalHost(host), port) || (ip !== undefined && allowed(canonicalIp(ip), port)) ? null : range;
    },

    /** Resolve once and check every address; the first is where to connect. */
    async resolve(host: string, port: number): Promise<OutboundTarget> {
      const name = normalHost(host);
      const ip = ipLiteral(name);
      let addresses: string[];
      if (ip) addresses = [ip];
      else if (name === 'localhost' || name.endsWith('.localhost')) addresses = ['127.0.0.1'];
      else {
        try {
          addresses = (await lookup(name)).map((a) => a.address);
        } catch (err) {
          throw new OutboundRefused(host, port, `lookup failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
      }
      if (addresses.length === 0) throw new OutboundRefused(host, port, 'no address');
      const byName = allowed(name, port);
      // One internal address among several is enough to refuse: which one a connection would use is not ours to choose.
      for (const address of addresses) {
        const range = internalRange(address);
        if (range && !byName && !allowed(canonicalIp(address), port)) {
          throw new OutboundRefused(host, port, `${address} is ${range}`);
        }
      }
      return { host: ip ?? name, port, address: addresses[0]! };
    },
  };
}

export type OutboundGuard = ReturnType<typeof createOutboundGuard>;
