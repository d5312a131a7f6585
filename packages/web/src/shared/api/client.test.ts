import { organizationApi } from '@csms/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedback } from '../feedback';
import { ApiError, call, REQUEST_TIMEOUT_MS, setUnauthorizedHandler } from './client';

/** The console's answer to each envelope code of DESIGN.md §4 and to the spec's transport failures. */
const envelope = (body: unknown, status = 200) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );

let error: ReturnType<typeof vi.fn>;
let warning: ReturnType<typeof vi.fn>;
let on401: ReturnType<typeof vi.fn>;

beforeEach(() => {
  error = vi.fn();
  warning = vi.fn();
  on401 = vi.fn();
  vi.spyOn(feedback.message, 'error').mockImplementation(error as never);
  vi.spyOn(feedback.message, 'warning').mockImplementation(warning as never);
  setUnauthorizedHandler(on401 as () => void);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const list = () => call(organizationApi.list, { query: { page: 1, limit: 10 } });

describe('API client: envelope codes', () => {
  it('200 resolves with data and shows nothing', async () => {
    envelope({ code: 200, msg: 'ok', data: { list: [], total: 0 } });
    await expect(list()).resolves.toEqual({ list: [], total: 0 });
    expect(error).not.toHaveBeenCalled();
  });

  it.each([403, 404, 409, 500])('%i shows its message as an error toast and rejects', async (code) => {
    envelope({ code, msg: `reason ${code}`, data: null });
    await expect(list()).rejects.toMatchObject({ code, message: `reason ${code}` });
    expect(error).toHaveBeenCalledWith(`reason ${code}`);
    expect(on401).not.toHaveBeenCalled();
  });

  it('400 names the field; a form (fieldErrors) gets it without a toast', async () => {
    envelope({ code: 400, msg: 'Organisation name is required', data: { field: 'orgName' } });
    const err = await call(organizationApi.add, { body: { orgName: '' } }, { fieldErrors: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 400, field: 'orgName' });
    expect(error).not.toHaveBeenCalled();
    await expect(list()).rejects.toMatchObject({ code: 400 });
    expect(error).toHaveBeenCalledWith('Organisation name is required');
  });

  it('401 hands over to the re-login handler instead of a toast', async () => {
    envelope({ code: 401, msg: 'expired', data: null });
    await expect(list()).rejects.toMatchObject({ code: 401 });
    expect(on401).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it('601 is a warning toast and the call still succeeds', async () => {
    envelope({ code: 601, msg: 'done, but…', data: { list: [], total: 0 } });
    await expect(list()).resolves.toEqual({ list: [], total: 0 });
    expect(warning).toHaveBeenCalledWith('done, but…');
  });

  it('a failure without a message falls back to the unknown-error text', async () => {
    envelope({ code: 418, data: null });
    await expect(list()).rejects.toMatchObject({ code: 418 });
    expect(error).toHaveBeenCalledWith('Unknown system error, please report it to the administrator');
  });

  it('silent shows nothing at all', async () => {
    envelope({ code: 500, msg: 'boom', data: null });
    await expect(call(organizationApi.list, { query: { page: 1, limit: 10 } }, { silent: true })).rejects.toMatchObject({ code: 500 });
    expect(error).not.toHaveBeenCalled();
  });
});

describe('API client: transport failures', () => {
  it('a non-200 HTTP status shows "interface + status" for 5 s', async () => {
    envelope('<html>bad gateway</html>', 502);
    await expect(list()).rejects.toMatchObject({ code: 502 });
    expect(error).toHaveBeenCalledWith({
      content: 'Interface /prod-api/web/organizationManage/queryOrganizations 502 exception',
      duration: 5,
    });
  });

  it('a network failure shows the backend-connection message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(list()).rejects.toMatchObject({ code: 0 });
    expect(error).toHaveBeenCalledWith('Backend connection abnormal');
  });

  it(`gives up after ${REQUEST_TIMEOUT_MS} ms with the timeout message`, async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    const pending = list().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await pending).toMatchObject({ code: 0, message: 'Interface request timed out' });
    expect(error).toHaveBeenCalledWith('Interface request timed out');
  });
});
