import type { VoucherDto, VoucherTemplateDto } from '@csms/contract';
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
import VoucherPage from './voucher.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const at = '2026-03-01T08:00:00.000Z';
const templates: VoucherTemplateDto[] = [
  {
    id: 1,
    providerId: 1,
    providerName: 'CSMS',
    name: 'Welcome',
    kind: 'amount',
    value: 500,
    minBillCents: 1000,
    stationIds: [],
    validDays: 30,
    validFrom: null,
    validTo: null,
    issuedCount: 12,
    usedCount: 3,
    createTime: at,
    updateTime: at,
  },
  {
    ...({} as VoucherTemplateDto),
    id: 2,
    providerId: 1,
    providerName: 'CSMS',
    name: 'Spring',
    kind: 'percent',
    value: 15,
    minBillCents: 0,
    stationIds: [3],
    validDays: null,
    validFrom: at,
    validTo: '2026-06-01T00:00:00.000Z',
    issuedCount: 0,
    usedCount: 0,
    createTime: at,
    updateTime: at,
  },
];
const voucher = (id: number, status: VoucherDto['status']): VoucherDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  templateId: 1,
  name: 'Welcome',
  kind: 'amount',
  value: 500,
  minBillCents: 1000,
  chargeUserId: 7,
  account: `user${id}`,
  status,
  validFrom: at,
  validUntil: '2026-04-01T00:00:00.000Z',
  issuedByName: 'admin',
  activityId: null,
  chosenFor: null,
  usedTime: status === 'used' ? at : null,
  transactionId: status === 'used' ? 4711 : null,
  discountCents: status === 'used' ? 175 : null,
  revokeReason: null,
  createTime: at,
});
const vouchers = [voucher(1, 'unused'), voucher(2, 'used'), voucher(3, 'expired')];

const bodies: Record<string, unknown[]> = {};
function server() {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    if (p.endsWith('/web/voucherTemplate/list')) return ok({ list: templates, total: templates.length });
    if (p.endsWith('/web/voucherTemplate/options')) return ok(templates.map(({ id, name, providerId }) => ({ id, name, providerId })));
    if (p.endsWith('/web/voucher/list')) return ok({ list: vouchers, total: vouchers.length });
    if (p.endsWith('/web/voucher/issue')) return ok({ issued: 5 });
    if (p.endsWith('/web/voucher/choose')) return ok({ transactionId: 4711, voucherId: 1 });
    if (p.endsWith('/web/voucher/revoke')) return ok({ ...vouchers[0], status: 'revoked' });
    if (p.endsWith('/web/userGroup/options') || p.includes('/userGroup/')) return ok([{ id: 9, name: 'Fleet' }]);
    return ok([]);
  });
}

beforeAll(signInAdmin);
afterEach(async () => {
  signInAdmin();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('voucher screen', () => {
  it('lists templates with amount or percent and vouchers with their status, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Voucher templates', 'Amount off', 'Percent off service fee', '5.00', '15%', 'Unused', 'Used', 'Expired']],
      ['zh-CN', ['优惠券模板', '减免金额', '服务费折扣', '5.00', '15%', '未使用', '已使用', '已过期']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      let view = renderWithProviders(<VoucherPage />, '/operateManagement/voucherManage');
      await screen.findByText('Welcome', { selector: 'td' });
      for (const w of words.slice(0, 5)) expect(screen.getAllByText(w).length, `${lng} ${w}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
      view = renderWithProviders(<VoucherPage />, '/operateManagement/voucherManage?tab=vouchers');
      await screen.findByText('user1', { selector: 'td' });
      for (const w of words.slice(5)) expect(screen.getAllByText(w).length, `${lng} ${w}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('issues a template to a group, and revokes only an unused voucher with a reason', async () => {
    server();
    renderWithProviders(<VoucherPage />, '/operateManagement/voucherManage?tab=vouchers');
    await screen.findByText('user1', { selector: 'td' });
    expect(within(screen.getByText('user2', { selector: 'td' }).closest('tr')!).queryByText('Revoke')).toBeNull();
    fireEvent.click(buttonByText('Add'));
    const dialog = await dialogShown();
    expect(dialog.textContent).toContain('Issue vouchers');
    await chooseByLabel(dialog, 'Voucher template', 'Welcome');
    await chooseByLabel(dialog, 'User group', 'Fleet');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/voucher/issue']).toEqual([{ templateId: 1, groupId: 9 }]));
  });

  it('chooses an unused voucher for a session by its transaction number', async () => {
    server();
    renderWithProviders(<VoucherPage />, '/operateManagement/voucherManage?tab=vouchers');
    await screen.findByText('user1', { selector: 'td' });
    expect(within(screen.getByText('user2', { selector: 'td' }).closest('tr')!).queryByText('Use for a session')).toBeNull();
    fireEvent.click(buttonByText('Use for a session', screen.getByText('user1', { selector: 'td' }).closest('tr')!));
    const dialog = await dialogShown();
    expect(dialog.textContent).toContain('Use the voucher for a session');
    fireEvent.change(within(dialog).getByLabelText('Chosen for transaction'), { target: { value: '4711' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/voucher/choose']).toEqual([{ transactionId: 4711, voucherId: 1 }]));
  });
});
