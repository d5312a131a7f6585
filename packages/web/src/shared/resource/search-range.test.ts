import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formToQuery, queryToForm } from './SearchBar';
import type { SearchDef } from './types';

describe('date range search', () => {
  const day = [{ key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'] }] as SearchDef[];
  const instant = [{ key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], instant: true }] as SearchDef[];
  const range = [dayjs('2025-03-04T15:20:00'), dayjs('2025-03-06T08:00:00')];

  it('sends dates by default', () => {
    expect(formToQuery(day, { createTime: range })).toEqual({ startTime: '2025-03-04', endTime: '2025-03-06' });
  });

  it('sends whole local days as instants for time filters, and reads them back', () => {
    const q = formToQuery(instant, { createTime: range });
    expect(q.startTime).toBe(dayjs('2025-03-04T00:00:00').toISOString());
    expect(q.endTime).toBe(dayjs('2025-03-06T23:59:59.999').toISOString());
    const back = queryToForm(instant, q).createTime as dayjs.Dayjs[];
    expect(back.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2025-03-04', '2025-03-06']);
  });

  it('sends nothing without a range', () => {
    expect(formToQuery(instant, {})).toEqual({ startTime: undefined, endTime: undefined });
  });
});
