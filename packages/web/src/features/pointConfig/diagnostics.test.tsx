import type { DiagnosticsDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import { diagnosticsBody, formatSize } from './diagnostics.resource';
import PointConfigPage from './point-config.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const URL_TAB = '/configurationManagement/pointConfiguration?tab=diagnostics';

const base: DiagnosticsDto = {
  id: 1,
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  serialNumber: 'CP-1',
  pointName: 'Bay CP-1',
  location: 'http://csms.example/files/diagnostics/abc',
  startTime: null,
  stopTime: null,
  retries: null,
  retryInterval: null,
  state: 'sent',
  fileName: null,
  reason: null,
  sizeBytes: null,
  createdByName: 'admin',
  createTime: '2026-03-01T08:00:00.000Z',
  reportTime: null,
};
const row = (id: number, serialNumber: string, patch: Partial<DiagnosticsDto>): DiagnosticsDto => ({ ...base, id, serialNumber, ...patch });

const received = row(1, 'CP-1', { state: 'received', fileName: 'diag-CP-1.log', sizeBytes: 1536, retries: 2, retryInterval: 30 });
const states: DiagnosticsDto[] = [
  received,
  row(2, 'CP-2', { state: 'sent' }),
  row(3, 'CP-3', { state: 'rejected', reason: 'Rejected' }),
  row(4, 'CP-4', { state: 'Uploading' }),
  row(5, 'CP-5', { state: 'UploadFailed' }),
  row(6, 'CP-6', { state: 'offline' }),
  row(7, 'CP-7', { state: 'Uploaded', location: 'ftp://diag7:***@csms.example:2121/' }),
];
// Nothing left to follow: the list does not refresh itself.
const settled = states.map((r) =>
  r.state === 'sent' || r.state === 'Uploading' || r.state === 'Uploaded' ? { ...r, state: 'received' as const } : r,
);

const point = (serialNumber: string) => ({
  id: Number(serialNumber.slice(3)),
  serialNumber,
  pointName: `Bay ${serialNumber}`,
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  connectors: [],
});

const bodies: Record<string, unknown[]> = {};
const asked: Array<{ url: URL; init?: RequestInit }> = [];
function server(list: DiagnosticsDto[] | (() => DiagnosticsDto[]), extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  asked.length = 0;
  return mockFetch((url, init) => {
    const p = url.pathname.replace('/prod-api', '');
    asked.push({ url, init });
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p === '/web/diagnostics/list') {
      const rows = typeof list === 'function' ? list() : list;
      return ok({ list: rows, total: rows.length });
    }
    if (p === '/web/getStations') return ok([{ id: 3, stationName: 'Pudong Hub' }]);
    if (p === '/web/getPoints') return ok([point('CP-1'), point('CP-3')]);
    if (p === '/web/ocppLog/list') return ok({ list: [], total: 0 });
    return { code: 404, msg: 'x', data: null };
  });
}
const listCalls = () => asked.filter((a) => a.url.pathname.endsWith('/web/diagnostics/list')).length;

const button = (label: string, scope: HTMLElement = document.body) =>
  within(scope)
    .getAllByRole('button')
    .find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''))!;

/** Open an antd select by its label and choose an option by its text. */
async function choose(container: HTMLElement, label: string, option: string) {
  const input = within(container).getByLabelText(label);
  await waitFor(() => expect(input.hasAttribute('disabled')).toBe(false));
  fireEvent.mouseDown(input);
  const options = await screen.findAllByText(option, { selector: '.ant-select-item-option-content, .ant-select-item-option-content *' });
  fireEvent.click(options[options.length - 1]!);
}

async function openRequest() {
  renderWithProviders(<PointConfigPage />, URL_TAB);
  await screen.findByText('CP-1', { selector: 'td' });
  fireEvent.click(button('Add'));
  const dialog = (await screen.findAllByRole('dialog'))[0]!;
  expect(within(dialog).getByText('Request diagnostics')).toBeTruthy();
  return dialog;
}

async function pickPoints(dialog: HTMLElement, ...labels: string[]) {
  await choose(dialog, 'Station', 'Pudong Hub');
  for (const l of labels) await choose(dialog, 'Points', l);
}

const addBodies = () => bodies['/web/diagnostics/add'] ?? [];

beforeEach(signInAdmin);
afterEach(() => vi.restoreAllMocks());

describe('diagnostics tab', () => {
  it('shows with config:diagnostics:list alone, and not without it', async () => {
    setSession({ roles: ['ops'], permissions: ['config:diagnostics:list'], providerId: 1, providerName: 'P' } as never);
    server(settled);
    const view = renderWithProviders(<PointConfigPage />);
    // The only tab the user may open is the first one.
    await screen.findByText('CP-1', { selector: 'td' });
    expect(screen.getByRole('tab', { name: 'Diagnostics' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'OCPP log' })).toBeNull();
    // No add permission: no request button; no query permission: no download.
    expect(button('Add')).toBeUndefined();
    expect(screen.queryByText('Download')).toBeNull();
    view.unmount();

    setSession({ roles: ['ops'], permissions: ['config:ocppLog:list'], providerId: 1, providerName: 'P' } as never);
    renderWithProviders(<PointConfigPage />, URL_TAB);
    await screen.findByRole('tab', { name: 'OCPP log' });
    expect(screen.queryByRole('tab', { name: 'Diagnostics' })).toBeNull();
  });

  it('renders every state as a coloured tag in both languages; Download only on received rows', async () => {
    server(states);
    for (const [lng, words] of [
      ['en-US', ['File received', 'Refused by the point', 'Upload failed', 'Point offline', 'Diagnostics', 'Size', 'Download']],
      ['zh-CN', ['已收到文件', '充电桩拒绝', '上传失败', '充电桩离线', '诊断文件', '文件大小', '下载']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<PointConfigPage />, URL_TAB);
      const first = (await screen.findByText('CP-1', { selector: 'td' })).closest('tr')!;
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(within(first).getByText('1.50 KB')).toBeTruthy();
      expect(within(first).getByText('diag-CP-1.log')).toBeTruthy();
      expect(first.querySelector('[data-state=received]')!.className).toContain('ant-tag-success');
      expect(screen.getAllByText(lng === 'en-US' ? 'Download' : '下载', { selector: 'button *' })).toHaveLength(1);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('colours pending states blue and the failed ones red, and downloads a received file by its id', async () => {
    server(states, (url) =>
      url.pathname.endsWith('/web/diagnostics/download')
        ? new Response(new Blob(['# Diagnostics of charge point CP-1']), {
            headers: { 'content-type': 'application/octet-stream', 'download-filename': 'diag-CP-1.log' },
          })
        : undefined,
    );
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderWithProviders(<PointConfigPage />, URL_TAB);
    const rowOf = async (sn: string) => (await screen.findByText(sn, { selector: 'td' })).closest('tr')!;
    for (const [sn, state, color] of [
      ['CP-2', 'sent', 'processing'],
      ['CP-4', 'Uploading', 'processing'],
      ['CP-7', 'Uploaded', 'success'],
      ['CP-3', 'rejected', 'error'],
      ['CP-5', 'UploadFailed', 'error'],
      ['CP-6', 'offline', 'error'],
    ] as const) {
      const tr = await rowOf(sn);
      expect(tr.querySelector(`[data-state=${state}]`)!.className, state).toContain(`ant-tag-${color}`);
      expect(within(tr).queryByText('Download')).toBeNull();
    }
    fireEvent.click(within(await rowOf('CP-1')).getByText('Download'));
    await waitFor(() => expect(saved).toEqual(['diag-CP-1.log']));
    const download = asked.find((a) => a.url.pathname.endsWith('/web/diagnostics/download'))!;
    expect(download.url.searchParams.get('id')).toBe('1');
    expect(download.init?.method).toBe('GET');
  });

  it('refreshes itself every 3 s while a request may still change, and stops when none may', async () => {
    let n = 0;
    server(() => (++n === 1 ? [row(2, 'CP-2', { state: 'Uploading' })] : [row(2, 'CP-2', { state: 'received', sizeBytes: 10 })]));
    renderWithProviders(<PointConfigPage />, URL_TAB);
    await screen.findByText('Uploading');
    expect(listCalls()).toBe(1);
    expect(await screen.findByText('File received', {}, { timeout: 10_000 })).toBeTruthy();
    expect(listCalls()).toBe(2);
    await new Promise((r) => setTimeout(r, 3_500));
    expect(listCalls()).toBe(2);
  });
});

describe('request diagnostics dialog', () => {
  it('sends the points and the platform over HTTP with the retries, then sums up the answers and refreshes the list', async () => {
    server(settled, (url) =>
      url.pathname.endsWith('/web/diagnostics/add')
        ? ok([row(11, 'CP-1', { state: 'sent' }), row(12, 'CP-3', { state: 'offline' })])
        : undefined,
    );
    const dialog = await openRequest();
    // HTTP is chosen at first; the address waits for "another location".
    expect((within(dialog).getByLabelText('This platform, over HTTP') as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByTestId('diagnostics-location').hasAttribute('disabled')).toBe(true);
    await pickPoints(dialog, 'CP-1 · Bay CP-1', 'CP-3 · Bay CP-3');
    fireEvent.change(within(dialog).getByLabelText('Retries'), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText('Retry interval (s)'), { target: { value: '30' } });
    const before = listCalls();
    fireEvent.click(button('OK', dialog));
    await waitFor(() => expect(addBodies()).toHaveLength(1));
    expect(addBodies()[0]).toEqual({ serialNumbers: ['CP-1', 'CP-3'], transport: 'http', retries: 2, retryInterval: 30 });
    expect((await screen.findByTestId('diagnostics-summary')).textContent).toBe('1 sent, 1 offline, 0 refused');
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
  });

  it('sends the platform over FTP', async () => {
    server(settled, (url) => (url.pathname.endsWith('/web/diagnostics/add') ? ok([row(11, 'CP-1', { state: 'sent' })]) : undefined));
    const dialog = await openRequest();
    await pickPoints(dialog, 'CP-1 · Bay CP-1');
    fireEvent.click(within(dialog).getByLabelText('This platform, over FTP'));
    fireEvent.click(button('OK', dialog));
    await waitFor(() => expect(addBodies()).toHaveLength(1));
    expect(addBodies()[0]).toEqual({ serialNumbers: ['CP-1'], transport: 'ftp' });
    expect((await screen.findByTestId('diagnostics-summary')).textContent).toBe('1 sent, 0 offline, 0 refused');
  });

  it('sends a typed location instead of a transport, and asks for one when it is empty or not an upload address', async () => {
    server(settled, (url) =>
      url.pathname.endsWith('/web/diagnostics/add') ? ok([row(11, 'CP-1', { state: 'rejected', reason: 'Rejected' })]) : undefined,
    );
    const dialog = await openRequest();
    await pickPoints(dialog, 'CP-1 · Bay CP-1');
    fireEvent.click(within(dialog).getByLabelText('Another location'));
    const location = within(dialog).getByTestId('diagnostics-location');
    await waitFor(() => expect(location.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button('OK', dialog));
    expect(await within(dialog).findByText('File path is required')).toBeTruthy();
    fireEvent.change(location, { target: { value: 'logs.example.com/in' } });
    expect(await within(dialog).findByText('File path must be an http, https, ftp or ftps address')).toBeTruthy();
    fireEvent.change(location, { target: { value: ' ftp://user:pw@logs.example.com/in/ ' } });
    fireEvent.click(button('OK', dialog));
    await waitFor(() => expect(addBodies()).toHaveLength(1));
    expect(addBodies()[0]).toEqual({ serialNumbers: ['CP-1'], location: 'ftp://user:pw@logs.example.com/in/' });
    expect((await screen.findByTestId('diagnostics-summary')).textContent).toBe('0 sent, 0 offline, 1 refused');
  });

  it('shows the server’s refusal of FTP on the target and keeps the dialog open', async () => {
    server(settled, (url) =>
      url.pathname.endsWith('/web/diagnostics/add')
        ? { code: 400, msg: 'The FTP server is off (CSMS_FTP_PORT): choose HTTP or type a file path', data: { field: 'transport' } }
        : undefined,
    );
    const dialog = await openRequest();
    await pickPoints(dialog, 'CP-1 · Bay CP-1');
    fireEvent.click(within(dialog).getByLabelText('This platform, over FTP'));
    fireEvent.click(button('OK', dialog));
    const error = await within(dialog).findByText('The FTP server is off (CSMS_FTP_PORT): choose HTTP or type a file path');
    expect(error.closest('.ant-form-item')!.querySelector('[data-testid=diagnostics-target]')).toBeTruthy();
    expect(within(dialog).getByText('Request diagnostics')).toBeTruthy();
    expect(screen.queryByTestId('diagnostics-summary')).toBeNull();
  });

  it('in Chinese, names every part of the dialog', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    server(settled);
    renderWithProviders(<PointConfigPage />, URL_TAB);
    await screen.findByText('CP-1', { selector: 'td' });
    fireEvent.click(button('新增'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    for (const word of [
      '获取诊断文件',
      '场站',
      '充电桩',
      '上传到',
      '本平台（HTTP）',
      '本平台（FTP）',
      '其他地址',
      '文件路径',
      '日志时间范围',
      '重试次数',
    ])
      expect(within(dialog).getAllByText(word).length, word).toBeGreaterThan(0);
    expect(rawKeys(dialog.textContent ?? '')).toEqual([]);
    expect(dialog.textContent).not.toMatch(/ocppLog\./);
  });
});

describe('the request body', () => {
  it('holds the window as two instants to the minute, either end open', () => {
    const from = dayjs('2026-03-01T08:15:42.123Z');
    const to = dayjs('2026-03-01T09:30:05Z');
    expect(diagnosticsBody({ stationId: 3, serialNumbers: ['CP-1'], transport: 'http', stopTime: [from, to] })).toEqual({
      serialNumbers: ['CP-1'],
      transport: 'http',
      startTime: '2026-03-01T08:15:00.000Z',
      stopTime: '2026-03-01T09:30:00.000Z',
    });
    expect(diagnosticsBody({ serialNumbers: ['CP-1'], transport: 'ftp', stopTime: [null, to] })).toEqual({
      serialNumbers: ['CP-1'],
      transport: 'ftp',
      stopTime: '2026-03-01T09:30:00.000Z',
    });
  });

  it('shows sizes for people', () => {
    expect([formatSize(512), formatSize(1536), formatSize(5 * 1024 * 1024), formatSize(null)]).toEqual(['512 B', '1.50 KB', '5.00 MB', '']);
  });
});
