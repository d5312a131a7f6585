import { describe, expect, it } from 'vitest';
import { createAuthorization } from './authorization.js';

/** OCPP 1.6 SendLocalList as a charge point applies it (§5.15, §6.43). */
describe('local authorization list updates', () => {
  const accepted = { status: 'Accepted' as const };

  it('applies a Differential on top of the list: adds, changes, and removes entries sent without idTagInfo', () => {
    const auth = createAuthorization();
    const full = [
      { idTag: 'A', idTagInfo: accepted },
      { idTag: 'B', idTagInfo: accepted },
    ];
    expect(auth.update({ listVersion: 1, updateType: 'Full', entries: full }, 10)).toBe('Accepted');
    const diff = [{ idTag: 'A', idTagInfo: { status: 'Blocked' as const } }, { idTag: 'B' }, { idTag: 'C', idTagInfo: accepted }];
    expect(auth.update({ listVersion: 2, updateType: 'Differential', entries: diff }, 10)).toBe('Accepted');
    expect(auth.listVersion()).toBe(2);
    expect(auth.fromList('A', 0)).toEqual({ status: 'Blocked' });
    expect(auth.fromList('B', 0)).toBeUndefined();
    expect(auth.fromList('C', 0)).toEqual(accepted);
  });

  it('answers VersionMismatch to a Differential not above its version, and keeps its list', () => {
    const auth = createAuthorization();
    expect(auth.update({ listVersion: 5, updateType: 'Full', entries: [{ idTag: 'A', idTagInfo: accepted }] }, 10)).toBe('Accepted');
    for (const listVersion of [4, 5]) {
      expect(auth.update({ listVersion, updateType: 'Differential', entries: [{ idTag: 'A' }] }, 10)).toBe('VersionMismatch');
    }
    expect(auth.listVersion()).toBe(5);
    expect(auth.fromList('A', 0)).toEqual(accepted);
    // A Full replaces the list whatever its version.
    expect(auth.update({ listVersion: 2, updateType: 'Full', entries: [{ idTag: 'Z', idTagInfo: accepted }] }, 10)).toBe('Accepted');
    expect(auth.listVersion()).toBe(2);
    expect(auth.fromList('A', 0)).toBeUndefined();
  });

  it('answers Failed when a Differential would grow the list past its capacity, and keeps the list and version', () => {
    const auth = createAuthorization();
    const two = [
      { idTag: 'A', idTagInfo: accepted },
      { idTag: 'B', idTagInfo: accepted },
    ];
    expect(auth.update({ listVersion: 1, updateType: 'Full', entries: two }, 2)).toBe('Accepted');
    expect(auth.update({ listVersion: 2, updateType: 'Differential', entries: [{ idTag: 'C', idTagInfo: accepted }] }, 2)).toBe('Failed');
    expect(auth.listVersion()).toBe(1);
    expect(auth.listSize()).toBe(2);
    // Making room in the same update is fine.
    expect(
      auth.update({ listVersion: 2, updateType: 'Differential', entries: [{ idTag: 'A' }, { idTag: 'C', idTagInfo: accepted }] }, 2),
    ).toBe('Accepted');
    expect(auth.listSize()).toBe(2);
  });
});
