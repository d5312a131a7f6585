import { act, cleanup, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../shared/cookies';
import { mockFetch, polyfillDom, renderWithProviders } from '../../shared/resource/test-kit';
import { ErrorBoundary } from './error-boundary';
import { installErrorReporting, reportError, resetErrorReporting } from './error-reporting';

beforeAll(polyfillDom);
beforeEach(() => resetErrorReporting());
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await act(() => i18n.changeLanguage('en-US'));
});

const bodies = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(([u, init]) => ({
    url: new URL(String(u), 'http://x').pathname,
    body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    init,
  }));

describe('error reporting (spec §9)', () => {
  it('reports window errors and unhandled rejections with route, build and the session, once per error', async () => {
    setToken('t0k3n');
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', data: { accepted: true } }));
    window.history.pushState({}, '', '/station/edit');
    const uninstall = installErrorReporting();
    try {
      const boom = new TypeError('x is undefined');
      window.dispatchEvent(new ErrorEvent('error', { error: boom, message: boom.message }));
      window.dispatchEvent(new ErrorEvent('error', { error: boom, message: boom.message }));
      const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.assign(rejection, { reason: 'quota gone' });
      window.dispatchEvent(rejection);
      await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    } finally {
      uninstall();
    }
    const [first, second] = bodies(fetch);
    expect(first!.url).toBe('/prod-api/web/errorLog/report');
    expect(first!.body).toMatchObject({
      message: 'TypeError: x is undefined',
      source: 'error',
      route: '/station/edit',
      buildId: expect.any(String),
    });
    expect(String(first!.body.stack)).toContain('x is undefined');
    expect(new Headers(first!.init?.headers).get('authorization')).toBe('Bearer t0k3n');
    expect(second!.body).toMatchObject({ message: 'quota gone', source: 'unhandledrejection' });
  });

  it('sends at most ten reports from one page load and never fails itself', async () => {
    const fetch = mockFetch(() => new Response('down', { status: 502 }));
    for (let i = 0; i < 15; i++) reportError(new Error(`e${i}`), 'error');
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(10));
  });

  it('reports a screen that throws while rendering with its component stack, and offers a reload in the user’s language', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', data: { accepted: true } }));
    const Broken = () => {
      throw new Error('render failed');
    };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(await screen.findByText('页面出错了')).toBeTruthy();
    expect(screen.getByText('刷新页面')).toBeTruthy();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [report] = bodies(fetch);
    expect(report!.body).toMatchObject({ message: 'Error: render failed', source: 'boundary' });
    expect(String(report!.body.stack)).toContain('Broken');
  });
});
