import type { FirmwareUpgradeDto, FirmwareUpgradePointDto, FirmwareVersionDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FormInstance } from 'antd';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chooseByLabel, mockFetch, rawKeys, renderCapturingForms, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import { firmwareUpgradeResource } from './firmware-upgrade.resource';
import FirmwarePage from './firmware.page';

/*
 * The version management page in jsdom. Speed matters here (antd in jsdom is slow): each test renders
 * the page once and walks through several behaviours; elements are found by CSS and text, never by
 * role; antd pickers are opened for real only where the picking itself is under test, elsewhere the
 * form's values are set through antd's Form.Provider.
 */

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const PAGE = '/configurationManagement/versionManage';

const pkg: FirmwareVersionDto = {
  id: 7,
  providerId: 1,
  providerName: 'CSMS',
  version: '2.0.1',
  applicationType: 'main',
  communicationType: '4G',
  note: 'night build',
  fileName: 'fw-2.0.1.bin',
  sizeBytes: 3 * 1024 * 1024 + 512 * 1024,
  sha256: 'ab12cd34ef56'.padEnd(64, '0'),
  location: 'http://csms.test/files/firmware/tok/fw-2.0.1.bin',
  uploaderName: 'admin',
  uploadTime: '2026-03-01T08:00:00.000Z',
};

const upgrade: FirmwareUpgradeDto = {
  id: 31,
  providerId: 1,
  providerName: 'CSMS',
  versionId: 7,
  version: '2.0.1',
  communicationType: '4G',
  location: pkg.location,
  retrieveDate: '2026-03-01T08:00:00.000Z',
  retries: 2,
  retryInterval: 30,
  description: 'fleet',
  waveSize: 2,
  waveTimeoutMinutes: 60,
  currentWave: 1,
  waveCount: 2,
  counts: { confirmed: 1, DownloadFailed: 1, queued: 1 },
  total: 3,
  uploaderName: 'admin',
  createTime: '2026-03-01T08:00:00.000Z',
  reportTime: '2026-03-01T08:05:00.000Z',
};

const pointRow = (serialNumber: string, state: FirmwarePointState, extra: Partial<FirmwareUpgradePointDto> = {}) => ({
  serialNumber,
  wave: 1,
  pointName: `Bay ${serialNumber}`,
  stationName: 'Pudong Hub',
  state,
  reason: null,
  fromVersion: '1.0.0',
  reportedVersion: null,
  sentTime: '2026-03-01T08:00:01.000Z',
  reportTime: null,
  ...extra,
});
type FirmwarePointState = FirmwareUpgradePointDto['state'];
const points: FirmwareUpgradePointDto[] = [
  pointRow('CP-1', 'confirmed', { reportedVersion: '2.0.1', reportTime: '2026-03-01T08:05:00.000Z' }),
  pointRow('CP-2', 'DownloadFailed', { reason: 'timeout' }),
  pointRow('CP-3', 'queued', { wave: 2, sentTime: null }),
];

const stationPoint = (serialNumber: string, model: string, firmwareVersion: string) => ({
  id: Number(serialNumber.slice(3)),
  serialNumber,
  pointName: `Bay ${serialNumber}`,
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  model,
  firmwareVersion,
  connectors: [],
});
const stationPoints = [
  stationPoint('CP-1', 'AC-22', '1.0.0'),
  stationPoint('CP-3', 'AC-22', '1.1.0'),
  stationPoint('CP-4', 'DC-60', '1.0.0'),
];

const bodies: Record<string, unknown[]> = {};
const asked: URL[] = [];
function server(extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  asked.length = 0;
  return mockFetch((url, init) => {
    const p = url.pathname.replace('/prod-api', '');
    asked.push(url);
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p === '/web/firmwareVersion/list') return ok({ list: [pkg], total: 1 });
    if (p === '/web/firmwareUpgrade/list') return ok({ list: [upgrade], total: 1 });
    if (p === '/web/firmwareUpgrade/add') return ok(upgrade);
    if (p === '/web/firmwareUpgrade/points') return ok(points);
    if (p === '/web/firmwareUpgrade/retry') return ok({ retried: 1 });
    if (p === '/web/getStations') return ok([{ id: 3, stationName: 'Pudong Hub' }]);
    if (p === '/web/getPoints') {
      // The server narrows by station, model and firmware version as asked.
      const f = JSON.parse(String(init?.body ?? '{}')) as { stationId?: number; model?: string; firmwareVersion?: string };
      return ok(
        stationPoints.filter((x) => (!f.model || x.model === f.model) && (!f.firmwareVersion || x.firmwareVersion === f.firmwareVersion)),
      );
    }
    return { code: 404, msg: 'x', data: null };
  });
}
const sent = (path: string) => bodies[path] ?? [];

/** XMLHttpRequest as the upload sends it: the test answers, and reports progress, when it likes. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  respond(envelope: unknown) {
    this.status = 200;
    this.responseText = JSON.stringify(envelope);
    act(() => this.onload?.());
  }
}

const squash = (s: string | null | undefined) => (s ?? '').replace(/\s/g, '');
/** A button by its words (CSS and text: a role query would compute the style of every element). */
const button = (label: string, scope: ParentNode = document.body) =>
  [...scope.querySelectorAll('button')].find((b) => squash(b.textContent) === squash(label));
/** The open dialog whose text holds `title`. */
const dialogWith = (title: string) =>
  waitFor(() => {
    const d = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((m) => m.textContent?.includes(title));
    if (!d) throw new Error(`no dialog "${title}"`);
    return d;
  });
const type = (container: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(container).getByLabelText(label), { target: { value } });
/** The form item's error text under the input labelled `label`. */
const errorOf = (container: HTMLElement, label: string) =>
  within(container).getByLabelText(label).closest('.ant-form-item')!.querySelector('.ant-form-item-explain')?.textContent ?? '';

/** The page, with its named forms (`<resource>-form`) caught as soon as one of their fields changes. */
let forms: Record<string, FormInstance> = {};
function renderPage(url: string) {
  const view = renderCapturingForms(<FirmwarePage />, url);
  forms = view.forms;
  return view;
}

beforeAll(signInAdmin);
afterEach(() => {
  FakeXhr.sent = [];
  vi.unstubAllGlobals();
});

describe('versions tab', () => {
  it('lists a package with its size readable and its digest shortened, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Firmware versions', 'Firmware upgrades', 'Upload firmware', 'Size', 'Application type']],
      ['zh-CN', ['固件版本', '固件升级', '上传固件', '大小', '应用类型']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderPage(PAGE);
      const row = (await screen.findByText('fw-2.0.1.bin', { selector: 'td' })).closest('tr')!;
      expect(within(row).getByText('3.50 MB')).toBeTruthy();
      expect(within(row).getByText('ab12cd34ef56')).toBeTruthy();
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('asks for the file first, shows the server’s refusal on its field, then uploads as multipart with progress and refreshes the list', async () => {
    server();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    renderPage(PAGE);
    await screen.findByText('fw-2.0.1.bin', { selector: 'td' });
    fireEvent.click(screen.getByTestId('firmware-upload-open'));
    const dialog = await dialogWith('Upload a firmware package');
    type(dialog, 'Version', '3.0.0');
    type(dialog, 'Application type', 'main');
    type(dialog, 'Communication type', 'Ethernet');
    type(dialog, 'Note', 'fixes');

    // No file yet: the dialog says so and sends nothing.
    fireEvent.click(button('Upload firmware', dialog)!);
    expect(await within(dialog).findByText('Firmware file is required')).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(0);

    const file = new File(['version: 3.0.0\nbinary'], 'fw-3.0.0.bin', { type: 'application/octet-stream' });
    act(() => {
      fireEvent.change(dialog.querySelector('input[type=file]')!, { target: { files: [file] } });
    });
    expect(await within(dialog).findByText(/fw-3\.0\.0\.bin/)).toBeTruthy();

    // The server refuses the version: its message lands on the version's field and the dialog stays.
    fireEvent.click(button('Upload firmware', dialog)!);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond({ code: 400, msg: 'Version 3.0.0 already exists', data: { field: 'version' } });
    await waitFor(() => expect(errorOf(dialog, 'Version')).toBe('Version 3.0.0 already exists'));
    expect(within(dialog).getByText('Upload a firmware package')).toBeTruthy();

    // Again: the fields in the query string, the file as the one multipart part, progress shown.
    const listCalls = () => asked.filter((u) => u.pathname.endsWith('/firmwareVersion/list')).length;
    const before = listCalls();
    fireEvent.click(button('Upload firmware', dialog)!);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    const xhr = FakeXhr.sent[1]!;
    const url = new URL(xhr.url, 'http://localhost');
    expect(xhr.method).toBe('POST');
    expect(url.pathname).toBe('/prod-api/web/firmwareVersion/add');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      version: '3.0.0',
      applicationType: 'main',
      communicationType: 'Ethernet',
      note: 'fixes',
    });
    expect(xhr.body).toBeInstanceOf(FormData);
    expect([...xhr.body!.keys()]).toEqual(['file']);
    const part = xhr.body!.get('file') as File;
    expect([part.name, part.size]).toEqual([file.name, file.size]);
    expect(xhr.headers['X-Language']).toBe('en');
    xhr.progress(40, 100);
    expect(await within(dialog).findByText('Uploading: 40%')).toBeTruthy();
    xhr.respond(ok({ ...pkg, id: 8, version: '3.0.0' }));
    expect(await screen.findByText('Firmware uploaded')).toBeTruthy();
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByText('Upload a firmware package')).toBeNull());
  });
});

describe('new upgrade dialog', () => {
  it('picks points by station, model and current version, validates the URL and the waves, and sends the package without the filters', async () => {
    server();
    renderPage(`${PAGE}?tab=upgrades`);
    await screen.findByText('fleet', { selector: 'td' });
    fireEvent.click(button('Add')!);
    const dialog = await dialogWith('New firmware upgrade');
    // No station, model or version yet: the picker waits.
    expect(within(dialog).getByLabelText('Points').closest('.ant-select')!.className).toContain('disabled');
    // Catch the form through a typed field; the rest of its values are set through it.
    type(dialog, 'Description', 'night');
    const form = forms['firmwareUpgrade-form']!;

    // A model alone enables the picker and narrows it on the server; "choose all" takes every point listed.
    act(() => form.setFieldsValue({ pointModel: 'AC-22' }));
    const all = () => within(dialog).queryByTestId('upgrade-points-all');
    await waitFor(() => expect(all()?.textContent).toBe('Choose all listed (2)'));
    expect(sent('/web/getPoints')).toContainEqual({ model: 'AC-22' });
    // The station and a version narrow it further; the picker offers what the server answered.
    act(() => form.setFieldsValue({ stationId: 3, pointFirmware: '1.0.0' }));
    await waitFor(() => expect(all()?.textContent).toBe('Choose all listed (1)'));
    expect(sent('/web/getPoints')).toContainEqual({ stationId: 3, model: 'AC-22', firmwareVersion: '1.0.0' });
    await chooseByLabel(dialog, 'Points', 'CP-1 · Bay CP-1');
    expect(form.getFieldValue('serialNumbers')).toEqual(['CP-1']);
    act(() => form.setFieldsValue({ pointFirmware: undefined }));
    await waitFor(() => expect(all()?.textContent).toBe('Choose all listed (2)'));
    fireEvent.click(all()!);
    expect(form.getFieldValue('serialNumbers')).toEqual(['CP-1', 'CP-3']);

    // A typed URL: asked for on its own field, and checked.
    fireEvent.click(within(dialog).getByText('A download URL'));
    await waitFor(() => expect(within(dialog).getByLabelText('Download URL').hasAttribute('disabled')).toBe(false));
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(errorOf(dialog, 'Download URL')).toBe('Please choose a firmware version or enter a download URL'));
    type(dialog, 'Download URL', 'mailto:x');
    await waitFor(() => expect(errorOf(dialog, 'Download URL')).toBe('Download URL must be an http, https, ftp or ftps address'));

    // Waves: no more per wave than points; the time limit only once there are waves.
    expect(within(dialog).getByLabelText('Wave time limit (min)').hasAttribute('disabled')).toBe(true);
    type(dialog, 'Points per wave', '3');
    await waitFor(() => expect(errorOf(dialog, 'Points per wave')).toBe('Points per wave cannot be more than the points chosen (2)'));
    type(dialog, 'Points per wave', '1');
    await waitFor(() => expect(errorOf(dialog, 'Points per wave')).toBe(''));
    await waitFor(() => expect(within(dialog).getByLabelText('Wave time limit (min)').hasAttribute('disabled')).toBe(false));
    type(dialog, 'Wave time limit (min)', '30');

    // Back to a package: sent with the points, the waves and the rest; neither the station nor the filters nor the choice.
    fireEvent.click(within(dialog).getByText('A package of version management'));
    act(() => form.setFieldsValue({ versionId: 7 }));
    type(dialog, 'Retries', '2');
    type(dialog, 'Retry interval (s)', '30');
    fireEvent.click(button('OK', dialog)!);
    await waitFor(() => expect(sent('/web/firmwareUpgrade/add')).toHaveLength(1));
    expect(sent('/web/firmwareUpgrade/add')[0]).toEqual({
      serialNumbers: ['CP-1', 'CP-3'],
      versionId: 7,
      retries: 2,
      retryInterval: 30,
      waveSize: 1,
      waveTimeoutMinutes: 30,
      description: 'night',
    });
    expect(await screen.findByText('Created; offline points get it when they connect')).toBeTruthy();
  });

  it('sends a typed URL as the location, not the package; a wave time limit only with waves', () => {
    const { toBody } = firmwareUpgradeResource({ points: () => undefined });
    const values = {
      stationId: 3,
      pointModel: 'AC-22',
      serialNumbers: ['CP-1'],
      versionId: 7,
      location: 'ftp://files.example.test/fw/3.0.bin',
    };
    expect(toBody!({ ...values, source: 'location' }, 'create')).toEqual({
      serialNumbers: ['CP-1'],
      location: 'ftp://files.example.test/fw/3.0.bin',
    });
    expect(toBody!({ ...values, source: 'version' }, 'create')).toEqual({ serialNumbers: ['CP-1'], versionId: 7 });
    // A time limit left behind when the waves were cleared is not sent.
    expect(toBody!({ ...values, source: 'version', waveTimeoutMinutes: 30 }, 'create')).toEqual({ serialNumbers: ['CP-1'], versionId: 7 });
  });

  it('in Chinese, names the new parts of the dialog', async () => {
    server();
    await act(() => i18n.changeLanguage('zh-CN'));
    renderPage(`${PAGE}?tab=upgrades`);
    await screen.findByText('fleet', { selector: 'td' });
    fireEvent.click(button('新增')!);
    const dialog = await dialogWith('新建固件升级');
    for (const word of ['型号', '当前固件版本', '请先选择场站、型号或当前固件版本', '分批升级', '每批充电桩数', '每批时限（分钟）'])
      expect(within(dialog).getAllByText(word).length, word).toBeGreaterThan(0);
    expect(within(dialog).getByPlaceholderText('请先填写每批充电桩数')).toBeTruthy();
    expect(dialog.textContent).toContain('一台失联的充电桩不会让升级停下');
    type(dialog, '每批充电桩数', '0');
    await waitFor(() => expect(errorOf(dialog, '每批充电桩数')).toBe('每批充电桩数须是不小于 1 的整数'));
    expect(rawKeys(dialog.textContent ?? '')).toEqual([]);
  });
});

describe('an upgrade’s points', () => {
  it('shows each point’s wave and state, counts and versions in both languages', async () => {
    server();
    for (const [lng, words] of [
      [
        'en-US',
        [
          'Upgraded',
          'Download failed',
          'Waiting for its wave',
          'Previous → reported version',
          'Retry failed points',
          'Wave 1 of 2 (2 points each)',
        ],
      ],
      ['zh-CN', ['升级成功', '下载失败', '等待所在批次', '原版本 → 上报版本', '重试失败的充电桩', '第 1 批，共 2 批（每批 2 个）']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderPage(`${PAGE}?tab=upgrades`);
      const row = (await screen.findByText('fleet', { selector: 'td' })).closest('tr')!;
      // The row's summary: one tag per state, coloured by outcome, and the wave it is at.
      expect(
        within(row)
          .getByText(lng === 'en-US' ? 'Upgraded 1' : '升级成功 1')
          .closest('.ant-tag')!.className,
      ).toMatch(/success/);
      expect(
        within(row)
          .getByText(lng === 'en-US' ? 'Download failed 1' : '下载失败 1')
          .closest('.ant-tag')!.className,
      ).toMatch(/error/);
      expect(within(row).getByText('1 / 2')).toBeTruthy();
      fireEvent.click(within(row).getByText(lng === 'en-US' ? 'Progress' : '升级进度'));
      const table = await screen.findByTestId('upgrade-points-table');
      const cp1 = (await within(table).findByText('CP-1')).closest('tr')!;
      expect(within(cp1).getByText('1.0.0 → 2.0.1')).toBeTruthy();
      expect(cp1.querySelector('[data-status=confirmed]')).toBeTruthy();
      // The current wave stands out; the third point waits in the next one.
      expect(cp1.querySelector('[data-wave="1"]')!.getAttribute('data-current')).toBe('true');
      const cp3 = within(table).getByText('CP-3').closest('tr')!;
      expect(cp3.querySelector('[data-wave="2"]')!.getAttribute('data-current')).toBe('false');
      expect(cp3.querySelector('[data-status=queued]')).toBeTruthy();
      const drawer = table.closest('.ant-drawer') as HTMLElement;
      for (const word of words) expect(within(drawer).getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(within(drawer).getByText('timeout')).toBeTruthy();
      expect(rawKeys(drawer.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('retries the failed points with the upgrade’s id, says how many, and offers no retry once none failed; exports the list', async () => {
    let retried = false;
    server((url) => {
      if (url.pathname.endsWith('/firmwareUpgrade/retry')) retried = true;
      if (url.pathname.endsWith('/firmwareUpgrade/points') && retried)
        return ok([pointRow('CP-1', 'confirmed'), pointRow('CP-2', 'pending'), pointRow('CP-3', 'queued', { wave: 2 })]);
      if (url.pathname.endsWith('/firmwareUpgrade/export'))
        return new Response(new Blob(['id\r\n31\r\n']), { headers: { 'download-filename': 'x.csv' } });
      return undefined;
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage(`${PAGE}?tab=upgrades&version=2.0`);
    const row = (await screen.findByText('fleet', { selector: 'td' })).closest('tr')!;

    // The export sends the list's filter.
    fireEvent.mouseEnter(button('Export')!);
    fireEvent.click(await screen.findByText('Export CSV'));
    await waitFor(() => expect(sent('/web/firmwareUpgrade/export')).toHaveLength(1));
    expect(sent('/web/firmwareUpgrade/export')[0]).toMatchObject({ format: 'csv', version: '2.0' });
    await waitFor(() => expect(saved).toHaveBeenCalled());
    saved.mockRestore();

    fireEvent.click(within(row).getByText('Progress'));
    fireEvent.click(await screen.findByTestId('upgrade-retry'));
    await waitFor(() => expect(sent('/web/firmwareUpgrade/retry')).toEqual([{ id: 31 }]));
    expect(await screen.findByText('Sent again to 1 points')).toBeTruthy();
    // Refreshed: nothing failed any more, so no retry.
    const table = screen.getByTestId('upgrade-points-table');
    await waitFor(() => expect(table.querySelector('[data-status=pending]')).toBeTruthy());
    expect(screen.queryByTestId('upgrade-retry')).toBeNull();
  });
});
