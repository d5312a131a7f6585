import { organizationApi } from '@csms/contract';
import { describe, expect, it } from 'vitest';
import { filtersOf, parseListQuery, toSearchParams } from './url-query';

const schema = organizationApi.list.query;
const parse = (qs: string) => parseListQuery(schema, new URLSearchParams(qs));

describe('list query in the URL', () => {
  it('defaults to page 1, limit 10', () => {
    expect(parse('')).toEqual({ page: 1, limit: 10 });
  });

  it('reads paging and filters through the endpoint schema', () => {
    expect(parse('page=3&limit=50&orgName=%20North%20')).toEqual({ page: 3, limit: 50, orgName: 'North' });
  });

  it('drops values the schema refuses and keys it does not know', () => {
    expect(parse('page=0&limit=15&orgName=a&evil=1')).toEqual({ page: 1, limit: 10, orgName: 'a' });
  });

  it('writes a clean query string and round-trips', () => {
    const qs = toSearchParams({ page: 1, limit: 10, orgName: '', other: undefined }).toString();
    expect(qs).toBe('');
    const q = { page: 2, limit: 20, orgName: '华北' };
    expect(parse(toSearchParams(q).toString())).toEqual(q);
  });

  it('keeps only the filters an export accepts', () => {
    expect(filtersOf({ page: 2, limit: 20, orgName: 'x', foo: 1 }, ['orgName', 'format'])).toEqual({ orgName: 'x' });
  });
});
