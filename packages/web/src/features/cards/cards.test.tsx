import type { CardDto, CarImportReport, ChargeUserDto, LedgerRow, UserGroupDto } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as ReaderClient from '../../shared/cardReader/client';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import CardPage from './card.page';
import { reportCsv } from './car-import';
import { CarImportDialog } from './car-import-dialog';
import { MembersDialog } from './members-dialog';
import NewMembersWidget from './new-members-widget';

// The card on the reader, as the companion would report it.
vi.mock('../../shared/cardReader/client', async (original) => ({
  ...(await original<typeof ReaderClient>()),
  readCardUid: vi.fn(async () => '04AABBCCDD'),
}));

const card = (v: Partial<CardDto>): CardDto => ({
  id: 1,
  cardNumber: '88001000',
  physicalId: '04A1B2C3D0',
  providerId: 1,
  providerName: 'CSMS',
  chargeUserId: 3,
  account: 'alice',
  phone: '13900000000',
  email: 'alice@example.test',
  balanceCents: 6500,
  expireTime: '2030-01-01T00:00:00.000Z',
  state: 'valid',
  expiredBy: null,
  masterPass: false,
  createTime: '2025-01-02T03:04:05Z',
  ...v,
});
const ledgerRow: LedgerRow = {
  id: 9,
  tradeType: 'recharge',
  accountKind: 'card',
  cardId: 1,
  cardNumber: '88001000',
  chargeUserId: 3,
  account: 'alice',
  amountCents: 5000,
  balanceBeforeCents: 1500,
  balanceAfterCents: 6500,
  operatorName: 'admin',
  source: 'console',
  thirdPartyTxnId: 'wx-1',
  transactionRef: null,
  discountCents: null,
  providerId: 1,
  providerName: 'CSMS',
  transferId: null,
  invoiceId: null,
  createTime: '2025-01-02T03:04:05Z',
};
const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const dict = (values: string[]) => values.map((v) => ({ dictLabel: `label-${v}`, dictValue: v, listClass: 'default', cssClass: '' }));
const bodies: Record<string, unknown[]> = {};

/** The server as the card screen sees it; `extra` answers first. */
function server(extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p.endsWith('/web/card/list'))
      return ok({ list: [card({}), card({ id: 2, cardNumber: '88001002', state: 'lost', balanceCents: 0 })], total: 2 });
    if (p.endsWith('/web/card/get')) return ok({ ...card({}), ledger: [ledgerRow] });
    if (p.endsWith('/getAllProviders')) return ok([{ id: 1, providerName: 'CSMS', providerType: 'super', parentId: null }]);
    if (p.endsWith('/web/chargeUser/options')) return ok([{ id: 3, account: 'alice', phone: null, providerId: 1 }]);
    if (p.includes('/dict/data/type/cardState')) return ok(dict(['valid', 'lost', 'expired']));
    if (p.includes('/dict/data/type/')) return ok(dict(['recharge', 'refund']));
    return { code: 404, msg: 'x', data: null };
  });
}

const button = (label: string) =>
  screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''))!;

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('formats', () => {
  it('writes the import report as CSV with a BOM, quoting where needed', () => {
    const report: CarImportReport = {
      total: 3,
      imported: 1,
      rejected: [
        { row: 2, plate: '沪A1', field: 'vin', reason: 'bad, "very" bad' },
        { row: 4, plate: '=1+1', field: 'plate', reason: 'x' },
      ],
    };
    const csv = reportCsv(report, (k) => `L:${k}`, '3 rows');
    expect(csv.startsWith('\uFEFF3 rows\r\n')).toBe(true);
    expect(csv.split('\r\n').slice(1, 4)).toEqual([
      'L:row,L:plate,L:field,L:reason',
      '2,沪A1,L:vin,"bad, ""very"" bad"',
      "4,'=1+1,L:plate,x",
    ]);
  });
});

describe('cards screen', () => {
  it('lists cards with balance and state in English and Chinese, with no raw keys', async () => {
    server();
    let view = renderWithProviders(<CardPage />, '/userManagement/cardManage');
    await screen.findByText('88001002');
    for (const label of ['Card number', 'Physical card ID', 'Balance', 'Card state', 'Valid until', '65.00', 'label-lost', 'Details']) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
    cleanup();
    await act(() => i18n.changeLanguage('zh-CN'));
    view = renderWithProviders(<CardPage />, '/userManagement/cardManage');
    await screen.findByText('88001002');
    for (const label of ['卡号', '物理卡号', '余额', '卡状态', '有效期至', '详情', '修改']) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
  });

  it('offers recharge and loss only on a valid card, cancel loss only on a lost one', async () => {
    server();
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    const lost = (await screen.findByText('88001002')).closest('tr')!;
    const valid = screen.getByText('88001000').closest('tr')!;
    // The lost card: detail, edit, cancel loss (no balance to refund, nothing to recharge).
    expect(within(lost).getByText('Cancel loss')).toBeTruthy();
    expect(within(lost).queryByText('Recharge')).toBeNull();
    fireEvent.click(within(valid).getByText('More'));
    for (const label of ['Recharge', 'Refund', 'Report lost', 'Mark expired'])
      expect((await screen.findAllByText(label)).length).toBeGreaterThan(0);
    expect(screen.queryAllByText('Cancel loss')).toHaveLength(1);
  });

  it('fills the physical id from the card reader in the issue dialog', async () => {
    server();
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    await screen.findByText('88001000');
    fireEvent.click(button('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    expect(within(dialog).getByText('Issue card')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('read-card-button'));
    await waitFor(() => expect((within(dialog).getByTestId('physical-id-input') as HTMLInputElement).value).toBe('04AABBCCDD'));
    // Submitting the rest empty: the contract's messages on the fields.
    fireEvent.click(button('OK'));
    expect(await within(dialog).findByText('Card number is required')).toBeTruthy();
    expect(await within(dialog).findByText('Prepaid amount is required')).toBeTruthy();
    expect(bodies['/prod-api/web/card/add']).toBeUndefined();
  });

  it('takes an OCPP idTag such as a contract id as the physical id, and names the field for one that is not', async () => {
    server();
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    await screen.findByText('88001000');
    fireEvent.click(button('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    const input = within(dialog).getByTestId('physical-id-input');
    const refusal = 'Physical card ID must be 1 to 20 printable ASCII characters (letters, digits, spaces and symbols such as - _ .)';
    fireEvent.change(input, { target: { value: '卡-0001' } });
    fireEvent.click(button('OK'));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    // Typed again, the field checks itself: a contract id is fine as typed.
    fireEvent.change(input, { target: { value: 'NL-TNM-C12345678-X' } });
    await waitFor(() => expect(within(dialog).queryByText(refusal)).toBeNull());
    expect(within(dialog).queryByText('Physical card ID is not in the right format')).toBeNull();
    expect((input as HTMLInputElement).value).toBe('NL-TNM-C12345678-X');
    expect(bodies['/prod-api/web/card/add']).toBeUndefined();
  }, 300_000);

  it('makes a card a master pass in the edit dialog, naming the group the chargers must be given', async () => {
    server((url) => {
      if (url.pathname.endsWith('/configKey/ocpp.masterPassGroupId')) return ok('POLICE');
      if (url.pathname.endsWith('/web/card/edit')) return ok(card({ masterPass: true }));
      return undefined;
    });
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    const row = (await screen.findByText('88001000')).closest('tr')!;
    fireEvent.click(within(row).getByText('Edit'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    expect((await within(dialog).findByTestId('card-master-pass-hint')).textContent).toContain('AuthCtrlr.MasterPassGroupId is "POLICE"');
    fireEvent.click(within(dialog).getByTestId('card-master-pass'));
    fireEvent.click(button('OK'));
    await waitFor(() => expect(bodies['/prod-api/web/card/edit']).toEqual([expect.objectContaining({ id: 1, masterPass: true })]));
  });

  it('finds the card on the reader by its physical id, and says when there is none', async () => {
    const asked: string[] = [];
    server((url) => {
      if (!url.pathname.endsWith('/web/card/list')) return undefined;
      const uid = url.searchParams.get('physicalId');
      if (uid) asked.push(uid);
      return uid ? ok({ list: [], total: 0 }) : undefined;
    });
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    await screen.findByText('88001000');
    fireEvent.click(screen.getByTestId('find-by-reader'));
    expect(await screen.findByText('No card has the physical ID 04AABBCCDD; you can issue one with it')).toBeTruthy();
    expect(asked).toContain('04AABBCCDD');
    // The search form shows what was read, and the list is that search.
    await waitFor(() => expect(screen.queryByText('88001000')).toBeNull());
    expect((screen.getByDisplayValue('04AABBCCDD') as HTMLInputElement).value).toBe('04AABBCCDD');
  });

  it('refunds a typed amount in cents and shows the server refusal on the field', async () => {
    server((url) =>
      url.pathname.endsWith('/web/card/refund')
        ? { code: 409, msg: 'The refund cannot exceed the card balance of 65.00', data: { field: 'amountCents' } }
        : undefined,
    );
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    const valid = (await screen.findByText('88001000')).closest('tr')!;
    fireEvent.click(within(valid).getByText('More'));
    fireEvent.click(await screen.findByText('Refund'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Enter the refund as a positive amount; it is recorded as negative. At most 65.00')).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('Enter Amount'), { target: { value: '70.5' } });
    fireEvent.click(button('OK'));
    expect(await within(dialog).findByText('The refund cannot exceed the card balance of 65.00')).toBeTruthy();
    expect(bodies['/prod-api/web/card/refund']).toEqual([
      { id: 1, amountCents: 7050, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
    // OK again unchanged: the same request, which the server makes once; another amount is another request.
    fireEvent.click(button('OK'));
    await waitFor(() => expect(bodies['/prod-api/web/card/refund']).toHaveLength(2));
    fireEvent.change(within(dialog).getByPlaceholderText('Enter Amount'), { target: { value: '10' } });
    fireEvent.click(button('OK'));
    await waitFor(() => expect(bodies['/prod-api/web/card/refund']).toHaveLength(3));
    const [first, retry, other] = bodies['/prod-api/web/card/refund']! as { requestId: string }[];
    expect(retry!.requestId).toBe(first!.requestId);
    expect(other!.requestId).not.toBe(first!.requestId);
  });

  it('shows the balance history in the detail', async () => {
    server();
    renderWithProviders(<CardPage />, '/userManagement/cardManage');
    const valid = (await screen.findByText('88001000')).closest('tr')!;
    fireEvent.click(within(valid).getByText('Details'));
    expect(await screen.findByText('wx-1')).toBeTruthy();
    for (const label of ['Balance history', 'Balance before', 'Balance after', '15.00', '50.00']) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
  });
});

describe('group members', () => {
  const group: UserGroupDto = {
    id: 4,
    name: 'Taxi fleet',
    description: null,
    providerId: 1,
    providerName: 'CSMS',
    memberCount: 1,
    monthlyLimitWh: 300_000,
    createTime: '2025-01-02T03:04:05Z',
  };
  const member = { id: 3, account: 'alice', phone: '139', userType: 'card', status: 1, cardBalanceCents: 6500 } as ChargeUserDto;

  it('lists the members and takes one out after the confirm', async () => {
    server((url) => {
      if (url.pathname.endsWith('/web/userGroup/members')) return ok({ list: [member], total: 1 });
      if (url.pathname.endsWith('/web/userGroup/removeMembers')) return ok({ ...group, memberCount: 0 });
      return undefined;
    });
    renderWithProviders(<MembersDialog group={group} onClose={() => {}} />);
    expect(await screen.findByText('Members of Taxi fleet')).toBeTruthy();
    await screen.findByText('alice');
    expect(screen.getByText('65.00')).toBeTruthy();
    fireEvent.click(screen.getByText('Remove from group'));
    expect(await screen.findByText('Remove "alice" from the group "Taxi fleet"?')).toBeTruthy();
    fireEvent.click(button('OK'));
    await waitFor(() => expect(bodies['/prod-api/web/userGroup/removeMembers']).toEqual([{ id: 4, chargeUserIds: [3] }]));
  });
});

describe('car import', () => {
  const report: CarImportReport = {
    total: 500,
    imported: 498,
    rejected: [
      { row: 3, plate: '沪A1', field: 'providerName', reason: 'Provider "X" does not exist or is not yours' },
      { row: 9, plate: '沪A2', field: 'vin', reason: 'The VIN must be 17 letters or digits (no I, O or Q)' },
    ],
  };

  it('asks for the file first, uploads it, imports it and shows the report', async () => {
    server((url) => {
      if (url.pathname.endsWith('/common/upload'))
        return { code: 200, msg: 'ok', fileName: '2025/01/01/x.xlsx', url: '/x', originalName: 'cars.xlsx' };
      if (url.pathname.endsWith('/web/car/import')) return ok(report);
      return undefined;
    });
    const view = renderWithProviders(<CarImportDialog open onClose={() => {}} />);
    fireEvent.click(await screen.findByTestId('import-start'));
    expect(await screen.findByText('Upload the template file first')).toBeTruthy();
    const input = view.baseElement.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File([new Uint8Array([1, 2, 3])], 'cars.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(screen.queryByText('Upload the template file first')).toBeNull());
    await waitFor(() => expect(view.baseElement.querySelector('.ant-upload-list-item-done')).not.toBeNull());
    fireEvent.click(screen.getByTestId('import-start'));
    expect(await screen.findByText('500 rows: 498 imported, 2 rejected')).toBeTruthy();
    expect(bodies['/prod-api/web/car/import']).toEqual([{ fileName: '2025/01/01/x.xlsx', importId: expect.any(String) }]);
    for (const label of [
      'Rejected rows',
      'Provider name',
      'VIN',
      'Provider "X" does not exist or is not yours',
      'Download the import report',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(rawKeys(view.baseElement.textContent ?? '')).toEqual([]);
  });

  it('shows a file-level refusal and imports nothing', async () => {
    server((url) => {
      if (url.pathname.endsWith('/common/upload')) return { code: 200, msg: 'ok', fileName: 'f.xlsx', url: '/f', originalName: 'f.xlsx' };
      if (url.pathname.endsWith('/web/car/import')) return { code: 400, msg: 'The template has no data rows', data: { field: 'fileName' } };
      return undefined;
    });
    const view = renderWithProviders(<CarImportDialog open onClose={() => {}} />);
    const input = (await waitFor(() => view.baseElement.querySelector('input[type=file]'))) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([1])], 'f.xlsx')] } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-upload-list-item-done')).not.toBeNull());
    fireEvent.click(screen.getByTestId('import-start'));
    expect(await screen.findByText('The template has no data rows')).toBeTruthy();
    expect(screen.queryByTestId('import-summary')).toBeNull();
  });
});

describe('new members widget', () => {
  it("shows today's and this month's count for the browser's time zone", async () => {
    const fetch = mockFetch((url) =>
      url.pathname.endsWith('/newMembers') ? ok({ today: 3, month: 17 }) : { code: 404, msg: 'x', data: null },
    );
    renderWithProviders(<NewMembersWidget />);
    expect(await screen.findByText('17')).toBeTruthy();
    expect(screen.getByText('3')).toBeTruthy();
    expect(screen.getByText('New members')).toBeTruthy();
    const url = new URL(String(fetch.mock.calls[0]![0]), 'http://localhost');
    expect(url.searchParams.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
