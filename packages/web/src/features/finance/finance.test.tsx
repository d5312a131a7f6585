import { type InvoiceDto, type TransferDto, type TransferState, corporateTransferApi } from '@csms/contract';
import { Form } from 'antd';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buttonByText, dialogShown, mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import CorporateTransferPage from './corporate-transfer.page';
import { AllocationsField } from './finance-inputs';
import { IssueDialog } from './invoice-issue-dialog';
import InvoicePage from './invoice.page';
import TransferRecordPage from './transfer-record.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const at = '2026-11-20T08:00:00.000Z';

const transfer = (id: number, state: TransferState): TransferDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  payerName: `Payer ${id}`,
  payerAccount: '6222000011112222',
  payerBank: 'Bank of Shanghai',
  amountCents: 100_000,
  transferDate: '2026-11-20',
  bankReference: `REF-${id}`,
  receiptFile: id === 2 ? '2026/11/receipt.pdf' : null,
  receiptUrl: id === 2 ? '/prod-api/common/download/resource?resource=2026%2F11%2Freceipt.pdf' : null,
  remark: null,
  state,
  rejectReason: null,
  allocations: [
    {
      id: 1,
      targetKind: 'mobile',
      chargeUserId: 7,
      account: 'fleet-a',
      cardId: null,
      cardNumber: null,
      amountCents: 100_000,
      ledgerId: state === 'confirmed' ? 91 : null,
      balanceBeforeCents: state === 'confirmed' ? 0 : null,
      balanceAfterCents: state === 'confirmed' ? 100_000 : null,
    },
  ],
  summary: 'fleet-a 1,000.00',
  registrarName: 'Ann',
  deciderName: state === 'registered' ? null : 'Bob',
  decideTime: state === 'registered' ? null : at,
  createTime: at,
});
const transfers = [transfer(1, 'registered'), transfer(2, 'confirmed')];

const inv: InvoiceDto = {
  id: 5,
  providerId: 1,
  providerName: 'CSMS',
  chargeUserId: 7,
  account: 'fleet-a',
  amountCents: 5_555,
  items: [{ kind: 'charge', refId: 31, amountCents: 5_555, time: at }],
  principalType: 'company',
  name: 'Fleet Ltd',
  taxNumber: null,
  recipientName: 'Wang Fang',
  mobile: '13900001111',
  email: 'wang@fleet.test',
  address: null,
  notifyType: 'mail',
  remark: null,
  status: 'applied',
  rejectReason: null,
  fileName: null,
  fileUrl: null,
  applyTime: at,
  noticeTime: null,
  finishTime: null,
  operatorName: null,
};

const bodies: Record<string, unknown[]> = {};
function server() {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    if (p.endsWith('/web/corporateTransfer/list') || p.endsWith('/web/transferRecord/list')) return ok({ list: transfers, total: 2 });
    if (p.endsWith('/web/corporateTransfer/confirm')) return ok(transfer(1, 'confirmed'));
    if (p.endsWith('/web/invoice/list')) return ok({ list: [inv], total: 1 });
    if (p.endsWith('/web/common/dayZone')) return ok({ timeZone: 'Asia/Shanghai', stationName: null });
    return ok([]);
  });
}
const rowOf = (text: string) => screen.getByText(text, { selector: 'td' }).closest('tr')!;

beforeAll(signInAdmin);
afterEach(async () => {
  signInAdmin();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('finance screens', () => {
  it('lists transfers with their state, in both languages, and confirms a registered one only', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Awaiting confirmation', 'Credited', 'Confirm', 'Bank reference']],
      ['zh-CN', ['待审核', '已入账', '确认入账', '银行流水号']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<CorporateTransferPage />, '/financialManagement/corporateTransfer');
      await screen.findByText('REF-1', { selector: 'td' });
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
    await act(() => i18n.changeLanguage('en-US'));
    renderWithProviders(<CorporateTransferPage />, '/financialManagement/corporateTransfer');
    await screen.findByText('REF-1', { selector: 'td' });
    expect(within(rowOf('REF-2')).queryByText('Confirm')).toBeNull();
    fireEvent.click(within(rowOf('REF-1')).getByText('Confirm'));
    const dialog = await dialogShown();
    expect(dialog.textContent).toContain('REF-1');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/corporateTransfer/confirm']).toEqual([{ id: 1 }]));
  });

  it('registers with a receipt that may be a scanned PDF or a photo', async () => {
    server();
    renderWithProviders(<CorporateTransferPage />, '/financialManagement/corporateTransfer');
    await screen.findByText('REF-1', { selector: 'td' });
    fireEvent.click(buttonByText('Add'));
    const dialog = await dialogShown();
    const receipt = dialog.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(receipt.getAttribute('accept')).toBe('.pdf,.png,.jpg,.jpeg');
    expect(dialog.textContent).toContain('pdf/png/jpg/jpeg');
  });

  it('splits a transfer over a charge user and a card of the provider, each line choosing its kind', async () => {
    const asked: string[] = [];
    mockFetch((url) => {
      if (url.pathname.endsWith('/web/card/options')) {
        asked.push(url.search);
        return ok([{ id: 9, cardNumber: 'C-0009', account: 'fleet-a', state: 'valid', providerId: 3 }]);
      }
      if (url.pathname.endsWith('/web/chargeUser/options')) return ok([{ id: 7, account: 'fleet-b', phone: null, providerId: 3 }]);
      return ok([]);
    });
    let form: ReturnType<typeof Form.useForm>[0] | undefined;
    function Harness() {
      const [f] = Form.useForm();
      form = f;
      return (
        <Form form={f} initialValues={{ providerId: 3, amountCents: 5_000, allocations: [{}, {}] }}>
          <Form.Item name="providerId" hidden>
            <input />
          </Form.Item>
          <Form.Item name="amountCents" hidden>
            <input />
          </Form.Item>
          <Form.Item name="allocations">
            <AllocationsField form={f} mode="create" t={i18n.t} />
          </Form.Item>
        </Form>
      );
    }
    renderWithProviders(<Harness />);
    const line = (i: number) => screen.getByTestId(`allocation-${i}`);
    const choose = async (i: number, typed: string, option: string, searched?: () => void) => {
      const input = line(i).querySelector<HTMLInputElement>('.ant-select input')!;
      fireEvent.mouseDown(input);
      fireEvent.change(input, { target: { value: typed } });
      if (searched) await waitFor(searched);
      const found = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
      fireEvent.click(found.at(-1)!);
    };
    // Line 0: a charge user's balance (the default); line 1: a card, searched by its number.
    await waitFor(() => expect(line(0).textContent).toContain('Account balance'));
    await choose(0, 'fleet', 'fleet-b');
    fireEvent.click(within(line(1)).getByText('Card'));
    await waitFor(() => expect(line(1).querySelector('.ant-select')!.textContent).toContain('card number'));
    // The server searches the provider's cards by the typed number.
    await choose(1, '0009', 'C-0009 (fleet-a)', () => expect(asked).toContain('?keyword=0009&providerId=3'));
    act(() => {
      form!.setFieldValue('allocations', [
        { ...form!.getFieldValue('allocations')[0], amountCents: 2_000 },
        { ...form!.getFieldValue('allocations')[1], amountCents: 3_000 },
      ]);
    });
    await waitFor(() => expect(screen.getByTestId('allocation-sum').textContent).toBe('Allocated 50.00 of 50.00'));
    const allocations = form!.getFieldValue('allocations') as unknown[];
    expect(allocations).toEqual([
      { kind: 'mobile', chargeUserId: 7, amountCents: 2_000 },
      { kind: 'card', cardId: 9, amountCents: 3_000 },
    ]);
    // What is sent: the kind steers the form only.
    const body = corporateTransferApi.add.body!.parse({
      providerId: 3,
      payerName: 'P',
      payerAccount: 'A',
      payerBank: 'B',
      amountCents: 5_000,
      transferDate: '2026-11-20',
      bankReference: 'REF-9',
      allocations,
    });
    expect(body.allocations).toEqual([
      { chargeUserId: 7, amountCents: 2_000 },
      { cardId: 9, amountCents: 3_000 },
    ]);
    // Back to a charge user: the card chosen before does not stay.
    fireEvent.click(within(line(1)).getByText('Account balance'));
    await waitFor(() => expect((form!.getFieldValue('allocations') as unknown[])[1]).toEqual({ kind: 'mobile', amountCents: 3_000 }));
  });

  it('shows a transfer record with its allocations and ledger rows', async () => {
    server();
    const view = renderWithProviders(<TransferRecordPage />, '/financialManagement/transferRecord?id=2');
    await screen.findByText('REF-2', { selector: 'td' });
    fireEvent.click(rowOf('REF-2').querySelector('.ant-table-row-expand-icon')!);
    const table = await screen.findAllByTestId('allocations-table');
    expect(table.at(-1)!.textContent).toContain('1000.00');
    expect(table.at(-1)!.textContent).toContain('91');
    // The stored receipt (a scanned PDF) opens from its link.
    const link = within(rowOf('REF-2')).getByTestId('receipt-link');
    expect(link.textContent).toContain('Open');
    expect(link.getAttribute('href')).toBe('/prod-api/common/download/resource?resource=2026%2F11%2Freceipt.pdf');
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
  });

  it('lists invoices and opens the issue dialog for an applied one, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Applied', 'Issue', 'Company', 'Mail']],
      ['zh-CN', ['已申请', '开具', '单位', '邮件']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<InvoicePage />, '/financialManagement/invoiceRecordManage');
      await screen.findByText('fleet-a', { selector: 'td' });
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
    await act(() => i18n.changeLanguage('en-US'));
    renderWithProviders(<InvoicePage />, '/financialManagement/invoiceRecordManage');
    await screen.findByText('fleet-a', { selector: 'td' });
    fireEvent.click(within(rowOf('fleet-a')).getByText('Issue'));
    const dialog = await dialogShown();
    expect(dialog.textContent).toContain('wang@fleet.test');
    expect(within(dialog).getByTestId('invoice-items').textContent).toContain('55.55');
  });

  it('tells the operator that an SMS invoice is texted to its mobile, in both languages', async () => {
    server();
    const sms = { ...inv, notifyType: 'sms' as const };
    for (const [lng, word] of [
      ['en-US', 'notified by SMS to 13900001111'],
      ['zh-CN', '通过短信通知用户（发送至 13900001111）'],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<IssueDialog row={sms} onClose={() => {}} />);
      const dialog = await dialogShown();
      expect(dialog.textContent).toContain(word);
      expect(dialog.textContent).not.toContain('wang@fleet.test');
      view.unmount();
    }
  });
});
