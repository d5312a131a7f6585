import { describe, expect, it } from 'vitest';
import { minPowerW, plan, type PlanSession } from './planner.js';

const MIN = minPowerW(6, 22_000); // 6 A on three phases: 4,140 W
const s = (key: string, v: Partial<PlanSession> = {}): PlanSession => ({
  key,
  arrival: Number(key.replace(/\D/g, '')),
  ratedW: 22_000,
  minW: MIN,
  online: true,
  priority: false,
  ...v,
});
const byKey = (entries: ReturnType<typeof plan>) => Object.fromEntries(entries.map((e) => [e.key, [e.state, e.allocatedW]]));
const total = (entries: ReturnType<typeof plan>) => entries.reduce((a, e) => a + e.allocatedW, 0);

describe('the balancer’s plan', () => {
  it('shares the budget equally, never above it', () => {
    const p = plan(30_000, [s('a1'), s('b2'), s('c3')]);
    expect(byKey(p)).toEqual({ a1: ['charging', 10_000], b2: ['charging', 10_000], c3: ['charging', 10_000] });
    expect(total(plan(30_001, [s('a1'), s('b2'), s('c3')]))).toBeLessThanOrEqual(30_001);
  });

  it('caps each at its rating and gives the rest to the others', () => {
    const p = plan(30_000, [s('a1', { ratedW: 7_000, minW: minPowerW(6, 7_000) }), s('b2'), s('c3')]);
    expect(byKey(p)).toEqual({ a1: ['charging', 7_000], b2: ['charging', 11_500], c3: ['charging', 11_500] });
  });

  it('gives what a car does not take to the others, leaving it room to ask for more', () => {
    // a1 was given 10 kW and draws 3 kW: it keeps 3.6 kW; b2 and c3 share the rest.
    const p = plan(30_000, [s('a1', { previousW: 10_000, measuredW: 3_000 }), s('b2', { previousW: 10_000, measuredW: 10_000 }), s('c3')]);
    expect(byKey(p)).toEqual({ a1: ['charging', 4_140], b2: ['charging', 12_930], c3: ['charging', 12_930] });
    // Drawing (nearly) all it was given, it is taken to want more.
    expect(byKey(plan(30_000, [s('a1', { previousW: 4_140, measuredW: 4_100 }), s('b2')]))).toEqual({
      a1: ['charging', 15_000],
      b2: ['charging', 15_000],
    });
  });

  it('makes later sessions wait at 0 W when the budget cannot give each its minimum', () => {
    const p = plan(10_000, [s('a1'), s('b2'), s('c3')]);
    expect(byKey(p)).toEqual({ a1: ['charging', 5_000], b2: ['charging', 5_000], c3: ['waiting', 0] });
    // The first to arrive is admitted first, whatever order the sessions come in.
    expect(byKey(plan(5_000, [s('c3'), s('a1')]))).toEqual({ c3: ['waiting', 0], a1: ['charging', 5_000] });
  });

  it('keeps an offline point’s last allocation counted (fail-safe)', () => {
    const p = plan(30_000, [s('a1', { online: false, previousW: 12_000 }), s('b2'), s('c3')]);
    expect(byKey(p)).toEqual({ a1: ['offline', 12_000], b2: ['charging', 9_000], c3: ['charging', 9_000] });
  });

  it('serves priority points first', () => {
    const p = plan(20_000, [s('a1'), s('b2', { priority: true })]);
    expect(byKey(p)).toEqual({ a1: ['charging', MIN], b2: ['charging', 20_000 - MIN] });
    // And admits them first when not everyone fits.
    expect(byKey(plan(5_000, [s('a1'), s('b2', { priority: true })]))).toEqual({ a1: ['waiting', 0], b2: ['charging', 5_000] });
  });
});
