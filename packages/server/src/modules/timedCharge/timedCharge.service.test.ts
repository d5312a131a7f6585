import { describe, expect, it } from 'vitest';
import { nextStart } from './timedCharge.service.js';

const t = (v: Partial<Parameters<typeof nextStart>[0]> = {}) => ({
  validFrom: '2031-05-01',
  validTo: '2031-05-03',
  startTime: '08:00',
  lastRunDay: null,
  ...v,
});

describe('a timed charge’s next start, on the station’s wall clock', () => {
  it('is today’s start until it passes, then the next day’s, within the valid period', () => {
    // 07:59 and 08:01 in Shanghai (UTC+8).
    expect(nextStart(t(), 'Asia/Shanghai', new Date('2031-05-01T23:59:00Z'))).toEqual({
      day: '2031-05-02',
      at: new Date('2031-05-02T00:00:00Z'),
    });
    expect(nextStart(t(), 'Asia/Shanghai', new Date('2031-05-02T00:01:00Z'))?.day).toBe('2031-05-03');
    expect(nextStart(t(), 'Asia/Shanghai', new Date('2031-05-03T00:01:00Z'))).toBeUndefined();
  });

  it('waits for the first day, and never runs a day twice', () => {
    expect(nextStart(t(), 'Asia/Shanghai', new Date('2031-01-01T00:00:00Z'))?.day).toBe('2031-05-01');
    // The day already ran (e.g. an edit moved the time later): the next is tomorrow.
    expect(nextStart(t({ lastRunDay: '2031-05-02' }), 'Asia/Shanghai', new Date('2031-05-01T23:00:00Z'))?.day).toBe('2031-05-03');
  });

  it('takes a time a daylight-saving jump skips as the instant after the jump', () => {
    // Berlin skips 02:00–03:00 on 30 March 2031: 02:30 does not exist that day.
    const jump = t({ validFrom: '2031-03-30', validTo: '2031-03-31', startTime: '02:30' });
    expect(nextStart(jump, 'Europe/Berlin', new Date('2031-03-29T12:00:00Z'))).toEqual({
      day: '2031-03-30',
      at: new Date('2031-03-30T01:30:00Z'),
    });
  });
});
