import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, polyfillDom, renderWithProviders } from '../resource/test-kit';
import { RichTextEditor } from './RichTextEditor';
import { sanitizeForView } from './RichTextView';

const MB = 1024 * 1024;
const STORED = '/prod-api/common/download/resource?resource=2025%2F01%2F31%2F0b9d3a54-7f5e-4c43-9f57-2a4cf2c1a001.png';

beforeAll(polyfillDom);
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await act(() => i18n.changeLanguage('en-US'));
});

function Harness({ initial = '', onChange }: { initial?: string; onChange?: (html: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextEditor
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange?.(v);
        }}
      />
      <button type="button" onClick={() => setValue('<p>Reset from outside</p>')}>
        reset
      </button>
    </>
  );
}

const pick = (container: HTMLElement, file: File) =>
  fireEvent.change(container.querySelector('[data-testid=rich-text-image-input]')!, { target: { files: [file] } });
const image = (name: string, size: number, type = 'image/png') => {
  const f = new File([new Uint8Array(8)], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

// ProseMirror in jsdom is slow to start on a busy machine; the tests wait for conditions, never for time.
describe('rich-text editor', { timeout: 30_000 }, () => {
  it('shows the spec’s placeholder in Chinese, and the value the form sets', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    const view = renderWithProviders(<Harness />);
    await waitFor(() => expect(view.container.querySelector('[data-placeholder]')?.getAttribute('data-placeholder')).toBe('请输入内容'));
    fireEvent.click(screen.getByText('reset'));
    await waitFor(() => expect(view.container.querySelector('.tiptap')?.textContent).toBe('Reset from outside'));
    expect(screen.getByLabelText('加粗')).toBeTruthy();
  });

  it('uploads a picked image through the upload endpoint and inserts the stored file’s URL, not a data: URL', async () => {
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', fileName: '2025/01/31/x.png', url: STORED, originalName: 'map.png' }));
    const onChange = vi.fn();
    const view = renderWithProviders(<Harness initial="<p>See</p>" onChange={onChange} />);
    await waitFor(() => expect(view.container.querySelector('.tiptap')).toBeTruthy());
    pick(view.container, image('map.png', 1 * MB));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const url = new URL(String(fetch.mock.calls[0]![0]), 'http://x');
    expect(url.pathname + url.search).toBe('/prod-api/common/upload?kind=image');
    const html = onChange.mock.calls.at(-1)![0] as string;
    expect(html).toContain(`src="${STORED.replace(/&/g, '&amp;')}"`);
    expect(html).not.toContain('data:');
  });

  it('refuses an image over 5 MB or of another type with 图片插入失败, without uploading', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok' }));
    const view = renderWithProviders(<Harness />);
    await waitFor(() => expect(view.container.querySelector('.tiptap')).toBeTruthy());
    pick(view.container, image('big.png', 5 * MB + 1));
    expect(await screen.findByText('图片插入失败: 上传头像图片大小不能超过 5 MB!')).toBeTruthy();
    pick(view.container, image('page.svg', 100, 'image/svg+xml'));
    expect(await screen.findByText(/图片插入失败: 文件格式不正确/)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says 图片插入失败 when the upload fails', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    mockFetch(() => new Response('down', { status: 502 }));
    const onChange = vi.fn();
    const view = renderWithProviders(<Harness onChange={onChange} />);
    await waitFor(() => expect(view.container.querySelector('.tiptap')).toBeTruthy());
    pick(view.container, image('map.png', 100));
    expect(await screen.findByText('图片插入失败')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('rich-text view', () => {
  it('shows only the allow-list: no script, handler, javascript: link, data: or foreign image', () => {
    const clean = sanitizeForView(
      '<p onclick="x()" style="color:red">Hi <a href="javascript:alert(1)">a</a> <a href="https://ok.test">b</a></p>' +
        `<script>alert(1)</script><img src="data:image/png;base64,AA"><img src="https://evil.test/x.png"><img src="${STORED}" onerror="x()"><iframe></iframe>`,
    );
    expect(clean).toBe(
      '<p>Hi <a target="_blank" rel="noopener noreferrer nofollow">a</a> <a href="https://ok.test" target="_blank" rel="noopener noreferrer nofollow">b</a></p>' +
        `<img src="${STORED.replace(/&/g, '&amp;')}">`,
    );
  });
});
