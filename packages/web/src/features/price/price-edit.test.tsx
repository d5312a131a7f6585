import type { PriceDetailDto, PriceRowDto, PriceVersionDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import GroupPriceEditPage from './group-price-edit.page';
import PriceEditPage from './price-edit.page';
import PricePage from './price.page';
import { fillAll, paintRange } from './slots';

const fees = {
  sharpElec: 15000,
  sharpService: 5000,
  peakElec: 12345,
  peakService: 4000,
  flatElec: 8000,
  flatService: 3000,
  valleyElec: 3333,
  valleyService: 1000,
  reserveFeeCents: 250,
};
const painted = paintRange(paintRange(fillAll('flat'), 0, 15, 'valley'), 16, 23, 'peak');
const version = (v: Partial<PriceVersionDto>): PriceVersionDto => ({
  id: 11,
  stationId: 3,
  groupId: null,
  effectiveFrom: '2026-01-01T00:00:00.000Z',
  ...fees,
  slots: painted,
  billedCount: 0,
  used: false,
  createdByName: 'admin',
  createTime: '2026-01-01T00:00:00.000Z',
  ...v,
});
const detail = (versions: PriceVersionDto[], more: Partial<PriceDetailDto> = {}): PriceDetailDto => ({
  stationId: 3,
  stationName: 'Harbour',
  providerId: 1,
  providerName: 'CSMS',
  timeZone: 'Asia/Shanghai',
  groupId: null,
  groupName: null,
  currentId: versions.at(-1)?.id ?? null,
  versions,
  groups: [{ id: 5, name: 'Fleet', hasPrice: false }],
  ...more,
});
const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const priceKeys = (text: string) => text.match(/\bprice\.[a-zA-Z.]+/g) ?? [];

beforeAll(signInAdmin);

describe('price edit page', () => {
  it('edits an unused version in place and sends exact integer units', async () => {
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/web/price/edit')) {
        bodies.push(JSON.parse(String(init?.body)));
        return ok(version({ peakElec: 2900 }));
      }
      return ok(detail([version({})]));
    });
    const { container } = renderWithProviders(<PriceEditPage />, '/financialManagement/electricityPriceEdit?stationId=3');
    expect(await screen.findByText('Editing the version effective from 2026-01-01 08:00')).toBeTruthy();
    const peak = screen.getByTestId('fee-peakElec') as HTMLInputElement;
    expect(peak.value).toBe('1.2345');
    fireEvent.change(peak, { target: { value: '0.29' } });
    fireEvent.click(screen.getByTestId('price-save'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ id: 11, ...fees, peakElec: 2900, slots: painted, effectiveFrom: '2026-01-01T00:00:00.000Z' });
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    expect(priceKeys(container.textContent ?? '')).toEqual([]);
  });

  it('shows what a version for the past re-prices and saves it only when confirmed', { timeout: 120_000 }, async () => {
    const bodies: Record<string, unknown>[] = [];
    const impacts: unknown[] = [];
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/web/price/impact')) {
        impacts.push(JSON.parse(String(init?.body)));
        return ok({
          effectiveFrom: '2026-01-01T00:00:00.000Z',
          backdated: true,
          sessions: 3,
          finished: 2,
          running: 1,
          unpriced: 2,
          currentCents: 1200,
          newCents: 4567,
        });
      }
      if (url.pathname.endsWith('/web/price/edit')) {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        bodies.push(body);
        return body.confirmPast
          ? ok(version({ peakElec: 2900 }))
          : { code: 409, msg: 'This version takes effect in the past', data: { field: 'confirmPast' } };
      }
      return ok(detail([version({})]));
    });
    renderWithProviders(<PriceEditPage />, '/x?stationId=3');
    fireEvent.change(await screen.findByTestId('fee-peakElec'), { target: { value: '0.29' } });
    fireEvent.click(screen.getByTestId('price-save'));
    const box = await screen.findByTestId('past-impact', {}, { timeout: 5000 });
    expect(box.textContent).toContain('It takes effect from 2026-01-01 08:00 (station time), before now.');
    expect(box.textContent).toContain('Unbilled sessions re-priced: 3 (finished 2, charging 1; 2 of them had no price)');
    expect(box.textContent).toContain('Their amount: $12.00 now, $45.67 with this version');
    expect(impacts).toEqual([{ id: 11, ...fees, peakElec: 2900, slots: painted, effectiveFrom: '2026-01-01T00:00:00.000Z' }]);
    expect(bodies.map((b) => b.confirmPast)).toEqual([undefined]);
    const okButton = screen.getByTestId('past-ok');
    expect(okButton.textContent).toBe('Save it');
    fireEvent.click(okButton);
    await waitFor(() => expect(bodies.map((b) => b.confirmPast)).toEqual([undefined, true]));
    expect(await screen.findByText('Success', {}, { timeout: 20_000 })).toBeTruthy();
  });

  it('refuses a fee with more than 4 decimals, naming the field', async () => {
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/edit')) bodies.push(init?.body);
      return ok(detail([version({})]));
    });
    renderWithProviders(<PriceEditPage />, '/x?stationId=3');
    fireEvent.change(await screen.findByTestId('fee-flatService'), { target: { value: '0.12345' } });
    fireEvent.click(screen.getByTestId('price-save'));
    expect(await screen.findByText('Flat service fee ($/kWh) must be between 0 and 100 with at most 4 decimals')).toBeTruthy();
    expect(bodies).toEqual([]);
  });

  it('warns that a used version becomes a new one, and says so after saving', async () => {
    const used = version({ used: true, billedCount: 4 });
    const fresh = version({ id: 12, effectiveFrom: '2026-05-01T00:00:00.000Z', slots: fillAll('flat') });
    const bodies: unknown[] = [];
    let saved = false;
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/web/price/edit')) {
        bodies.push(JSON.parse(String(init?.body)));
        saved = true;
        return ok(fresh);
      }
      return ok(detail(saved ? [fresh, used] : [used], { currentId: saved ? 12 : 11 }));
    });
    renderWithProviders(<PriceEditPage />, '/x?stationId=3');
    expect(await screen.findByText(/Sessions \(4\) were billed with this version/)).toBeTruthy();
    expect(screen.getByTestId('version-locked')).toBeTruthy();
    fireEvent.click(screen.getByTestId('preset-flat'));
    fireEvent.click(screen.getByTestId('price-save'));
    expect(await screen.findByText('This version is used by bills; saved as a new version')).toBeTruthy();
    // "Now": no instant is sent.
    expect(bodies).toEqual([{ id: 11, ...fees, slots: fillAll('flat') }]);
    expect(await screen.findByText('Editing the version effective from 2026-05-01 08:00')).toBeTruthy();
  });

  it('marks the field the server refuses', async () => {
    mockFetch((url) =>
      url.pathname.endsWith('/web/price/add')
        ? { code: 409, msg: 'Sessions at this station are billed up to 2026-02-01 10:00', data: { field: 'effectiveFrom' } }
        : ok(detail([])),
    );
    renderWithProviders(<PriceEditPage />, '/x?stationId=3');
    expect((await screen.findAllByText('New version')).length).toBe(2); // the form's title and the button
    for (const [key, v] of Object.entries({ ...fees, reserveFeeCents: undefined })) {
      if (v !== undefined) fireEvent.change(screen.getByTestId(`fee-${key}`), { target: { value: String(v / 10000) } });
    }
    fireEvent.click(screen.getByText('From'));
    fireEvent.mouseDown(screen.getByTestId('effective-at').querySelector('input') ?? screen.getByTestId('effective-at'));
    fireEvent.change(screen.getByTestId('effective-at').querySelector('input') ?? screen.getByTestId('effective-at'), {
      target: { value: '2026-01-10 08:00' },
    });
    fireEvent.keyDown(screen.getByTestId('effective-at').querySelector('input') ?? screen.getByTestId('effective-at'), { key: 'Enter' });
    fireEvent.click(screen.getByTestId('price-save'));
    expect(await screen.findByText('Sessions at this station are billed up to 2026-02-01 10:00')).toBeTruthy();
  });

  it('lets the group page pick a group first, in Chinese too', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    mockFetch(() => ok(detail([])));
    const { container } = renderWithProviders(<GroupPriceEditPage />, '/x?stationId=3');
    expect((await screen.findAllByText('分组电价编辑')).length).toBeGreaterThan(0);
    expect(screen.getByText('请选择用户分组')).toBeTruthy();
    expect(await screen.findByText('请选择要在该场站设置电价的用户分组')).toBeTruthy();
    expect(screen.queryByTestId('price-save')).toBeNull();
    expect(priceKeys(container.textContent ?? '')).toEqual([]);
  });

  it('says where user groups are made when the provider has none', async () => {
    mockFetch(() => ok({ ...detail([]), groups: [] }));
    renderWithProviders(<GroupPriceEditPage />, '/x?stationId=3');
    expect(await screen.findByText('This provider has no user groups yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to user groups' })).toBeTruthy();
    expect(screen.queryByTestId('price-save')).toBeNull();
  });

  it('asks for a station when none is given', async () => {
    mockFetch(() => ok(detail([])));
    renderWithProviders(<PriceEditPage />, '/x');
    expect(await screen.findByText('Choose a station from the price list')).toBeTruthy();
  });
});

const row = (v: Partial<PriceRowDto>): PriceRowDto => ({
  stationId: 3,
  stationName: 'Harbour',
  providerId: 1,
  providerName: 'CSMS',
  timeZone: 'Asia/Shanghai',
  groupId: null,
  groupName: null,
  currentId: 11,
  effectiveFrom: '2026-01-01T00:00:00.000Z',
  ...fees,
  slots: painted,
  upcomingFrom: null,
  versionCount: 2,
  ...v,
});

describe('price list', () => {
  it('shows the fees in $/kWh with 4 decimals, the day bar and an unpriced station, in both languages', async () => {
    mockFetch(() =>
      ok({
        list: [
          row({}),
          row({
            stationId: 4,
            stationName: 'Quay',
            currentId: null,
            effectiveFrom: null,
            slots: null,
            versionCount: 0,
            ...Object.fromEntries(Object.keys(fees).map((k) => [k, null])),
          }),
        ],
        total: 2,
      }),
    );
    const { container, unmount } = renderWithProviders(<PricePage />, '/financialManagement/electricityPriceSetting');
    expect(await screen.findByText('Harbour')).toBeTruthy();
    expect(screen.getByText('Elec 1.2345')).toBeTruthy();
    expect(screen.getByText('Service 0.4000')).toBeTruthy();
    expect(screen.getByText('2.50')).toBeTruthy();
    expect(screen.getByText('Not set')).toBeTruthy();
    expect(screen.getAllByTestId('tier-bar')[0]!.getAttribute('aria-label')).toBe('00:00–08:00 Valley, 08:00–12:00 Peak, 12:00–24:00 Flat');
    for (const label of ['Station prices', 'Group prices', 'Sharp ($/kWh)', 'Set price', 'Group price']) {
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    }
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    expect(priceKeys(container.textContent ?? '')).toEqual([]);
    unmount();

    await act(() => i18n.changeLanguage('zh-CN'));
    const zh = renderWithProviders(<PricePage />, '/financialManagement/electricityPriceSetting');
    expect(await screen.findByText('Harbour')).toBeTruthy();
    for (const label of ['场站电价', '分组电价', '尖时（$/kWh）', '设置电价', '未设置', '电 1.2345', '服 0.4000']) {
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    }
    expect(rawKeys(zh.container.textContent ?? '')).toEqual([]);
    expect(priceKeys(zh.container.textContent ?? '')).toEqual([]);
  });
});
