import { stationCreate, validate, type StationDto } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import StationFormPage from './station-form.page';
import { STATION_EDIT, STATION_NEW, stationResource } from './station.resource';

const row: StationDto = {
  id: 5,
  stationName: 'Pudong Hub',
  providerId: 1,
  providerName: 'CSMS',
  country: 'CN',
  address: '1 Century Avenue',
  longitude: 121.5,
  latitude: 31.2,
  timeZone: 'Asia/Shanghai',
  openingStart: '08:00',
  openingEnd: '22:00',
  isPublic: true,
  servicePhone: null,
  description: 'Level B2',
  amenities: ['parking', 'wifi'],
  picture: null,
  guide: null,
  status: 'operating',
  isUnassigned: false,
  pointCount: 2,
  connectorCount: 3,
  totalPowerW: 127_000,
  createTime: '2025-01-02T03:04:05Z',
};
const unassigned: StationDto = { ...row, id: 6, stationName: 'Unassigned', isUnassigned: true, pointCount: 1, totalPowerW: 7000 };
const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const dict = (values: string[]) => values.map((v) => ({ dictLabel: `label-${v}`, dictValue: v, listClass: 'default', cssClass: '' }));

function server(extra: Reply = () => undefined, tiles = '') {
  return mockFetch((url, init) => {
    const own = extra(url, init);
    if (own !== undefined) return own;
    const p = url.pathname;
    if (p.endsWith('/web/station/list')) return ok({ list: [row, unassigned], total: 2 });
    if (p.endsWith('/web/station/get')) return ok(row);
    if (p.endsWith('/getAllProviders')) return ok([{ id: 1, providerName: 'CSMS', providerType: 'super', parentId: null }]);
    if (p.endsWith('/configKey/map.tileUrl')) return ok(tiles);
    if (p.includes('/dict/data/type/stationStatus')) return ok(dict(['operating', 'maintenance', 'closed']));
    if (p.includes('/dict/data/type/')) return ok(dict(['1', '0']));
    return { code: 404, msg: 'x', data: null };
  });
}

const button = (label: string) =>
  screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''))!;
const formPage = (url: string) =>
  renderWithProviders(
    <Routes>
      <Route path={STATION_NEW} element={<StationFormPage />} />
      <Route path={STATION_EDIT} element={<StationFormPage />} />
      <Route path="*" element={<p>list</p>} />
    </Routes>,
    url,
  );

beforeAll(() => {
  signInAdmin();
  // jsdom has no PointerEvent: without it the events carry no coordinates or button.
  if (!('PointerEvent' in window)) {
    (window as unknown as Record<string, unknown>).PointerEvent = class extends MouseEvent {
      readonly pointerId: number;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
      }
    };
  }
});

describe('stations list', () => {
  it('shows names, countries, power and the unassigned station in English and Chinese', async () => {
    server();
    let view = renderWithProviders(<ResourcePage resource={stationResource} />);
    await screen.findByText('Pudong Hub');
    for (const label of [
      'Station name',
      'Country/region',
      'Station status',
      'Points',
      'Total power (kW)',
      'Opening hours',
      'China',
      '127',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(screen.getAllByText('08:00 – 22:00').length).toBe(2);
    expect(screen.getByText('Unassigned', { selector: '.ant-tag' })).toBeTruthy();
    // The unassigned station can be edited but has no delete button.
    const rows = screen.getAllByRole('row');
    const pudong = rows.find((r) => r.textContent?.includes('Pudong Hub'))!;
    const auto = rows.find((r) => r.textContent?.includes('Unassigned'))!;
    expect(within(pudong).getByText('More')).toBeTruthy(); // delete and points fold into it
    expect(within(auto).getByText('Points')).toBeTruthy();
    expect(within(auto).queryByText('Delete')).toBeNull();
    expect(within(auto).queryByText('More')).toBeNull();
    // It can be chosen for the batch buttons (its picture), never for the batch delete.
    fireEvent.click(within(auto).getByRole('checkbox'));
    expect(button('Download pictures')).toBeTruthy();
    expect((button('Delete selected') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(auto).getByRole('checkbox'));
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
    cleanup();

    await act(() => i18n.changeLanguage('zh-CN'));
    view = renderWithProviders(<ResourcePage resource={stationResource} />);
    await screen.findByText('Pudong Hub');
    for (const label of ['场站名称', '国家/地区', '场站状态', '充电桩数', '总功率（kW）', '营业时间', '中国', '待分配']) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
  });
});

describe('station pictures', () => {
  it('downloads the selected stations’ pictures in one zip: the button posts their stored files', async () => {
    const pic = (n: number) => `/prod-api/common/download/resource?resource=2025%2F01%2F0${n}%2Fp${n}.png`;
    const rows = [
      { ...row, id: 11, stationName: 'North Gate', picture: pic(1) },
      { ...row, id: 12, stationName: 'South Gate', picture: pic(2) },
      { ...row, id: 13, stationName: 'No Picture', picture: null },
    ];
    const posted: { url: string; body: URLSearchParams }[] = [];
    const clicked: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const anchor = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    server((url, init) => {
      if (url.pathname.endsWith('/web/station/list')) return ok({ list: rows, total: rows.length });
      if (!url.pathname.endsWith('/common/download/zip')) return undefined;
      posted.push({ url: url.pathname, body: new URLSearchParams(String(init?.body)) });
      return new Response(new Blob(['PK']), {
        headers: { 'content-type': 'application/zip', 'download-filename': encodeURIComponent('station pictures.zip') },
      });
    });
    try {
      renderWithProviders(<ResourcePage resource={stationResource} />);
      await screen.findByText('North Gate');
      // Nothing chosen, or only a station without a picture: nothing to download.
      expect((button('Download pictures') as HTMLButtonElement).disabled).toBe(true);
      const tableRow = (name: string) => screen.getAllByRole('row').find((r) => r.textContent?.includes(name))!;
      fireEvent.click(within(tableRow('No Picture')).getByRole('checkbox'));
      expect((button('Download pictures') as HTMLButtonElement).disabled).toBe(true);
      fireEvent.click(within(tableRow('North Gate')).getByRole('checkbox'));
      fireEvent.click(within(tableRow('South Gate')).getByRole('checkbox'));
      fireEvent.click(button('Download pictures'));
      await waitFor(() => expect(clicked).toEqual(['station pictures.zip']));
      expect(posted).toHaveLength(1);
      expect(posted[0]!.url).toBe('/prod-api/common/download/zip');
      // The stored files the pictures' links name.
      expect(posted[0]!.body.getAll('fileNames')).toEqual(['2025/01/01/p1.png', '2025/01/02/p2.png']);
      expect(posted[0]!.body.get('name')).toBe('station pictures');
    } finally {
      anchor.mockRestore();
    }
  });
});

describe('station pages', () => {
  it('refuses an empty form with the contract message, then creates with the defaults', async () => {
    const bodies: unknown[] = [];
    server((url, init) => {
      if (url.pathname.endsWith('/web/station/add')) {
        bodies.push(JSON.parse(String(init?.body)));
        return ok(row);
      }
      return undefined;
    });
    formPage(STATION_NEW);
    await screen.findByText('Basics');
    expect(screen.queryByTestId('map-picker')).toBeNull();
    fireEvent.click(button('Save'));
    const expected = validate(stationCreate, { providerId: 1 }, 'en', 'station');
    if (!expected.ok) expect(await screen.findByText(expected.error.msg)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Station name'), { target: { value: ' Riverside ' } });
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'Quay 3' } });
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: '13.4' } });
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '52.5' } });
    fireEvent.mouseDown(screen.getByLabelText('Country/region'));
    fireEvent.change(screen.getByLabelText('Country/region'), { target: { value: 'Germ' } });
    fireEvent.click(await screen.findByText('Germany (DE)'));
    fireEvent.click(screen.getByLabelText('Wi-Fi'));
    fireEvent.click(button('Save'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      stationName: 'Riverside',
      providerId: 1,
      status: 'operating',
      isPublic: true,
      amenities: ['wifi'],
      country: 'DE',
      address: 'Quay 3',
      longitude: 13.4,
      latitude: 52.5,
    });
    expect(await screen.findByText('list')).toBeTruthy();
  });

  it('edits the current record and sends its id', async () => {
    const bodies: unknown[] = [];
    server((url, init) => {
      if (url.pathname.endsWith('/web/station/edit')) {
        bodies.push(JSON.parse(String(init?.body)));
        return ok(row);
      }
      return undefined;
    });
    formPage(STATION_EDIT.replace(':id', '5'));
    await waitFor(() => expect((screen.getByLabelText('Station name') as HTMLInputElement).value).toBe('Pudong Hub'));
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: '2 Century Avenue' } });
    fireEvent.click(button('Save'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      id: 5,
      stationName: 'Pudong Hub',
      address: '2 Century Avenue',
      openingStart: '08:00',
      amenities: ['parking', 'wifi'],
    });
  });

  it('shows a map when tiles are configured, and a click on it sets the coordinates', async () => {
    server(undefined, 'https://tile.test/{z}/{x}/{y}.png');
    formPage(STATION_EDIT.replace(':id', '5'));
    const map = await screen.findByTestId('map-picker');
    await waitFor(() => expect((screen.getByLabelText('Longitude') as HTMLInputElement).value).toBe('121.500000'));
    // Coordinates loaded after the map opened bring it to them: the pin and the button back to it.
    await waitFor(() => expect(map.querySelector('.csms-map-pin')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Back to the chosen place' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeTruthy();
    // A click 100 px right of the map's centre (jsdom lays the map out as 0 × 0: its centre is the corner) moves the point east.
    fireEvent.click(map.querySelector('.leaflet-container')!, { clientX: 100, clientY: 0 });
    await waitFor(() => expect(Number((screen.getByLabelText('Longitude') as HTMLInputElement).value)).toBeGreaterThan(121.5));
    expect(Number((screen.getByLabelText('Latitude') as HTMLInputElement).value)).toBeCloseTo(31.2, 3);
  });
});
