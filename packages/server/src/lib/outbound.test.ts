import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createOutboundGuard, internalRange, OutboundRefused, parseOutboundAllow, type Lookup } from './outbound.js';

/** A resolver that answers from a table and counts its questions. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup: Lookup = async (host) => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

describe('internal address ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.0.10', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::53', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4Mapped(loopback)'],
    ['::ffff:a9fe:a9fe', 'ipv4Mapped(linkLocal)'],
    ['::ffff:0:10.0.0.1', 'rfc6145(private)'],
    ['64:ff9b::a00:1', 'rfc6052(private)'],
  ])('%s is %s', (ip, range) => {
    expect(internalRange(ip)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    '%s is public',
    (ip) => {
      expect(internalRange(ip)).toBeNull();
    },
  );
});

describe('CSMS_OUTBOUND_ALLOW', () => {
  it('reads host, host:port, [IPv6]:port and bare IPv6 entries', () => {
    expect(parseOutboundAllow(' Mail.Corp.Example.:587, 10.0.0.5 ,[::1]:25,fd00::1,,127.1:2525')).toEqual([
      { host: 'mail.corp.example', port: 587 },
      { host: '10.0.0.5' },
      { host: '::1', port: 25 },
      { host: 'fd00::1' },
      { host: '127.0.0.1', port: 2525 },
    ]);
    expect(parseOutboundAllow(undefined)).toEqual([]);
  });

  it.each(['mail:smtp', 'mail:0', 'mail:70000', 'bad host', '[::1', 'a:b:c:25x', '-x.example'])('refuses "%s" at start-up', (value) => {
    expect(() => parseOutboundAllow(value)).toThrow(/CSMS_OUTBOUND_ALLOW/);
    expect(() => loadConfig({ CSMS_OUTBOUND_ALLOW: value })).toThrow(/CSMS_OUTBOUND_ALLOW/);
  });
});

describe('outbound guard', () => {
  it('refuses internal literals without DNS unless the allow-list names them', () => {
    const guard = createOutboundGuard({ allow: parseOutboundAllow('10.0.0.5:25,relay.localhost'), lookup: fakeDns({}).lookup });
    expect(guard.refusedLiteral('127.1', 25)).toBe('loopback');
    expect(guard.refusedLiteral('0x7f.0.0.1', 25)).toBe('loopback');
    expect(guard.refusedLiteral('[::ffff:169.254.169.254]', 25)).toBe('ipv4Mapped(linkLocal)');
    expect(guard.refusedLiteral('LOCALHOST.', 25)).toBe('loopback');
    expect(guard.refusedLiteral('10.0.0.5', 25)).toBeNull();
    expect(guard.refusedLiteral('10.0.0.5', 587)).toBe('private');
    expect(guard.refusedLiteral('relay.localhost', 2525)).toBeNull();
    expect(guard.refusedLiteral('smtp.example.com', 25)).toBeNull();
    expect(guard.refusedLiteral('8.8.8.8', 25)).toBeNull();
  });

  it('resolves once and answers the checked address; one internal address refuses the name', async () => {
    const dns = fakeDns({
      'smtp.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      'split.example.com': ['93.184.215.14', '10.0.0.9'],
      'mail.corp.example': ['10.0.0.7'],
      'metadata.example.com': ['::ffff:169.254.169.254'],
    });
    const guard = createOutboundGuard({ allow: parseOutboundAllow('mail.corp.example:587'), lookup: dns.lookup });

    expect(await guard.resolve('SMTP.example.com', 25)).toEqual({ host: 'smtp.example.com', port: 25, address: '93.184.215.14' });
    expect(dns.asked).toEqual(['smtp.example.com']);
    await expect(guard.resolve('split.example.com', 25)).rejects.toThrow(/10\.0\.0\.9 is private/);
    await expect(guard.resolve('metadata.example.com', 80)).rejects.toThrow(/ipv4Mapped\(linkLocal\)/);
    // The administrator allowed this internal relay on 587, not on other ports.
    expect(await guard.resolve('mail.corp.example', 587)).toMatchObject({ address: '10.0.0.7' });
    await expect(guard.resolve('mail.corp.example', 25)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(guard.resolve('nowhere.example.com', 25)).rejects.toThrow(/lookup failed: ENOTFOUND/);
    // Literals and localhost names never reach the resolver.
    dns.asked.length = 0;
    await expect(guard.resolve('127.0.0.1', 25)).rejects.toThrow(/loopback/);
    await expect(guard.resolve('db.localhost', 25)).rejects.toThrow(/loopback/);
    expect(await guard.resolve('[2001:4860:4860::8888]', 25)).toMatchObject({ address: '2001:4860:4860::8888' });
    expect(dns.asked).toEqual([]);
  });
});
