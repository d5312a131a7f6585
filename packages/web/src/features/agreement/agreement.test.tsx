import { act, screen } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch, rawKeys, renderWithProviders } from '../../shared/resource/test-kit';
import AgreementPage from './agreement-page';

const page = (url: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/disclaimer/:providerId" element={<AgreementPage />} />
      <Route path="/privacyAgreement/:providerId" element={<AgreementPage />} />
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
        content: url.searchParams.get('kind') === 'disclaimer' ? 'Charge at your own risk.' : 'Privacy.',
      },
    }));
    const view = page('/disclaimer/3');
    expect(await screen.findByText('Charge at your own risk.')).toBeTruthy();
    expect(screen.getByText('Green Charge')).toBeTruthy();
    expect(screen.getByText('Disclaimer')).toBeTruthy();
    const url = new URL(String(fetch.mock.calls[0]![0]), 'http://x');
    expect(url.pathname).toBe('/prod-api/web/getProviderAgreement');
    expect(Object.fromEntries(url.searchParams)).toEqual({ providerId: '3', kind: 'disclaimer' });
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
  });

  it('says so in Chinese when the provider wrote nothing, and 404s an unknown provider', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    mockFetch(() => ({ code: 200, msg: 'ok', data: { providerName: 'P', logoPath: null, content: null } }));
    page('/privacyAgreement/1');
    expect(await screen.findByText('该运营商尚未填写此内容')).toBeTruthy();
    expect(screen.getByText('隐私协议')).toBeTruthy();
  });

  it('refuses a malformed provider id without calling the server', async () => {
    const fetch = mockFetch(() => ({ code: 404, msg: 'x', data: null }));
    page('/disclaimer/abc');
    expect(await screen.findByText('No such provider')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
