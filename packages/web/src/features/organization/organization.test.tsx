import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import OrganizationPage from './organization.page';

const row = {
  id: 7,
  orgName: 'North region',
  description: 'Ops',
  providerId: 1,
  providerName: 'Demo provider',
  roleCount: 3,
  createTime: '2025-01-02T03:04:05Z',
};

beforeAll(signInAdmin);

function answerList() {
  return mockFetch((url) =>
    url.pathname.endsWith('/queryOrganizations')
      ? { code: 200, msg: 'ok', data: { list: [row], total: 31 } }
      : { code: 404, msg: 'x', data: null },
  );
}

describe('organisations screen', () => {
  it('asks the server for the page and filters in the URL', async () => {
    const fetch = answerList();
    renderWithProviders(<OrganizationPage />, '/systemManagement/organizationManage?orgName=North&page=2&limit=20');
    await screen.findByText('North region');
    const url = new URL(String(fetch.mock.calls[0]![0]), 'http://localhost');
    expect(url.pathname).toBe('/prod-api/web/organizationManage/queryOrganizations');
    expect(Object.fromEntries(url.searchParams)).toEqual({ orgName: 'North', page: '2', limit: '20' });
    expect((screen.getByPlaceholderText('Enter Organisation name') as HTMLInputElement).value).toBe('North');
  });

  it('renders columns, search and toolbar in English with no raw keys', async () => {
    answerList();
    const { container } = renderWithProviders(<OrganizationPage />);
    await screen.findByText('North region');
    for (const label of ['Provider', 'Roles', 'Created at', 'Description', 'Add', 'Export', 'Search', 'Reset', '31 in total']) {
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    }
    expect(screen.getAllByText('Organisation name').length).toBeGreaterThanOrEqual(2); // search label and column
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('says "about" when the server estimated the total (lists past its exact-count limit)', async () => {
    mockFetch((url) =>
      url.pathname.endsWith('/queryOrganizations')
        ? { code: 200, msg: 'ok', data: { list: [row], total: 12345, totalEstimated: true } }
        : { code: 404, msg: 'x', data: null },
    );
    renderWithProviders(<OrganizationPage />);
    await screen.findByText('North region');
    expect(screen.getByText('About 12345 in total')).toBeTruthy();
  });

  it('renders the same screen in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    answerList();
    const { container } = renderWithProviders(<OrganizationPage />);
    await screen.findByText('North region');
    for (const label of ['运营商', '角色数', '创建时间', '描述', '新增', '导出', '搜索', '重置', '共 31 条', '修改', '删除']) {
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    }
    expect(screen.getAllByText('组织名称').length).toBeGreaterThanOrEqual(2);
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('hides what the user may not do', async () => {
    const { setSession } = await import('../../shared/auth/session');
    setSession({
      roles: ['ops'],
      permissions: ['system:organization:list', 'system:organization:query'],
      providerId: 1,
      providerName: 'P',
    } as never);
    answerList();
    renderWithProviders(<OrganizationPage />);
    await screen.findByText('North region');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Export')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    await waitFor(() => expect(screen.getByText('Details')).toBeTruthy());
    signInAdmin();
  });

  it('exports the current filters with a format and an export id', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/exportOrganizations')) {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(new Blob(['a']), { headers: { 'content-type': 'text/csv', 'download-filename': 'organization.csv' } });
      }
      return { code: 200, msg: 'ok', data: { list: [row], total: 1 } };
    });
    renderWithProviders(<OrganizationPage />, '/x?orgName=North&page=2');
    await screen.findByText('North region');
    fireEvent.mouseEnter(screen.getByText('Export'));
    fireEvent.click(await screen.findByText('Export CSV'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(bodies).toEqual([{ orgName: 'North', format: 'csv', exportId: expect.any(String) }]);
    click.mockRestore();
  });
});
