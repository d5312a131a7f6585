import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, polyfillDom } from '../resource/test-kit';
import { FileUpload } from './FileUpload';
import { ImageUpload } from './ImageUpload';
import { checkCount, checkFile, uploadDefaults } from './rules';

const MB = 1024 * 1024;
const say = (p: { key: string; params: Record<string, unknown> } | null) => (p ? i18n.t(p.key, p.params) : null);

beforeAll(polyfillDom);
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('upload checks (spec §5 messages)', () => {
  it('says the spec’s Chinese texts', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    const img = uploadDefaults.image;
    const file = uploadDefaults.file;
    expect(say(checkFile('image', { name: 'a.gif', size: 10, type: 'image/gif' }, img))).toBe(
      '文件格式不正确, 请上传png/jpg/jpeg图片格式文件!',
    );
    expect(say(checkFile('file', { name: 'a.exe', size: 10 }, file))).toBe('文件格式不正确, 请上传doc/xls/ppt/txt/pdf格式文件!');
    expect(say(checkFile('image', { name: 'a.PNG', size: 6 * MB }, img))).toBe('上传头像图片大小不能超过 5 MB!');
    expect(say(checkFile('file', { name: 'a.pdf', size: 6 * MB }, file))).toBe('上传文件大小不能超过 5 MB!');
    expect(say(checkCount(4, 2, 5))).toBe('上传文件数量不能超过 5 个!');
    expect(i18n.t('upload.imageFailed')).toBe('上传图片失败，请重试');
    expect(i18n.t('upload.fileFailed')).toBe('上传文件失败，请重试');
  });

  it('says them in English too', () => {
    expect(say(checkFile('image', { name: 'a.gif', size: 10 }, uploadDefaults.image))).toBe(
      'Unsupported file format. Please upload a png/jpg/jpeg image!',
    );
    expect(say(checkFile('image', { name: 'a.jpg', size: 6 * MB }, { ...uploadDefaults.image, fileSize: 2 }))).toBe(
      'The image must not be larger than 2 MB!',
    );
    expect(say(checkCount(1, 1, 1))).toBe('You can upload at most 1 files!');
  });

  it('accepts what the limits allow', () => {
    expect(checkFile('file', { name: 'report.docx', size: MB }, uploadDefaults.file)).toBeNull();
    expect(checkFile('image', { name: 'photo.jpeg', size: 5 * MB }, uploadDefaults.image)).toBeNull();
    expect(checkCount(3, 2, 5)).toBeNull();
  });
});

const pick = (container: HTMLElement, files: File[]) =>
  act(() => {
    fireEvent.change(container.querySelector('input[type=file]')!, { target: { files } });
  });

describe('upload widgets', () => {
  it('refuses a wrong type before sending anything', async () => {
    const fetch = mockFetch(() => ({ code: 200 }));
    const { container } = render(<ImageUpload />);
    await pick(container, [new File(['x'], 'a.txt', { type: 'text/plain' })]);
    expect(await screen.findByText('Unsupported file format. Please upload a png/jpg/jpeg image!')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses too many files', async () => {
    mockFetch(() => ({ code: 200 }));
    const { container } = render(<FileUpload limit={1} value="/profile/a.pdf" />);
    await pick(container, [new File(['x'], 'b.pdf')]);
    expect(await screen.findByText('You can upload at most 1 files!')).toBeTruthy();
  });

  it('posts field `file` and stores the reply url', async () => {
    const onChange = vi.fn();
    const fetch = mockFetch(() => ({
      code: 200,
      msg: 'ok',
      fileName: '/profile/upload/b.pdf',
      url: '/prod-api/profile/upload/b.pdf',
      originalName: 'b.pdf',
    }));
    const { container } = render(<FileUpload value="/prod-api/profile/a.pdf" onChange={onChange} />);
    await pick(container, [new File(['x'], 'b.pdf', { type: 'application/pdf' })]);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/prod-api/profile/a.pdf,/prod-api/profile/upload/b.pdf'));
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/prod-api/common/upload?kind=file');
    expect((init?.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it("takes a scan (kind `scan`: pdf or a photo, the server's rule) and sends it as that kind", async () => {
    const { uploadKinds } = await import('@csms/contract');
    expect(uploadDefaults.scan).toEqual({ limit: 1, fileSize: uploadKinds.scan.maxMb, fileType: uploadKinds.scan.types });
    expect(checkFile('scan', { name: 'receipt.PDF', size: MB }, uploadDefaults.scan)).toBeNull();
    expect(checkFile('scan', { name: 'receipt.jpg', size: MB }, uploadDefaults.scan)).toBeNull();
    expect(say(checkFile('scan', { name: 'receipt.gif', size: 10 }, uploadDefaults.scan))).toBe(
      'Unsupported file format. Please upload a pdf/png/jpg/jpeg file!',
    );
    const onChange = vi.fn();
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', fileName: '2026/11/r.pdf', url: '/prod-api/x', originalName: 'r.pdf' }));
    const { container } = render(<FileUpload kind="scan" valueField="fileName" onChange={onChange} />);
    expect(container.querySelector('input[type=file]')!.getAttribute('accept')).toBe('.pdf,.png,.jpg,.jpeg');
    expect(screen.getByText(/pdf\/png\/jpg\/jpeg/)).toBeTruthy();
    await pick(container, [new File(['x'], 'r.pdf', { type: 'application/pdf' })]);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('2026/11/r.pdf'));
    expect(String(fetch.mock.calls[0]![0])).toBe('/prod-api/common/upload?kind=scan');
  });

  it('shows the reply msg and drops the file when code is not 200', async () => {
    const onChange = vi.fn();
    mockFetch(() => ({ code: 400, msg: 'File is broken' }));
    const { container } = render(<ImageUpload onChange={onChange} />);
    await pick(container, [new File(['x'], 'a.png', { type: 'image/png' })]);
    expect(await screen.findByText('File is broken')).toBeTruthy();
    await waitFor(() => expect(container.querySelectorAll('.ant-upload-list-item').length).toBe(0));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('stored values', () => {
  it('names a download link by its resource', async () => {
    const { baseName } = await import('./rules');
    expect(baseName('/prod-api/common/download/resource?resource=2025%2F01%2Fab_report.pdf')).toBe('ab_report.pdf');
    expect(baseName('/profile/upload/x.png')).toBe('x.png');
  });
});
