import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { columnsFromConfig, ExportColumnsDialog, moveColumn } from './ExportColumnsDialog';
import { mockFetch, renderWithProviders, signInAdmin } from './test-kit';

const available = ['msgId', 'title', 'content', 'createTime'];

function serve(stored: string[] | null) {
  const saved: unknown[] = [];
  mockFetch((url, init) => {
    if (url.pathname.endsWith('/getExportConfig')) {
      return {
        code: 200,
        msg: 'ok',
        data: { exportSource: 'message', exportItemList: stored ?? available, available, configured: stored !== null },
      };
    }
    if (url.pathname.endsWith('/exportConfig')) {
      const body = JSON.parse(String(init?.body)) as { exportItemList: string[] };
      saved.push(body);
      return { code: 200, msg: 'ok', data: { exportSource: 'message', exportItemList: body.exportItemList, available, configured: true } };
    }
    return { code: 404, msg: 'x', data: null };
  });
  return saved;
}

const rowOf = (key: string) => screen.getByTestId(`export-column-${key}`);

beforeAll(signInAdmin);

describe('export columns', () => {
  it('puts the stored choice first, in its order, and the rest unchecked', () => {
    expect(columnsFromConfig(available, ['title', 'msgId', 'gone'])).toEqual([
      { key: 'title', checked: true },
      { key: 'msgId', checked: true },
      { key: 'content', checked: false },
      { key: 'createTime', checked: false },
    ]);
    const list = columnsFromConfig(available, available);
    expect(moveColumn(list, 1, -1).map((c) => c.key)).toEqual(['title', 'msgId', 'content', 'createTime']);
    expect(moveColumn(list, 3, 1)).toBe(list);
  });

  it('lists the columns with their labels, saves the checked ones in order', async () => {
    const saved = serve(['title', 'msgId']);
    let closed = false;
    renderWithProviders(<ExportColumnsDialog source="message" open onClose={() => (closed = true)} />);
    await waitFor(() => expect(within(rowOf('title')).getByRole('checkbox')).toHaveProperty('checked', true));
    const order = screen.getAllByTestId(/^export-column-/).map((e) => e.dataset.testid);
    expect(order).toEqual(['export-column-title', 'export-column-msgId', 'export-column-content', 'export-column-createTime']);
    expect(within(rowOf('content')).getByRole('checkbox')).toHaveProperty('checked', false);
    expect(screen.getByText('Title')).toBeTruthy();
    expect(screen.getByText('Created at')).toBeTruthy();
    fireEvent.click(within(rowOf('createTime')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('createTime')).getByLabelText('Move up'));
    fireEvent.click(within(rowOf('msgId')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('export-columns-save'));
    await waitFor(() => expect(saved).toEqual([{ exportSource: 'message', exportItemList: ['title', 'createTime'] }]));
    await waitFor(() => expect(closed).toBe(true));
  });

  it('refuses to save no column at all, and restores the defaults (Chinese)', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    serve(['title']);
    renderWithProviders(<ExportColumnsDialog source="message" open onClose={() => {}} />);
    await waitFor(() => expect(within(rowOf('title')).getByRole('checkbox')).toHaveProperty('checked', true));
    expect(screen.getByText('导出列设置 - 系统消息')).toBeTruthy();
    fireEvent.click(within(rowOf('title')).getByRole('checkbox'));
    expect(screen.getByText('已选 0 / 4 列')).toBeTruthy();
    expect(screen.getByTestId('export-columns-save')).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByText('恢复默认'));
    expect(screen.getByText('已选 4 / 4 列')).toBeTruthy();
  });
});
