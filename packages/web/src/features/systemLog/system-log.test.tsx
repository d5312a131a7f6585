import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import SystemLogPage from './system-log.page';
import { prettyJson } from './json-block';

const log = {
  id: 3,
  operation: 'add',
  operator: 'admin',
  operand: 'role:ops',
  method: 'POST',
  path: '/web/permissionManage/createRole',
  ip: '127.0.0.1',
  result: 200,
  msg: 'ok',
  mode: 'web',
  durationMs: 12,
  providerId: 1,
  createTime: '2025-01-02T03:04:05Z',
};

function serve() {
  return mockFetch((url) => {
    if (url.pathname.endsWith('/getOperateLogs')) return { code: 200, msg: 'ok', data: { list: [log], total: 1 } };
    if (url.pathname.endsWith('/getOperateLog'))
      return { code: 200, msg: 'ok', data: { ...log, request: { roleName: 'Ops', rolePaths: ['/systemManagement'] } } };
    if (url.pathname.endsWith('/getOperateDescription'))
      return { code: 200, msg: 'ok', data: [{ dictLabel: 'Sign in', dictValue: 'login', listClass: 'info', cssClass: '' }] };
    return { code: 200, msg: 'ok', data: [] };
  });
}

beforeAll(signInAdmin);

describe('system log', () => {
  it('pretty-prints the request', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('plain')).toBe('plain');
    expect(prettyJson(null)).toBe('');
  });

  it('filters from the URL and shows the request in the detail', async () => {
    const fetch = serve();
    const { container } = renderWithProviders(<SystemLogPage />, '/systemManagement/systemLog?operator=adm');
    await screen.findByText('role:ops');
    const urls = fetch.mock.calls.map(([u]) => new URL(String(u), 'http://localhost'));
    const url = urls.find((u) => u.pathname.endsWith('/getOperateLogs'))!;
    expect(url.searchParams.get('operator')).toBe('adm');
    expect(screen.queryByText('Add')).toBeNull();
    fireEvent.click(screen.getByText('Details'));
    expect((await screen.findByTestId('log-request')).textContent).toContain('"roleName": "Ops"');
    expect(rawKeys(container.ownerDocument.body.textContent ?? '')).toEqual([]);
  });

  it('renders in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    serve();
    renderWithProviders(<SystemLogPage />);
    await screen.findByText('role:ops');
    for (const label of ['操作类型', '操作人员', '操作对象', 'IP地址', '操作结果', '方式', '操作时间', '耗时（毫秒）', '导出']) {
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    }
  });

  it('offers the export columns in the export menu only with the permission', async () => {
    serve();
    renderWithProviders(<SystemLogPage />);
    fireEvent.mouseEnter(await screen.findByText('Export'));
    expect(await screen.findByText('Export columns…')).toBeTruthy();
    cleanup();
    setSession({ roles: ['ops'], permissions: ['system:log:list', 'system:log:export'], providerId: 1, providerName: 'P' } as never);
    renderWithProviders(<SystemLogPage />);
    fireEvent.mouseEnter(await screen.findByText('Export'));
    await screen.findByText('Export CSV');
    await waitFor(() => expect(screen.queryByText('Export columns…')).toBeNull());
    signInAdmin();
  });
});
