import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getSession, setSession } from '../../shared/auth/session';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import UserManagePage from './user-manage.page';

const user = {
  id: 5,
  username: 'ann',
  name: 'Ann Lee',
  phone: '13800000000',
  email: null,
  avatar: null,
  status: 1,
  roleId: 2,
  roleName: 'Operators',
  providerId: 3,
  providerName: 'North Grid',
  stationIds: [],
  isChargeUser: false,
  lastLoginTime: null,
  createTime: '2025-01-02T03:04:05Z',
  manageable: true,
};
const provider = {
  id: 3,
  providerName: 'North Grid',
  providerType: 'common',
  parentId: 1,
  parentName: 'CSMS',
  email: null,
  contact: 'Bo',
  phone: null,
  expirationTime: '2027-01-01T00:00:00Z',
  authCount: 4,
  logoPath: null,
  disclaimer: null,
  privacyAgreement: null,
  mailAccount: 'a@b.c',
  hasMailAuthCode: true,
  mailAuthCodeMasked: '****',
  smtpAddress: 'smtp.b.c',
  smtpPort: 465,
  userCount: 1,
  createTime: '2025-01-02T03:04:05Z',
};
const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const dict = (values: string[]) => values.map((v) => ({ dictLabel: `label-${v}`, dictValue: v, listClass: 'default', cssClass: '' }));

/** The server as these screens see it; `extra` answers first. */
function server(extra: Reply = () => undefined) {
  return mockFetch((url, init) => {
    const own = extra(url, init);
    if (own !== undefined) return own;
    const p = url.pathname;
    if (p.endsWith('/getAllUsers')) return ok({ list: [user], total: 1 });
    if (p.endsWith('/getConditionProviders')) return ok({ list: [provider], total: 1 });
    if (p.endsWith('/getAllProviders')) return ok([{ id: 3, providerName: 'North Grid', providerType: 'common', parentId: 1 }]);
    if (p.endsWith('/queryRoles'))
      return ok([
        { id: 2, roleName: 'Operators', roleKey: 'ops', enabled: true, providerId: 1, assignable: true },
        { id: 1, roleName: 'Administrator', roleKey: 'admin', enabled: true, providerId: 1, assignable: false },
      ]);
    if (p.includes('/dict/data/type/')) return ok(dict(['1', '0']));
    return { code: 404, msg: 'x', data: null };
  });
}

const visibleKeys = (text: string) => [...rawKeys(text), ...(text.match(/\b(systemUser|provider|profile)\.[a-z]\w*/g) ?? [])];
const okButton = (label: string) => screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label)!;

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});
afterEach(async () => {
  cleanup();
  signInAdmin();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('system users and providers page', () => {
  it('renders the users tab in English and Chinese with no raw keys', async () => {
    server();
    let view = renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    await screen.findByText('Ann Lee');
    for (const label of [
      'System users',
      'Providers',
      'Username',
      'Role',
      'Provider',
      'Mobile phone',
      'Status',
      'Last sign-in',
      'Created at',
      'Details',
      'Edit',
      'More',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(visibleKeys(view.container.textContent ?? '')).toEqual([]);
    cleanup();

    await act(() => i18n.changeLanguage('zh-CN'));
    view = renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    await screen.findByText('Ann Lee');
    for (const label of ['系统用户', '运营商', '用户账号', '角色', '手机号码', '状态', '最后登录时间', '详情', '修改', '更多']) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(visibleKeys(view.container.textContent ?? '')).toEqual([]);
  });

  it('lists providers by POST with the filters of the URL, and keeps the tab when searching', async () => {
    const bodies: unknown[] = [];
    server((url, init) => {
      if (url.pathname.endsWith('/getConditionProviders')) bodies.push(JSON.parse(String(init?.body)));
      return undefined;
    });
    const view = renderWithProviders(<UserManagePage />, '/systemManagement/userManage?tab=providers&providerName=North&page=2');
    await screen.findByText('CSMS');
    expect(bodies[0]).toEqual({ providerName: 'North', page: 2, limit: 10 });
    for (const label of [
      'Provider name',
      'Provider type',
      'Parent provider',
      'Contact',
      'Expires at',
      'Authorized count',
      'Send test mail',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(visibleKeys(view.container.textContent ?? '')).toEqual([]);
    fireEvent.click(okButton('Search'));
    await waitFor(() => expect(bodies.length).toBe(2));
    expect(bodies[1]).toEqual({ providerName: 'North', page: 1, limit: 10 });
    // Still on the providers tab.
    expect(screen.getByText('CSMS')).toBeTruthy();
  });

  it('shows the provider panel only to users who see several providers (isShowProvider)', async () => {
    setSession({
      roles: ['ops'],
      permissions: ['system:user:list', 'system:provider:list', 'system:provider:query'],
      providerId: 3,
      providerName: 'P',
      providerType: 'common',
      isShowProvider: false,
    } as never);
    server(() => undefined);
    const view = renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    await screen.findByText('System users');
    expect(screen.queryByText('Providers')).toBeNull();
    view.unmount();
    setSession({ ...getSession()!, isShowProvider: true });
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    expect(await screen.findByText('Providers')).toBeTruthy();
  });

  it("gives a single-provider user who may edit providers a 'My provider' tab with its own provider's form", async () => {
    setSession({
      roles: ['ops'],
      permissions: ['system:user:list', 'system:provider:query', 'system:provider:edit'],
      providerId: 3,
      providerName: 'North Grid',
      providerType: 'common',
      isShowProvider: false,
    } as never);
    const asked: string[] = [];
    const saved: Record<string, unknown>[] = [];
    server((url, init) => {
      if (url.pathname.endsWith('/getProvider')) {
        asked.push(url.searchParams.get('id') ?? '');
        return ok({ ...provider, disclaimer: '<p>Old</p>', agreementKey: 'a'.repeat(32) });
      }
      if (url.pathname.endsWith('/updateProviderInfo')) {
        saved.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return ok(provider);
      }
      return undefined;
    });
    const view = renderWithProviders(<UserManagePage />, '/systemManagement/userManage?tab=myProvider');
    // The provider list is not offered; its own provider's settings are, loaded by its id.
    expect(await screen.findByText('My provider')).toBeTruthy();
    expect(screen.queryByText('Providers')).toBeNull();
    await screen.findByText('Mail configuration');
    await waitFor(() => expect(screen.getByDisplayValue('smtp.b.c')).toBeTruthy());
    expect(asked).toEqual(['3']);
    expect(screen.queryByText('Parent provider')).toBeNull();
    expect(screen.queryByText('Validity')).toBeNull();
    expect(screen.getByText('Disclaimer page')).toBeTruthy();
    expect(visibleKeys(view.container.textContent ?? '')).toEqual([]);

    fireEvent.change(screen.getByDisplayValue('Bo'), { target: { value: 'Carla' } });
    fireEvent.click(okButton('Save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ id: 3, providerName: 'North Grid', contact: 'Carla', smtpAddress: 'smtp.b.c', smtpPort: 465 });
    // Validity is not offered; parent and licences go back as they were (the server refuses a change by them).
    expect(saved[0]).not.toHaveProperty('expiration');
    expect(saved[0]!.parentId ?? 1).toBe(1);
    expect(saved[0]!.authCount ?? 4).toBe(4);
    view.unmount();

    // In Chinese, and not at all without the edit permission.
    await act(() => i18n.changeLanguage('zh-CN'));
    const zh = renderWithProviders(<UserManagePage />, '/systemManagement/userManage?tab=myProvider');
    expect(await screen.findByText('我的运营商')).toBeTruthy();
    await screen.findByText('邮箱配置');
    expect(visibleKeys(zh.container.textContent ?? '')).toEqual([]);
    zh.unmount();
    setSession({ ...getSession()!, permissions: ['system:user:list', 'system:provider:query'] });
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage?tab=myProvider');
    await screen.findByText('系统用户');
    expect(screen.queryByText('我的运营商')).toBeNull();
    expect(screen.queryByText('邮箱配置')).toBeNull();
  });

  it('leaves out Add, parent and validity for users of a common provider', async () => {
    setSession({
      roles: ['ops'],
      permissions: ['system:provider:list', 'system:provider:query', 'system:provider:add', 'system:provider:edit'],
      providerId: 3,
      providerName: 'P',
      providerType: 'common',
      // A provider with sub-providers: the panel is shown.
      isShowProvider: true,
    } as never);
    server((url) => (url.pathname.endsWith('/getProvider') ? ok(provider) : undefined));
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    // No user permission: the providers tab is the only one.
    await screen.findByText('CSMS');
    expect(screen.queryByText('System users')).toBeNull();
    expect(screen.queryByText('Add')).toBeNull();
    fireEvent.click(screen.getByText('Edit'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    await within(dialog).findByText('Mail configuration');
    expect(within(dialog).queryByText('Parent provider')).toBeNull();
    expect(within(dialog).queryByText('Validity')).toBeNull();
    expect(
      within(dialog).getByText('A code is stored; leave blank to keep it (type it again if you change the account, SMTP address or port)'),
    ).toBeTruthy();
  });

  it('checks the username with the server on blur', async () => {
    const asked: string[] = [];
    server((url) => {
      if (!url.pathname.endsWith('/isUserNameExisted')) return undefined;
      asked.push(url.searchParams.get('userName') ?? '');
      return ok(true);
    });
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    await screen.findByText('Ann Lee');
    fireEvent.click(okButton('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    const input = within(dialog).getByPlaceholderText('Enter Username');
    fireEvent.change(input, { target: { value: 'ann' } });
    fireEvent.blur(input);
    expect(await within(dialog).findByText('Username "ann" already exists')).toBeTruthy();
    expect(asked).toEqual(['ann']);
  });

  it("resets a password through the prompt, under the server's password rule", async () => {
    setSession({
      roles: ['admin'],
      permissions: ['*:*:*'],
      providerId: 1,
      providerName: 'P',
      passwordPolicy: { minLength: 8, classes: ['digit'], minClasses: 1 },
    } as never);
    const bodies: unknown[] = [];
    server((url, init) => {
      if (!url.pathname.endsWith('/resetUserPwd')) return undefined;
      bodies.push(JSON.parse(String(init?.body)));
      return ok(null);
    });
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    await screen.findByText('Ann Lee');
    // Six row actions: the rest fold into "More".
    fireEvent.click(screen.getByText('More'));
    fireEvent.click(await screen.findByText('Reset password'));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByPlaceholderText('Enter Password');
    fireEvent.change(input, { target: { value: 'abcdef' } });
    fireEvent.click(okButton('OK'));
    expect(await within(dialog).findByText('Password must be at least 8 characters')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'abcdefgh' } });
    fireEvent.click(okButton('OK'));
    expect(await within(dialog).findByText('Password must contain digits')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'abcdefg1' } });
    fireEvent.click(okButton('OK'));
    await waitFor(() => expect(bodies).toEqual([{ id: 5, password: 'abcdefg1' }]));
  });

  it('offers no change of a user above the caller, and only the roles it may assign', async () => {
    setSession({
      roles: ['ops'],
      permissions: [
        'system:user:list',
        'system:user:query',
        'system:user:add',
        'system:user:edit',
        'system:user:remove',
        'system:user:status',
        'system:user:resetPwd',
        'system:role:query',
      ],
      providerId: 1,
      providerName: 'P',
      providerType: 'super',
    } as never);
    const boss = { ...user, id: 6, username: 'boss', name: 'Boss Wu', manageable: false };
    server((url) => (url.pathname.endsWith('/getAllUsers') ? ok({ list: [user, boss], total: 2 }) : undefined));
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    const bossRow = (await screen.findByText('Boss Wu')).closest('tr')!;
    const annRow = screen.getByText('Ann Lee').closest('tr')!;
    expect(within(annRow).getByText('Edit')).toBeTruthy();
    for (const label of ['Edit', 'Delete', 'More', 'Reset password', 'Disable'])
      expect(within(bossRow).queryByText(label), label).toBeNull();
    expect(within(bossRow).getByText('Details')).toBeTruthy();

    fireEvent.click(okButton('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    const roleSelect = within(dialog).getAllByRole('combobox')[0]!;
    fireEvent.mouseDown(roleSelect);
    expect(await screen.findByTitle('Operators')).toBeTruthy();
    expect(screen.queryByTitle('Administrator')).toBeNull();
  });

  it('disables a user after the 系统提示 confirm', async () => {
    const bodies: unknown[] = [];
    server((url, init) => {
      if (!url.pathname.endsWith('/updateSystemUserStatus')) return undefined;
      bodies.push(JSON.parse(String(init?.body)));
      return ok({ ...user, status: 0 });
    });
    await act(() => i18n.changeLanguage('zh-CN'));
    renderWithProviders(<UserManagePage />, '/systemManagement/userManage');
    await screen.findByText('Ann Lee');
    fireEvent.click(screen.getByText('更多'));
    fireEvent.click(await screen.findByText('停用'));
    expect((await screen.findAllByText('系统提示')).length).toBeGreaterThan(0);
    expect(screen.getByText('确认要停用用户“ann”吗？停用后该用户将被强制退出。')).toBeTruthy();
    fireEvent.click(okButton('确定'));
    await waitFor(() => expect(bodies).toEqual([{ id: 5, status: 0 }]));
  });
});
