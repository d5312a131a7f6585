import { organizationApi } from '@csms/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../cookies';
import { feedback } from '../feedback';
import { ApiError } from './client';
import { downloadExport, downloadFile, downloadZip } from './download';

let clicked: HTMLAnchorElement[] = [];

beforeEach(() => {
  clicked = [];
  URL.createObjectURL = vi.fn(() => 'blob:x');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
});
afterEach(() => vi.restoreAllMocks());

const stubFetch = (res: () => Response) => {
  const fn = vi.fn(async () => res());
  vi.stubGlobal('fetch', fn);
  return fn;
};

describe('downloads', () => {
  it('POSTs the export body as JSON and saves under the server’s file name', async () => {
    const fetch = stubFetch(
      () =>
        new Response(new Blob(['a,b']), {
          headers: { 'content-type': 'text/csv', 'download-filename': encodeURIComponent('组织 2025.csv') },
        }),
    );
    await downloadExport(organizationApi.export, { orgName: 'N', format: 'csv', exportId: 'e1' }, 'fallback.csv');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/prod-api/web/organizationManage/exportOrganizations');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ orgName: 'N', format: 'csv', exportId: 'e1' });
    expect(clicked.map((a) => a.download)).toEqual(['组织 2025.csv']);
  });

  it('shows the msg of a JSON envelope instead of saving it', async () => {
    const error = vi.spyOn(feedback.message, 'error').mockImplementation(() => (() => {}) as never);
    stubFetch(
      () =>
        new Response(JSON.stringify({ code: 409, msg: 'Too many rows', data: null }), { headers: { 'content-type': 'application/json' } }),
    );
    await expect(downloadExport(organizationApi.export, {}, 'x.xlsx')).rejects.toBeInstanceOf(ApiError);
    expect(error).toHaveBeenCalledWith('Too many rows');
    expect(clicked).toEqual([]);
  });

  it('GETs /common/download with the file name, falling back to the base name', async () => {
    const fetch = stubFetch(() => new Response(new Blob(['x']), { headers: { 'content-type': 'application/octet-stream' } }));
    await downloadFile('tmp/report.xlsx');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/prod-api/common/download?fileName=tmp%2Freport.xlsx');
    expect(init.method).toBe('GET');
    expect(clicked.map((a) => a.download)).toEqual(['report.xlsx']);
  });

  it('asks for deletion only by POST with the header token, never in a URL', async () => {
    setToken('t0k');
    const fetch = stubFetch(() => new Response(new Blob(['x']), { headers: { 'content-type': 'application/octet-stream' } }));
    await downloadFile('tmp/report.xlsx', true);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/prod-api/common/download');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ fileName: 'tmp/report.xlsx', delete: true });
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer t0k');
    expect(clicked.map((a) => a.download)).toEqual(['report.xlsx']);
  });

  it('POSTs a zip request form-encoded, each file a repeated field, and saves the blob', async () => {
    const fetch = stubFetch(
      () =>
        new Response(new Blob(['PK']), {
          headers: { 'content-type': 'application/zip', 'download-filename': encodeURIComponent('站点 3.zip') },
        }),
    );
    await downloadZip(['2025/01/01/a.png', '2025/01/01/b.png'], '站点 3');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/prod-api/common/download/zip');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    const body = new URLSearchParams(String(init.body));
    expect(body.getAll('fileNames')).toEqual(['2025/01/01/a.png', '2025/01/01/b.png']);
    expect(body.get('name')).toBe('站点 3');
    expect(clicked.map((a) => a.download)).toEqual(['站点 3.zip']);
  });

  it('shows a JSON refusal of a form download instead of saving it', async () => {
    const error = vi.spyOn(feedback.message, 'error').mockImplementation(() => undefined as never);
    stubFetch(
      () =>
        new Response(JSON.stringify({ code: 404, msg: 'Not found', data: { field: 'fileNames' } }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    await downloadZip(['2025/01/01/theirs.png']).catch(() => undefined);
    expect(clicked).toEqual([]);
    expect(error).toHaveBeenCalled();
  });
});
