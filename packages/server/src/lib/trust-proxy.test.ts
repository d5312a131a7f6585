import { describe, expect, it } from 'vitest';
import { parseTrustProxy, trustFunction } from './trust-proxy.js';

describe('CSMS_TRUST_PROXY', () => {
  it('is off, a number of proxies (true: one), or their addresses, never every hop', () => {
    expect([undefined, '', 'false', '0', 'off'].map(parseTrustProxy)).toEqual([false, false, false, false, false]);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => parseTrustProxy('not-an-address')).toThrow(/CSMS_TRUST_PROXY/);
    const one = trustFunction(1) as (a: string, i: number) => boolean;
    expect([one('127.0.0.1', 0), one('198.51.100.1', 1)]).toEqual([true, false]);
    const listed = trustFunction(['10.0.0.0/8']) as (a: string, i: number) => boolean;
    expect([listed('10.1.2.3', 0), listed('198.51.100.1', 0)]).toEqual([true, false]);
    expect(trustFunction(false)).toBe(false);
  });
});
