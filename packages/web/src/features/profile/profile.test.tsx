import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { onPasswordChangeRequest } from '../../shared/auth/password-dialog';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import ProfilePage from './profile.page';

const me = {
  id: 1,
  username: 'admin',
  name: 'Administrator',
  phone: null,
  email: null,
  avatar: null,
  roleName: 'Super admin',
  providerName: 'CSMS',
  lastLoginTime: '2025-01-02T03:04:05Z',
  createTime: '2025-01-01T00:00:00Z',
};
const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

beforeAll(signInAdmin);

const visibleKeys = (text: string) => [...rawKeys(text), ...(text.match(/\bprofile\.[a-z]\w*/g) ?? [])];

describe('personal center', () => {
  it('shows who I am in English and Chinese with no raw keys', async () => {
    mockFetch(() => ok(me));
    let view = renderWithProviders(<ProfilePage />, '/user/profile');
    await screen.findByText('Super admin');
    for (const label of [
      'About me',
      'Profile',
      'Security',
      'Username',
      'Role',
      'Provider',
      'Last sign-in',
      'Mobile phone',
      'Avatar',
      'Save',
      'Change password',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(visibleKeys(view.container.textContent ?? '')).toEqual([]);
    cleanup();

    await act(() => i18n.changeLanguage('zh-CN'));
    view = renderWithProviders(<ProfilePage />, '/user/profile');
    await screen.findByText('Super admin');
    for (const label of [
      '个人信息',
      '基本资料',
      '账号安全',
      '用户账号',
      '角色',
      '运营商',
      '最后登录时间',
      '手机号码',
      '头像',
      '修改密码',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(visibleKeys(view.container.textContent ?? '')).toEqual([]);
  });

  it('saves name, phone, email and avatar, and asks the shell for the password dialog', async () => {
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/updateProfile')) {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ ...me, name: 'Ann' });
      }
      return ok(me);
    });
    renderWithProviders(<ProfilePage />, '/user/profile');
    await screen.findByText('Super admin');
    await waitFor(() => expect((screen.getByPlaceholderText('Enter Name') as HTMLInputElement).value).toBe('Administrator'));
    fireEvent.change(screen.getByPlaceholderText('Enter Name'), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(bodies).toEqual([{ name: 'Ann', email: '', avatar: '' }]));
    // The save is over once it says so: its last updates must not land after this test (or after jsdom is gone).
    expect(await screen.findByText(i18n.t('common.success'))).toBeTruthy();

    let asked = 0;
    const off = onPasswordChangeRequest(() => (asked += 1));
    fireEvent.click(screen.getByText('Change password'));
    off();
    expect(asked).toBe(1);
  });
});
