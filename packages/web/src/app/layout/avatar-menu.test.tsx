import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AvatarMenu } from './avatar-menu';
import { setSession } from '../../shared/auth/session';
import { mockFetch, polyfillDom, renderWithProviders } from '../../shared/resource/test-kit';
import MyProviderPage from '../../features/systemUser/my-provider.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const own = {
  id: 7,
  providerName: 'Leaf Power',
  providerType: 'common',
  parentId: 1,
  parentName: 'CSMS',
  email: null,
  contact: 'Dee',
  phone: null,
  expirationTime: '2027-01-01T00:00:00Z',
  authCount: 2,
  logoPath: null,
  disclaimer: null,
  privacyAgreement: null,
  agreementKey: 'b'.repeat(32),
  mailAccount: 'ops@leaf.test',
  hasMailAuthCode: true,
  mailAuthCodeMasked: '****',
  smtpAddress: 'smtp.leaf.test',
  smtpPort: 465,
  userCount: 1,
  createTime: '2025-01-02T03:04:05Z',
};
const single = (permissions: string[], isShowProvider = false) =>
  setSession({
    roles: ['ops'],
    permissions,
    providerId: 7,
    providerName: 'Leaf Power',
    providerType: 'common',
    isShowProvider,
    user: { username: 'dee', name: 'Dee' },
  } as never);

beforeAll(polyfillDom);
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('my provider', { timeout: 60_000 }, () => {
  it('is in the avatar menu of a single-provider user who may edit providers, and opens its own provider', async () => {
    single(['system:provider:query', 'system:provider:edit']);
    const asked: string[] = [];
    mockFetch((url) => {
      if (url.pathname.endsWith('/getProvider')) {
        asked.push(url.searchParams.get('id') ?? '');
        return ok(own);
      }
      return { code: 404, msg: 'x', data: null };
    });
    renderWithProviders(
      <Routes>
        <Route path="/dashboard" element={<AvatarMenu />} />
        <Route path="/user/myProvider" element={<MyProviderPage />} />
      </Routes>,
      '/dashboard',
    );
    fireEvent.click(screen.getByTestId('avatar-menu'));
    fireEvent.click(await screen.findByText('My provider'));
    await screen.findByText('Mail configuration');
    await waitFor(() => expect(screen.getByDisplayValue('smtp.leaf.test')).toBeTruthy());
    expect(asked).toEqual(['7']);
  });

  it('is not offered to users who see several providers or may not edit, and the page refuses them', async () => {
    mockFetch(() => ok(own));
    for (const [perms, many] of [
      [['system:provider:query', 'system:provider:edit'], true],
      [['system:provider:query'], false],
    ] as const) {
      single([...perms], many);
      const view = renderWithProviders(<AvatarMenu />);
      fireEvent.click(screen.getByTestId('avatar-menu'));
      await screen.findByText('Personal center');
      expect(screen.queryByText('My provider')).toBeNull();
      view.unmount();
    }
    await act(() => i18n.changeLanguage('zh-CN'));
    renderWithProviders(<MyProviderPage />);
    expect(await screen.findByText('您没有修改所属运营商设置的权限')).toBeTruthy();
    expect(screen.queryByText('邮箱配置')).toBeNull();
  });
});
