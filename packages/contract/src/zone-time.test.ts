import { describe, expect, it } from 'vitest';
import { dayAndMonthStart, dayBounds, instantOf, wallClock } from './zone-time.js';

describe('zone time', () => {
  it('shows an instant on the zone wall clock and reads it back', () => {
    expect(wallClock('2026-03-01T00:00:00Z', 'Asia/Shanghai')).toBe('2026-03-01 08:00:00');
    expect(instantOf('2026-03-01 08:00', 'Asia/Shanghai')).toEqual(new Date('2026-03-01T00:00:00Z'));
    // Skipped by the spring jump: the instant after it; repeated in autumn: the first one.
    expect(instantOf('2026-03-29 02:30', 'Europe/Berlin')).toEqual(new Date('2026-03-29T01:30:00Z'));
    expect(instantOf('2026-10-25 02:30', 'Europe/Berlin')).toEqual(new Date('2026-10-25T00:30:00Z'));
    expect(instantOf('not a time', 'UTC')).toBeUndefined();
  });

  it('bounds day filters on the zone wall clock, inclusive', () => {
    expect(dayBounds({ startTime: '2026-06-01', endTime: '2026-06-01' }, 'Asia/Shanghai')).toEqual({
      startTime: new Date('2026-05-31T16:00:00Z'),
      endTime: new Date('2026-06-01T15:59:59.999Z'),
    });
  });

  it('finds midnight and the first of the month in a zone, across clock changes', () => {
    expect(dayAndMonthStart(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin')).toEqual({
      day: new Date('2026-03-28T23:00:00Z'),
      month: new Date('2026-02-28T23:00:00Z'),
    });
    expect(dayAndMonthStart(new Date('2026-06-15T20:00:00Z'), 'Asia/Shanghai')).toEqual({
      day: new Date('2026-06-15T16:00:00Z'),
      month: new Date('2026-05-31T16:00:00Z'),
    });
    expect(dayAndMonthStart(new Date('2026-01-01T03:00:00Z'), 'America/New_York')).toEqual({
      day: new Date('2025-12-31T05:00:00Z'),
      month: new Date('2025-12-01T05:00:00Z'),
    });
    const month = (at: string, zone: string) => dayAndMonthStart(new Date(at), zone).month.toISOString();
    expect(month('2026-02-28T17:00:00Z', 'Asia/Shanghai')).toBe('2026-02-28T16:00:00.000Z');
    expect(month('2026-04-10T00:00:00Z', 'Europe/Berlin')).toBe('2026-03-31T22:00:00.000Z');
    expect(month('2026-11-02T00:00:00Z', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z');
    expect(month('2026-01-31T23:59:59Z', 'UTC')).toBe('2026-01-01T00:00:00.000Z');
  });
});
