import { describe, expect, it } from 'vitest';
import { createEventHub, type ConsoleEvent } from './events.js';

describe('event hub', () => {
  it('delivers by user, provider and, for station-bound users, station', () => {
    const hub = createEventHub();
    const got: Record<string, string[]> = { all: [], provider2: [], bound: [], user7: [] };
    const sub = (name: string, userId: number, providers: number[] | 'all', stations?: number[]) =>
      hub.subscribe({
        userId,
        canSee: (p) => providers === 'all' || providers.includes(p),
        ...(stations ? { canSeeStation: (s: number) => stations.includes(s) } : {}),
        send: (e: ConsoleEvent) => got[name]!.push(e.type),
      });
    sub('all', 1, 'all');
    sub('provider2', 2, [2]);
    sub('bound', 3, [2], [20]);
    const off = sub('user7', 7, [9]);
    hub.publish({ type: 'a', providerId: 2, stationId: 20, payload: {} });
    hub.publish({ type: 'b', providerId: 2, stationId: 21, payload: {} });
    hub.publish({ type: 'c', providerId: 3, stationId: 30, payload: {} });
    hub.publish({ type: 'd', providerId: 2, payload: {} });
    hub.publish({ type: 'e', userId: 7, payload: {} });
    off();
    hub.publish({ type: 'f', userId: 7, payload: {} });
    expect(got).toEqual({ all: ['a', 'b', 'c', 'd'], provider2: ['a', 'b', 'd'], bound: ['a', 'd'], user7: ['e'] });
  });
});
