import type { MessageRow } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders } from '../../shared/resource/test-kit';
import MessagePage, { messageView } from './message.page';

const msg = (over: Partial<MessageRow> = {}): MessageRow => ({
  msgId: 5,
  userId: 9,
  title: 'Station offline',
  content: 'Station North went offline at noon.',
  isSend: false,
  createTime: '2025-01-02T03:04:05Z',
  createUserName: 'admin',
  recUserName: 'alice',
  read: 0,
  readTime: null,
  delete: 0,
  ...over,
});

function signInAs(username: string, permissions: string[]) {
  setSession({
    user: { id: 9, username },
    roles: [username === 'admin' ? 'admin' : 'ops'],
    permissions,
    providerId: 1,
    providerName: 'P',
  } as never);
}

type Call = { path: string; query: Record<string, string>; body: unknown };

function serve(rows: MessageRow[], view: 'admin' | 'inbox') {
  const calls: Call[] = [];
  const fetch = mockFetch((url, init) => {
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    if (url.pathname.endsWith('/getAllMsg')) return { code: 200, msg: 'ok', data: { list: rows, total: rows.length, view } };
    if (url.pathname.endsWith('/readMsg')) return { code: 200, msg: 'ok', data: { unread: 0 } };
    if (url.pathname.endsWith('/deleteMsg')) return { code: 200, msg: 'ok', data: { unread: 0 } };
    if (url.pathname.endsWith('/queryRoles'))
      return { code: 200, msg: 'ok', data: [{ id: 2, roleName: 'Ops', roleKey: 'ops', enabled: true, providerId: 1 }] };
    if (url.pathname.endsWith('/addMsg')) return { code: 200, msg: 'ok', data: { msgId: 6, recipients: 1, smsSent: false } };
    if (url.pathname.includes('/dict/')) return { code: 200, msg: 'ok', data: [] };
    return { code: 404, msg: 'x', data: null };
  });
  return { calls, fetch };
}

const button = (label: string) => screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''));

beforeAll(() => polyfillDom());
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en-US'));
});

// The editor has tests of its own (shared/richtext); here it is a plain input with its value and placeholder.
vi.mock('../../shared/richtext/RichTextEditor', () => ({
  RichTextEditor: ({ value, onChange, placeholder }: { value?: string; onChange?: (v: string) => void; placeholder?: string }) => (
    <textarea placeholder={placeholder} value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
  ),
}));

describe('messages', () => {
  it('picks the view by the user name (spec §6)', () => {
    expect(messageView('admin')).toBe('admin');
    expect(messageView('alice')).toBe('inbox');
    expect(messageView(undefined)).toBe('inbox');
  });

  it('inbox: from column and delete, no add; expanding an unread row shows it and reports the read', async () => {
    signInAs('alice', []);
    const { calls } = serve([msg()], 'inbox');
    const { container } = renderWithProviders(<MessagePage />, '/message/inbox');
    await screen.findByText('Station offline');
    expect(calls.find((c) => c.path.endsWith('/getAllMsg'))?.query.limit).toBe('1000');
    expect(screen.getAllByText('From').length).toBeGreaterThan(0);
    expect(screen.queryByText('Recipient')).toBeNull();
    expect(button('Add')).toBeUndefined();
    expect(screen.getAllByText('Delete').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Export').length).toBeGreaterThan(0);

    fireEvent.click(container.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('Station North went offline at noon.')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/readMsg')).map((c) => c.body)).toEqual([{ msgId: 5, userId: 9 }]));
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('inbox: a read row is not reported again; delete asks and reports', async () => {
    signInAs('alice', []);
    const { calls } = serve([msg({ read: 1, readTime: '2025-01-02T04:00:00Z' })], 'inbox');
    const { container } = renderWithProviders(<MessagePage />);
    await screen.findByText('Station offline');
    fireEvent.click(container.querySelector('.ant-table-row-expand-icon')!);
    await screen.findByText('Station North went offline at noon.');
    fireEvent.click(screen.getAllByText('Delete')[0]!);
    const confirm = await screen.findByText('Delete the message "Station offline"?');
    fireEvent.click(within(confirm.closest('.ant-modal-confirm') as HTMLElement).getByText('OK'));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/deleteMsg')).map((c) => c.body)).toEqual([{ msgId: 5, userId: 9 }]));
    expect(await screen.findByText('Message deleted')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/readMsg'))).toBe(false);
  });

  it('admin view: recipient, read time and deleted columns, add, no delete; opening a row reports nothing', async () => {
    signInAs('admin', ['*:*:*']);
    const { calls } = serve(
      [msg({ userId: 3 }), msg({ userId: 4, recUserName: 'bob', read: 1, readTime: '2025-01-02T05:00:00Z', delete: 1 })],
      'admin',
    );
    const { container } = renderWithProviders(<MessagePage />);
    expect((await screen.findAllByText('Station offline')).length).toBe(2);
    for (const label of ['Recipient', 'Read at', 'Deleted', 'alice', 'bob']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    expect(screen.queryByText('From')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(button('Add')).toBeTruthy();
    fireEvent.click(container.querySelector('.ant-table-row-expand-icon')!);
    await screen.findByText('Station North went offline at noon.');
    expect(calls.some((c) => c.path.endsWith('/readMsg'))).toBe(false);
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('admin view in Chinese: sending needs recipients and a confirmation', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    signInAs('admin', ['*:*:*']);
    const { calls } = serve([msg()], 'admin');
    renderWithProviders(<MessagePage />);
    await screen.findByText('Station offline');
    for (const label of ['接收人', '阅读时间', '是否删除']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    fireEvent.click(button('新增')!);
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    expect(screen.getByText('发送消息')).toBeTruthy();
    // Every missing field is named at once, the recipients included.
    fireEvent.click(button('确定')!);
    expect(await screen.findByText('请选择接收角色或填写接收用户')).toBeTruthy();
    expect(await screen.findByText('请输入标题')).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('请输入标题'), { target: { value: 'Hi' } });
    fireEvent.change(within(dialog).getByPlaceholderText('请输入内容'), { target: { value: '<p>Body</p>' } });
    fireEvent.change(within(dialog).getByPlaceholderText('请输入接收用户'), { target: { value: 'alice, bob' } });
    fireEvent.click(button('确定')!);
    const confirm = await screen.findByText('确认发送该消息吗？');
    expect(calls.some((c) => c.path.endsWith('/addMsg'))).toBe(false);
    fireEvent.click(within(confirm.closest('.ant-modal-confirm') as HTMLElement).getByText(/确\s*定/));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/addMsg')).map((c) => c.body)).toEqual([
        { title: 'Hi', content: '<p>Body</p>', username: 'alice, bob' },
      ]),
    );
    expect(await screen.findByText('消息发送成功')).toBeTruthy();
  });
});
