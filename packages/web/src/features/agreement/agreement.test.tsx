import { act, screen } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch, rawKeys, renderWithProviders } from '../../shared/resource/test-kit';
import AgreementPage from './agreement-page';

const KEY = '9f86d081884c7d659a2feaa0c55ad015';
const page = (url: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/disclaimer/:key" element={<AgreementPage kind="disclaimer" />} />
      <Route path="/privacyAgreement/:key" element={<AgreementPage kind="privacyAgreement" />} />
    </Routes>,
    url,
  );

describe('public agreement pages', () => {
  it('shows the provider disclaimer, asking the public endpoint for the right kind', async () => {
    const fetch = mockFetch((url) => ({
      code: 200,
      msg: 'ok',
      data: {
        providerName: 'Green Charge',
        logoPath: null,
        content:
          url.searchParams.get('kind') === 'disclaimer'
            ? '<p><strong>Charge</strong> at your own risk.</p><img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script>' +
              '<a href="javascript:alert(1)">js</a><img src="/prod-api/web/getProviderAgreement/image?key=k&amp;resource=a.png" alt="map">'
            : 'Privacy.',
      },
    }));
    const view = page(`/disclaimer/${KEY}`);
    expect(await screen.findByText('at your own risk.', { exact: false })).toBeTruthy();
    // The HTML is shown through the allow-list: formatting and the server's image stay, script and handlers do not.
    const content = screen.getByTestId('agreement-content');
    expect(content.querySelector('strong')?.textContent).toBe('Charge');
    expect([...content.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      '/prod-api/web/getProviderAgreement/image?key=k&resource=a.png',
    ]);
    expect(content.innerHTML).not.toMatch(/onerror|script|javascript/i);
    expect(content.querySelector('a')?.getAttribute('href')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    expect(screen.getByText('Green Charge')).toBeTruthy();
    expect(screen.getByText('Disclaimer')).toBeTruthy();
    const url = new URL(String(fetch.mock.calls[0]![0]), 'http://x');
    expect(url.pathname).toBe('/prod-api/web/getProviderAgreement');
    expect(Object.fromEntries(url.searchParams)).toEqual({ key: KEY, kind: 'disclaimer' });
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
  });

  it('says so in Chinese when the provider wrote nothing, and 404s an unknown provider', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    mockFetch(() => ({ code: 200, msg: 'ok', data: { providerName: 'P', logoPath: null, content: null } }));
    page(`/privacyAgreement/${KEY}`);
    expect(await screen.findByText('该运营商尚未填写此内容')).toBeTruthy();
    expect(screen.getByText('隐私协议')).toBeTruthy();
  });

  it('refuses a provider id or a malformed key without calling the server', async () => {
    const fetch = mockFetch(() => ({ code: 404, msg: 'x', data: null }));
    for (const link of ['/disclaimer/3', '/disclaimer/abc']) {
      const view = page(link);
      expect(await screen.findByText('No such provider')).toBeTruthy();
      view.unmount();
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says the same for a key that matches no provider as for any other unknown page', async () => {
    mockFetch(() => ({ code: 404, msg: 'x', data: null }));
    page(`/disclaimer/${KEY}`);
    expect(await screen.findByText('No such provider')).toBeTruthy();
  });
});
