import type { UserInfo } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../i18n/lang';
import { setSession } from '../../shared/auth/session';
import { mockFetch, polyfillDom, renderWithProviders } from '../../shared/resource/test-kit';
import ChangePasswordDialog from './change-password-dialog';

/** A user of a server that asks for 10 characters with lower- and upper-case letters and digits. */
function signInUnderStrictRule() {
  setSession({
    roles: ['ops'],
    permissions: [],
    providerId: 1,
    providerName: 'P',
    passwordPolicy: { minLength: 10, classes: ['lower', 'upper', 'digit'], minClasses: 3 },
  } as unknown as UserInfo);
}

const typeNew = async (label: string, value: string) => {
  await act(async () => {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  });
};

beforeAll(() => {
  polyfillDom();
});
afterEach(async () => {
  cleanup();
  setSession(null);
  vi.unstubAllGlobals();
  setLocale('en-US');
  await act(() => i18n.changeLanguage('en-US'));
});

describe('change password dialog', () => {
  it("follows the server's password rule from the user info, in English", async () => {
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', data: true }));
    signInUnderStrictRule();
    renderWithProviders(<ChangePasswordDialog onClose={() => {}} onChanged={() => {}} />);
    await typeNew('New password', 'abcdefgh');
    expect(await screen.findByText('New password must be at least 10 characters')).toBeTruthy();
    await typeNew('New password', 'abcdefghijk');
    expect(await screen.findByText('New password must contain lower-case letters, upper-case letters, digits')).toBeTruthy();
    await typeNew('New password', 'Abcdefghij1');
    await waitFor(() => expect(screen.queryByText(/New password must/)).toBeNull());
    // Nothing is sent while typing: the form checks before any call.
    expect(fetch).not.toHaveBeenCalled();
  });

  it('and in Chinese', async () => {
    mockFetch(() => ({ code: 200, msg: 'ok', data: true }));
    setLocale('zh-CN');
    await act(() => i18n.changeLanguage('zh-CN'));
    signInUnderStrictRule();
    renderWithProviders(<ChangePasswordDialog onClose={() => {}} onChanged={() => {}} />);
    await typeNew('新密码', 'abcdefgh');
    expect(await screen.findByText('新密码长度不能少于 10 个字符')).toBeTruthy();
    await typeNew('新密码', 'abcdefghij1');
    expect(await screen.findByText('新密码必须包含小写字母、大写字母、数字')).toBeTruthy();
  });

  it('keeps the spec minimum of 5 when the server sets no rule', async () => {
    mockFetch(() => ({ code: 200, msg: 'ok', data: true }));
    setSession({ roles: ['ops'], permissions: [], providerId: 1, providerName: 'P' } as unknown as UserInfo);
    renderWithProviders(<ChangePasswordDialog onClose={() => {}} onChanged={() => {}} />);
    await typeNew('New password', 'abcd');
    expect(await screen.findByText('New password must be at least 5 characters')).toBeTruthy();
    await typeNew('New password', 'abcdefgh');
    await waitFor(() => expect(screen.queryByText(/New password must/)).toBeNull());
  });
});
