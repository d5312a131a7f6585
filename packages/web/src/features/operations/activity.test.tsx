import type { ActivityDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buttonByText,
  chooseByLabel,
  dialogShown,
  mockFetch,
  rawKeys,
  renderWithProviders,
  signInAdmin,
} from '../../shared/resource/test-kit';
import ActivityPage from './activity.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const at = '2026-03-01T08:00:00.000Z';
const activity = (id: number, name: string, status: ActivityDto['status'], extra: Partial<ActivityDto> = {}): ActivityDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  name,
  type: 'serviceDiscount',
  status,
  startTime: at,
  endTime: '2026-06-01T00:00:00.000Z',
  stationIds: [],
  groupIds: [],
  discountKind: 'percent',
  discountValue: 20,
  hours: [],
  minRechargeCents: null,
  bonusCents: null,
  templateId: null,
  templateName: null,
  grantTo: null,
  activatedTime: status === 'draft' ? null : at,
  endedTime: status === 'ended' ? at : null,
  sessionCount: 4,
  discountCents: -1234,
  createTime: at,
  ...extra,
});
const rows = [
  activity(1, 'Spring offer', 'active'),
  activity(2, 'Early bird', 'draft', { discountKind: 'perKwh', discountValue: 1000, hours: [7, 8] }),
  activity(3, 'Winter', 'ended'),
  activity(4, 'Top-up week', 'active', {
    type: 'rechargeBonus',
    discountKind: null,
    discountValue: null,
    minRechargeCents: 100_00,
    bonusCents: 10_00,
  }),
  activity(5, 'Welcome pack', 'draft', {
    type: 'voucherGrant',
    discountKind: null,
    discountValue: null,
    templateId: 9,
    templateName: 'Welcome',
    grantTo: 'newUsers',
  }),
];
const bodies: Record<string, unknown[]> = {};
function server() {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    if (p.endsWith('/web/activity/list')) return ok({ list: rows, total: rows.length });
    if (p.endsWith('/web/activity/activate')) return ok({ ...rows[1], status: 'active' });
    if (p.endsWith('/web/activity/end')) return ok({ ...rows[0], status: 'ended' });
    return ok([]);
  });
}
const rowOf = (text: string) => screen.getByText(text, { selector: 'td' }).closest('tr')!;

beforeAll(signInAdmin);
afterEach(async () => {
  signInAdmin();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('activity screen', () => {
  it('lists activities with status, discount and hours in both languages; only drafts are editable', async () => {
    server();
    for (const [lng, words] of [
      [
        'en-US',
        [
          ...['Active', 'Draft', 'Ended', '20% off service fee', '0.1000 off per kWh', '07:00, 08:00', 'All day', '-12.34'],
          ...['Recharge 100.00 or more: 10.00 bonus', '“Welcome” to Users registered while active'],
        ],
      ],
      [
        'zh-CN',
        [
          ...['进行中', '草稿', '已结束', '服务费 20% 折扣', '每度减 0.1000', '07:00, 08:00', '全天', '-12.34'],
          ...['充值满 100.00 送 10.00', '“Welcome”发放给活动期间注册的新用户'],
        ],
      ],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<ActivityPage />, '/operateManagement/activityManage');
      await screen.findByText('Spring offer', { selector: 'td' });
      for (const w of words) expect(screen.getAllByText(w).length, `${lng} ${w}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('activates a draft and ends an active one after asking', async () => {
    server();
    renderWithProviders(<ActivityPage />, '/operateManagement/activityManage');
    await screen.findByText('Spring offer', { selector: 'td' });
    expect(within(rowOf('Spring offer')).queryByText('Activate')).toBeNull();
    expect(within(rowOf('Winter')).queryByText('End')).toBeNull();
    fireEvent.click(buttonByText('Activate', rowOf('Early bird')));
    let dialog = await dialogShown();
    expect(dialog.textContent).toContain('Activate “Early bird”?');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/activity/activate']).toEqual([{ id: 2 }]));
    await waitFor(() => expect(document.querySelector('.ant-modal[role=dialog]')).toBeNull());
    fireEvent.click(buttonByText('End', rowOf('Spring offer')));
    dialog = await dialogShown();
    expect(dialog.textContent).toContain('End “Spring offer” now?');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/activity/end']).toEqual([{ id: 1 }]));
  });

  it('shows the chosen type’s terms in the form: a discount, a recharge bonus, or a voucher grant', async () => {
    server();
    renderWithProviders(<ActivityPage />, '/operateManagement/activityManage');
    await screen.findByText('Spring offer', { selector: 'td' });
    fireEvent.click(buttonByText('Add'));
    const dialog = await dialogShown();
    const labels = () => [...dialog.querySelectorAll('label')].map((l) => l.textContent);
    expect(labels()).toContain('Discount type');
    expect(labels()).not.toContain('Bonus');
    await chooseByLabel(dialog, 'Activity type', 'Recharge bonus');
    await waitFor(() => expect(labels()).toEqual(expect.arrayContaining(['Recharge of at least', 'Bonus'])));
    expect(labels()).not.toContain('Discount type');
    expect(labels()).not.toContain('Stations');
    await chooseByLabel(dialog, 'Activity type', 'Voucher grant');
    await waitFor(() => expect(labels()).toEqual(expect.arrayContaining(['Voucher template to grant', 'Granted to'])));
    expect(labels()).not.toContain('Bonus');
  });
});
