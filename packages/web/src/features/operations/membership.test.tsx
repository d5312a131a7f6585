import type { MemberDto, MemberLevelDto } from '@csms/contract';
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
import MembershipPage from './membership.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const at = '2026-03-01T08:00:00.000Z';
const level = (id: number, name: string, extra: Partial<MemberLevelDto> = {}): MemberLevelDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  name,
  sortOrder: id,
  basis: 'spend',
  threshold: 150_000,
  discountPercent: 10,
  validityDays: 365,
  memberCount: 3,
  createTime: at,
  updateTime: at,
  ...extra,
});
const levels = [level(1, 'Silver'), level(2, 'Gold', { basis: 'energy', threshold: 500_000, discountPercent: 20 })];
const members: MemberDto[] = [
  {
    id: 7,
    account: 'alice',
    phone: null,
    providerId: 1,
    providerName: 'CSMS',
    levelId: 2,
    levelName: 'Gold',
    computedLevelName: 'Silver',
    validUntil: '2027-03-01T00:00:00.000Z',
    spendCents: 123_456,
    energyWh: 456_789,
    computeTime: at,
    overrideLevelName: 'Gold',
    overrideReason: 'Fleet contract',
    overrideUntil: '2026-12-31T16:00:00.000Z',
  },
];

const bodies: Record<string, unknown[]> = {};
function server() {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    if (p.endsWith('/getAllProviders')) return ok([{ id: 1, providerName: 'CSMS', providerType: 'super', parentId: null }]);
    if (p.endsWith('/web/memberLevel/list')) return ok({ list: levels, total: levels.length });
    if (p.endsWith('/web/memberLevel/options')) return ok(levels.map(({ id, name, sortOrder }) => ({ id, name, sortOrder })));
    if (p.endsWith('/web/memberLevel/add')) return ok(level(3, 'Platinum'));
    if (p.endsWith('/web/member/list')) return ok({ list: members, total: members.length });
    if (p.endsWith('/web/member/clearOverride')) return ok({ ...members[0], overrideLevelName: null });
    if (p.endsWith('/web/member/recompute')) return ok({ users: 42 });
    return ok([]);
  });
}

beforeAll(signInAdmin);
afterEach(async () => {
  signInAdmin();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('membership screen', () => {
  it('lists the levels with their threshold in currency or kWh, and the members with their computed and overridden level, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Member levels', 'Members', 'Spend', 'Energy', '1500.00', '500.000 kWh']],
      ['zh-CN', ['会员等级', '会员', '消费金额', '充电电量', '1500.00 元', '500.000 kWh']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      let view = renderWithProviders(<MembershipPage />, '/operateManagement/membershipManage');
      await screen.findByText('Silver', { selector: 'td' });
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();

      view = renderWithProviders(<MembershipPage />, '/operateManagement/membershipManage?tab=members');
      await screen.findByText('alice', { selector: 'td' });
      expect(screen.getByText('Fleet contract')).toBeTruthy();
      expect(screen.getByText('1234.56')).toBeTruthy();
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('adds a level with its threshold typed in currency and sent in cents', async () => {
    server();
    renderWithProviders(<MembershipPage />, '/operateManagement/membershipManage');
    await screen.findByText('Silver', { selector: 'td' });
    fireEvent.click(buttonByText('Add'));
    const dialog = await dialogShown();
    await chooseByLabel(dialog, 'Provider', 'CSMS');
    fireEvent.change(within(dialog).getByLabelText('Level name'), { target: { value: 'Platinum' } });
    fireEvent.change(within(dialog).getByLabelText('Level order'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Threshold'), { target: { value: '2000.5' } });
    fireEvent.change(within(dialog).getByLabelText('Service fee discount (%)'), { target: { value: '30' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/memberLevel/add']?.[0]).toMatchObject({
        name: 'Platinum',
        sortOrder: 3,
        basis: 'spend',
        threshold: 200_050,
        discountPercent: 30,
        validityDays: 365,
        providerId: 1,
      }),
    );
  });

  it('ends an override after asking, and recomputes the levels on demand', async () => {
    server();
    renderWithProviders(<MembershipPage />, '/operateManagement/membershipManage?tab=members');
    await screen.findByText('alice', { selector: 'td' });
    fireEvent.click(buttonByText('End override'));
    const dialog = await dialogShown();
    expect(dialog.textContent).toContain('End the level override of “alice”?');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/member/clearOverride']).toEqual([{ id: 7 }]));
    fireEvent.click(screen.getByTestId('member-recompute'));
    expect(await screen.findByText('Levels of 42 users recomputed')).toBeTruthy();
  });
});
