import type { FirmwareUpgradeDto, FirmwareUpgradePointDto, FirmwareVersionDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import FirmwarePage from './firmware.page';

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
  counts: { confirmed: 1, DownloadFailed: 1, Downloading: 1 },
  total: 3,
  uploaderName: 'admin',
  createTime: '2026-03-01T08:00:00.000Z',
  reportTime: '2026-03-01T08:05:00.000Z',
};

const pointRow = (serialNumber: string, state: FirmwareUpgradePointDto['state'], extra: Partial<FirmwareUpgradePointDto> = {}) => ({
  serialNumber,
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
const points: FirmwareUpgradePointDto[] = [
  pointRow('CP-1', 'confirmed', { reportedVersion: '2.0.1', reportTime: '2026-03-01T08:05:00.000Z' }),
  pointRow('CP-2', 'DownloadFailed', { reason: 'timeout' }),
  pointRow('CP-3', 'Downloading'),
];

const stationPoint = (serialNumber: string) => ({
  id: Number(serialNumber.slice(3)),
  serialNumber,
  pointName: `Bay ${serialNumber}`,
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  connectors: [],
});

const bodies: Record<string, unknown[]> = {};
const asked: URL[] = [];
function server(extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  asked.length = 0;
  return mockFetch((url, init) => {
    const p = url.pathname;
    asked.push(url);
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p.endsWith('/web/firmwareVersion/list')) return ok({ list: [pkg], total: 1 });
    if (p.endsWith('/web/firmwareUpgrade/list')) return ok({ list: [upgrade], total: 1 });
    if (p.endsWith('/web/firmwareUpgrade/add')) return ok(upgrade);
    if (p.endsWith('/web/firmwareUpgrade/points')) return ok(points);
    if (p.endsWith('/web/firmwareUpgrade/retry')) return ok({ retried: 1 });
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub' }]);
    if (p.endsWith('/web/getPoints')) return ok([stationPoint('CP-1'), stationPoint('CP-3')]);
    return { code: 404, msg: 'x', data: null };
  });
}

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

const type = (container: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(container).getByLabelText(label), { target: { value } });

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
      const view = renderWithProviders(<FirmwarePage />, PAGE);
      const row = (await screen.findByText('fw-2.0.1.bin', { selector: 'td' })).closest('tr')!;
      expect(within(row).getByText('3.50 MB')).toBeTruthy();
      expect(within(row).getByText('ab12cd34ef56')).toBeTruthy();
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  async function openUpload() {
    renderWithProviders(<FirmwarePage />, PAGE);
    await screen.findByText('fw-2.0.1.bin', { selector: 'td' });
    fireEvent.click(screen.getByTestId('firmware-upload-open'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    expect(within(dialog).getByText('Upload a firmware package')).toBeTruthy();
    type(dialog, 'Version', '3.0.0');
    type(dialog, 'Application type', 'main');
    type(dialog, 'Communication type', 'Ethernet');
    type(dialog, 'Note', 'fixes');
    const file = new File(['version: 3.0.0\nbinary'], 'fw-3.0.0.bin', { type: 'application/octet-stream' });
    act(() => {
      fireEvent.change(dialog.querySelector('input[type=file]')!, { target: { files: [file] } });
    });
    expect(await within(dialog).findByText(/fw-3\.0\.0\.bin/)).toBeTruthy();
    return { dialog, file };
  }

  it('uploads the file as multipart with the package’s fields in the query string, showing progress, then refreshes the list', async () => {
    server();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { dialog, file } = await openUpload();
    const listCalls = () => asked.filter((u) => u.pathname.endsWith('/firmwareVersion/list')).length;
    const before = listCalls();
    fireEvent.click(button('Upload firmware', dialog));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
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
    const sent = xhr.body!.get('file') as File;
    expect(sent.name).toBe(file.name);
    expect(sent.size).toBe(file.size);
    expect(xhr.headers['X-Language']).toBe('en');

    xhr.progress(40, 100);
    expect(await within(dialog).findByText('Uploading: 40%')).toBeTruthy();
    xhr.respond(ok({ ...pkg, id: 8, version: '3.0.0' }));
    expect(await screen.findByText('Firmware uploaded')).toBeTruthy();
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByText('Upload a firmware package')).toBeNull());
  });

  it('shows the server’s refusal on its field and keeps the dialog open', async () => {
    server();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { dialog } = await openUpload();
    fireEvent.click(button('Upload firmware', dialog));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond({ code: 400, msg: 'Version 3.0.0 already exists', data: { field: 'version' } });
    const error = await within(dialog).findByText('Version 3.0.0 already exists');
    expect(error.closest('.ant-form-item')!.querySelector('input#firmwareVersion-form_version')).toBeTruthy();
    expect(within(dialog).getByText('Upload a firmware package')).toBeTruthy();
  });

  it('asks for the file before sending anything', async () => {
    server();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    renderWithProviders(<FirmwarePage />, PAGE);
    await screen.findByText('fw-2.0.1.bin', { selector: 'td' });
    fireEvent.click(screen.getByTestId('firmware-upload-open'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    type(dialog, 'Version', '3.0.0');
    type(dialog, 'Application type', 'main');
    type(dialog, 'Communication type', 'Ethernet');
    fireEvent.click(button('Upload firmware', dialog));
    expect(await within(dialog).findByText('Firmware file is required')).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(0);
  });
});

describe('new upgrade dialog', () => {
  async function openNew() {
    renderWithProviders(<FirmwarePage />, `${PAGE}?tab=upgrades`);
    await screen.findByText('fleet', { selector: 'td' });
    fireEvent.click(button('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    expect(within(dialog).getByText('New firmware upgrade')).toBeTruthy();
    await choose(dialog, 'Station', 'Pudong Hub');
    await choose(dialog, 'Points', 'CP-1 · Bay CP-1');
    return dialog;
  }

  it('sends the points and the package, without the station or the choice', async () => {
    server();
    const dialog = await openNew();
    await choose(dialog, 'Firmware version', '2.0.1 · fw-2.0.1.bin');
    type(dialog, 'Retries', '2');
    type(dialog, 'Retry interval (s)', '30');
    type(dialog, 'Description', 'night');
    fireEvent.click(button('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/firmwareUpgrade/add']).toHaveLength(1));
    expect(bodies['/prod-api/web/firmwareUpgrade/add']![0]).toEqual({
      serialNumbers: ['CP-1'],
      versionId: 7,
      retries: 2,
      retryInterval: 30,
      description: 'night',
    });
    expect(await screen.findByText('Created; offline points get it when they connect')).toBeTruthy();
  });

  it('sends a typed URL instead, and asks for one on its own field', async () => {
    server();
    const dialog = await openNew();
    await choose(dialog, 'Firmware version', '2.0.1 · fw-2.0.1.bin');
    fireEvent.click(within(dialog).getByText('A download URL'));
    const location = within(dialog).getByLabelText('Download URL');
    await waitFor(() => expect(location.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button('OK', dialog));
    const error = await within(dialog).findByText('Please choose a firmware version or enter a download URL');
    expect(error.closest('.ant-form-item')!.querySelector('[data-testid=upgrade-location]')).toBeTruthy();
    type(dialog, 'Download URL', 'mailto:x');
    expect(await within(dialog).findByText('Download URL must be an http, https, ftp or ftps address')).toBeTruthy();
    type(dialog, 'Download URL', 'ftp://files.example.test/fw/3.0.bin');
    fireEvent.click(button('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/firmwareUpgrade/add']).toHaveLength(1));
    expect(bodies['/prod-api/web/firmwareUpgrade/add']![0]).toEqual({
      serialNumbers: ['CP-1'],
      location: 'ftp://files.example.test/fw/3.0.bin',
    });
  });
});

describe('an upgrade’s points', () => {
  it('shows each point’s state, counts and versions in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Upgraded', 'Download failed', 'Downloading', 'Previous → reported version', 'Retry failed points']],
      ['zh-CN', ['升级成功', '下载失败', '下载中', '原版本 → 上报版本', '重试失败的充电桩']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<FirmwarePage />, `${PAGE}?tab=upgrades`);
      const row = (await screen.findByText('fleet', { selector: 'td' })).closest('tr')!;
      // The row's summary: one tag per state, coloured by outcome.
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
      fireEvent.click(within(row).getByText(lng === 'en-US' ? 'Progress' : '升级进度'));
      const table = await screen.findByTestId('upgrade-points-table');
      const cp1 = (await within(table).findByText('CP-1')).closest('tr')!;
      expect(within(cp1).getByText('1.0.0 → 2.0.1')).toBeTruthy();
      expect(cp1.querySelector('[data-status=confirmed]')).toBeTruthy();
      const drawer = table.closest('.ant-drawer') as HTMLElement;
      for (const word of words) expect(within(drawer).getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(within(drawer).getByText('timeout')).toBeTruthy();
      expect(rawKeys(drawer.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('retries the failed points with the upgrade’s id and says how many', async () => {
    server();
    renderWithProviders(<FirmwarePage />, `${PAGE}?tab=upgrades`);
    const row = (await screen.findByText('fleet', { selector: 'td' })).closest('tr')!;
    fireEvent.click(within(row).getByText('Progress'));
    fireEvent.click(await screen.findByTestId('upgrade-retry'));
    await waitFor(() => expect(bodies['/prod-api/web/firmwareUpgrade/retry']).toEqual([{ id: 31 }]));
    expect(await screen.findByText('Sent again to 1 points')).toBeTruthy();
  });

  it('offers no retry when no point failed', async () => {
    server((url) =>
      url.pathname.endsWith('/firmwareUpgrade/points') ? ok([pointRow('CP-1', 'confirmed'), pointRow('CP-3', 'Installing')]) : undefined,
    );
    renderWithProviders(<FirmwarePage />, `${PAGE}?tab=upgrades`);
    const row = (await screen.findByText('fleet', { selector: 'td' })).closest('tr')!;
    fireEvent.click(within(row).getByText('Progress'));
    const table = await screen.findByTestId('upgrade-points-table');
    await within(table).findByText('CP-3');
    expect(screen.queryByTestId('upgrade-retry')).toBeNull();
  });
});
