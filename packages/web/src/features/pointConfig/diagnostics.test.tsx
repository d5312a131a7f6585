import type { DiagnosticsDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FormInstance } from 'antd';
import dayjs from 'dayjs';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { chooseByLabel, mockFetch, rawKeys, renderCapturingForms, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import { formatBytes } from '../../shared/resource/cells';
import { diagnosticsBody } from './diagnostics.resource';
import PointConfigPage from './point-config.page';

/*
 * The Diagnostics tab in jsdom. Speed matters here (antd in jsdom is slow): each test renders the
 * page once and walks through several behaviours; elements are found by CSS and text; antd pickers
 * are opened for real only where the picking itself is under test, elsewhere the form's values are
 * set through antd's Form.Provider; the list's 3-second refresh runs on a fake clock.
 */

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
const addBodies = () => bodies['/web/diagnostics/add'] ?? [];

const squash = (s: string | null | undefined) => (s ?? '').replace(/\s/g, '');
/** A button by its words (CSS and text: a role query would compute the style of every element). */
const button = (label: string, scope: ParentNode = document.body) =>
  [...scope.querySelectorAll('button')].find((b) => squash(b.textContent) === squash(label));
/** The open dialog whose text holds `title`. */
const dialogWith = (title: string) =>
  waitFor(() => {
    const d = [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap:not([style*="display: none"]) .ant-modal')].find((m) =>
      m.textContent?.includes(title),
    );
    if (!d) throw new Error(`no dialog "${title}"`);
    return d;
  });
/** The tabs' titles. */
const tabs = () => [...document.querySelectorAll('.ant-tabs-tab')].map((x) => x.textContent);
/** The form item's error text around the element. */
const errorAt = (el: Element) => el.closest('.ant-form-item')!.querySelector('.ant-form-item-explain')?.textContent ?? '';

/** The page, with its named forms (`<resource>-form`) caught as soon as one of their fields changes. */
let forms: Record<string, FormInstance> = {};
function renderPage(url?: string) {
  const view = renderCapturingForms(<PointConfigPage />, url);
  forms = view.forms;
  return view;
}

beforeEach(signInAdmin);
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('diagnostics tab', () => {
  it('shows with config:diagnostics:list alone (no request, download or export), and not without it', async () => {
    setSession({ roles: ['ops'], permissions: ['config:diagnostics:list'], providerId: 1, providerName: 'P' } as never);
    server(settled);
    const view = renderPage();
    // The only tab the user may open is the first one.
    await screen.findByText('CP-1', { selector: 'td' });
    expect(tabs()).toEqual(['Diagnostics']);
    expect(button('Add')).toBeUndefined();
    expect(button('Export')).toBeUndefined();
    expect(screen.queryByText('Download')).toBeNull();
    view.unmount();

    setSession({
      roles: ['ops'],
      permissions: ['config:ocppLog:list', 'config:diagnostics:export'],
      providerId: 1,
      providerName: 'P',
    } as never);
    renderPage(URL_TAB);
    await waitFor(() => expect(tabs()).toEqual(['OCPP log']));
  });

  it('renders every state as a coloured tag in both languages, Download only on received rows, which downloads by id; exports the list', async () => {
    server(states, (url) => {
      if (url.pathname.endsWith('/web/diagnostics/download'))
        return new Response(new Blob(['# Diagnostics of charge point CP-1']), {
          headers: { 'content-type': 'application/octet-stream', 'download-filename': 'diag-CP-1.log' },
        });
      if (url.pathname.endsWith('/web/diagnostics/export'))
        return new Response(new Blob(['id\r\n1\r\n']), { headers: { 'download-filename': 'x.csv' } });
      return undefined;
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    for (const [lng, words] of [
      ['en-US', ['File received', 'Refused by the point', 'Upload failed', 'Point offline', 'Diagnostics', 'Size', 'Download', 'Export']],
      ['zh-CN', ['已收到文件', '充电桩拒绝', '上传失败', '充电桩离线', '诊断文件', '文件大小', '下载', '导出']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderPage(`${URL_TAB}&stationId=3`);
      const rowOf = async (sn: string) => (await screen.findByText(sn, { selector: 'td' })).closest('tr')!;
      const first = await rowOf('CP-1');
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(within(first).getByText('1.50 KB')).toBeTruthy();
      expect(within(first).getByText('diag-CP-1.log')).toBeTruthy();
      expect(first.querySelector('[data-state=received]')!.className).toContain('ant-tag-success');
      const download = lng === 'en-US' ? 'Download' : '下载';
      expect(screen.getAllByText(download, { selector: 'button *' })).toHaveLength(1);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      if (lng === 'en-US') {
        // Pending blue, failed red; Download only where the file is here.
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
        fireEvent.click(within(first).getByText('Download'));
        await waitFor(() => expect(saved).toEqual(['diag-CP-1.log']));
        const file = asked.find((a) => a.url.pathname.endsWith('/web/diagnostics/download'))!;
        expect(file.url.searchParams.get('id')).toBe('1');
        expect(file.init?.method).toBe('GET');
        // The export sends the list's filter.
        fireEvent.mouseEnter(button('Export')!);
        fireEvent.click(await screen.findByText('Export CSV'));
        await waitFor(() => expect(bodies['/web/diagnostics/export']).toHaveLength(1));
        expect(bodies['/web/diagnostics/export']![0]).toMatchObject({ format: 'csv', stationId: 3 });
      }
      view.unmount();
    }
  });

  it('refreshes itself every 3 s while a request may still change, and stops when none may', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let n = 0;
    server(() => (++n === 1 ? [row(2, 'CP-2', { state: 'Uploading' })] : [row(2, 'CP-2', { state: 'received', sizeBytes: 10 })]));
    renderPage(URL_TAB);
    await screen.findByText('Uploading');
    expect(listCalls()).toBe(1);
    act(() => vi.advanceTimersByTime(2_900));
    expect(listCalls()).toBe(1);
    act(() => vi.advanceTimersByTime(100));
    expect(await screen.findByText('File received')).toBeTruthy();
    expect(listCalls()).toBe(2);
    act(() => vi.advanceTimersByTime(9_000));
    await new Promise((r) => setTimeout(r, 50));
    expect(listCalls()).toBe(2);
  });
});

describe('request diagnostics dialog', () => {
  it('shows a refusal of FTP on the target, asks for a typed location and checks it, sends it trimmed, then the platform over HTTP and over FTP, summing up each time', async () => {
    const answers = [
      { code: 400, msg: 'The FTP server is off (CSMS_FTP_PORT): choose HTTP or type a file path', data: { field: 'transport' } },
      ok([row(11, 'CP-1', { state: 'rejected', reason: 'Rejected' })]),
      ok([row(12, 'CP-1', { state: 'sent' }), row(13, 'CP-3', { state: 'offline' })]),
      ok([row(14, 'CP-1', { state: 'sent' })]),
    ];
    server(settled, (url) => (url.pathname.endsWith('/web/diagnostics/add') ? answers[addBodies().length - 1] : undefined));
    renderPage(URL_TAB);
    await screen.findByText('CP-1', { selector: 'td' });
    const open = async () => {
      fireEvent.click(button('Add')!);
      const dialog = await dialogWith('Request diagnostics');
      // HTTP at first; the address waits for "another location".
      expect((within(dialog).getByLabelText('This platform, over HTTP') as HTMLInputElement).checked).toBe(true);
      expect(within(dialog).getByTestId('diagnostics-location').hasAttribute('disabled')).toBe(true);
      return dialog;
    };
    const summary = async (text: string) => {
      await waitFor(() => expect(screen.getAllByTestId('diagnostics-summary').at(-1)!.textContent).toBe(text));
      await waitFor(() => expect(screen.queryByText('Request diagnostics')).toBeNull());
    };

    // The station, then its points, picked for real.
    let dialog = await open();
    await chooseByLabel(dialog, 'Station', 'Pudong Hub');
    await chooseByLabel(dialog, 'Points', 'CP-1 · Bay CP-1');
    fireEvent.click(within(dialog).getByLabelText('This platform, over FTP'));
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(errorAt(within(dialog).getByTestId('diagnostics-target'))).toBe(answers[0]!.msg));
    expect(addBodies()[0]).toEqual({ serialNumbers: ['CP-1'], transport: 'ftp' });
    expect(within(dialog).getByText('Request diagnostics')).toBeTruthy();
    expect(screen.queryByTestId('diagnostics-summary')).toBeNull();

    fireEvent.click(within(dialog).getByLabelText('Another location'));
    const location = within(dialog).getByTestId('diagnostics-location');
    await waitFor(() => expect(location.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(errorAt(location)).toBe('File path is required'));
    fireEvent.change(location, { target: { value: 'logs.example.com/in' } });
    await waitFor(() => expect(errorAt(location)).toBe('File path must be an http, https, ftp or ftps address'));
    fireEvent.change(location, { target: { value: ' ftp://user:pw@logs.example.com/in/ ' } });
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(addBodies()).toHaveLength(2));
    expect(addBodies()[1]).toEqual({ serialNumbers: ['CP-1'], location: 'ftp://user:pw@logs.example.com/in/' });
    await summary('0 sent, 0 offline, 1 refused');

    // Over HTTP with the retries; the list refreshes.
    dialog = await open();
    fireEvent.change(within(dialog).getByLabelText('Retries'), { target: { value: '2' } });
    act(() => forms['diagnostics-form']!.setFieldsValue({ stationId: 3, serialNumbers: ['CP-1', 'CP-3'] }));
    fireEvent.change(within(dialog).getByLabelText('Retry interval (s)'), { target: { value: '30' } });
    const before = listCalls();
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(addBodies()).toHaveLength(3));
    expect(addBodies()[2]).toEqual({ serialNumbers: ['CP-1', 'CP-3'], transport: 'http', retries: 2, retryInterval: 30 });
    await summary('1 sent, 1 offline, 0 refused');
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));

    // Over FTP.
    dialog = await open();
    fireEvent.click(within(dialog).getByLabelText('This platform, over FTP'));
    act(() => forms['diagnostics-form']!.setFieldsValue({ stationId: 3, serialNumbers: ['CP-1'] }));
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(addBodies()).toHaveLength(4));
    expect(addBodies()[3]).toEqual({ serialNumbers: ['CP-1'], transport: 'ftp' });
    await summary('1 sent, 0 offline, 0 refused');
  });

  it('in Chinese, names every part of the dialog', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    server(settled);
    renderPage(URL_TAB);
    await screen.findByText('CP-1', { selector: 'td' });
    fireEvent.click(button('新增')!);
    const dialog = await dialogWith('获取诊断文件');
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
    expect([formatBytes(512), formatBytes(1536), formatBytes(5 * 1024 * 1024), formatBytes(null)]).toEqual([
      '512 B',
      '1.50 KB',
      '5.00 MB',
      '',
    ]);
  });
});
