import { applyReferenceOf, type ApplyDto, type ApplyStatus } from '@csms/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buttonByText, dialogShown, mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import ApplyFormPage from './apply-form.page';
import ApplyRecordPage from './apply-record.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const at = '2026-03-01T08:00:00.000Z';

const application = (id: number, status: ApplyStatus): ApplyDto => ({
  id,
  referenceNo: applyReferenceOf(id),
  companyName: `Volt ${id}`,
  contact: 'Li Lei',
  phone: '13900000001',
  email: `volt${id}@applicant.test`,
  licenseNumber: '91310000MA1K000001',
  licenseImageUrl: '/prod-api/common/download/resource?resource=x.png',
  address: '1 Century Avenue',
  expectedPoints: 20,
  expectedStations: 2,
  remark: null,
  status,
  ip: '127.0.0.1',
  reviewerName: status === 'pending' ? null : 'admin',
  rejectReason: status === 'rejected' ? 'Licence expired' : null,
  providerId: status === 'approved' ? 9 : null,
  providerName: status === 'approved' ? `Volt ${id}` : null,
  username: status === 'approved' ? 'volt' : null,
  validity: status === 'approved' ? 1 : null,
  authCount: status === 'approved' ? 20 : null,
  expirationTime: null,
  reviewTime: status === 'pending' ? null : at,
  createTime: at,
});
const applications = [application(1, 'pending'), application(2, 'approved'), application(3, 'rejected')];

const bodies: Record<string, unknown[]> = {};
function server() {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    if (p.endsWith('/web/apply/list')) return ok({ list: applications, total: applications.length });
    if (p.endsWith('/web/apply/formInfo')) return ok({ platformName: 'CSMS', privacyAgreementKey: 'a'.repeat(32), captchaEnabled: false });
    if (p.endsWith('/captchaImage')) return { code: 200, msg: 'ok', captchaEnabled: false };
    if (p.endsWith('/web/apply/approve')) return ok({ application: { ...applications[0], status: 'approved' }, mailed: true });
    if (p.endsWith('/web/common/dayZone')) return ok({ timeZone: 'Asia/Shanghai', stationId: null, stationName: null });
    return ok([]);
  });
}

const rowOf = (text: string) => screen.getByText(text, { selector: 'td' }).closest('tr')!;
const rowButtons = (text: string) =>
  [...rowOf(text).querySelectorAll('button')].map((b) => b.textContent?.replace(/\s/g, '')).filter((s): s is string => !!s);

beforeAll(signInAdmin);
afterEach(async () => {
  await act(() => i18n.changeLanguage('en-US'));
});

describe('applicant management', () => {
  it('lists the applications with their status in both languages, review only for pending ones', async () => {
    server();
    for (const [lng, words, buttons] of [
      ['en-US', ['Pending review', 'Approved', 'Rejected', 'Company name'], ['Details', 'Approve', 'Reject']],
      ['zh-CN', ['待审核', '已通过', '已驳回', '公司名称'], ['详情', '通过', '驳回']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<ApplyRecordPage />, '/apply/applyRecord');
      await screen.findByText(applyReferenceOf(1), { selector: 'td' });
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rowButtons(applyReferenceOf(1))).toEqual(buttons);
      expect(rowButtons(applyReferenceOf(2))).toEqual([buttons[0]]);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('approves with the validity, the authorised point count and the administrator account', async () => {
    server();
    const view = renderWithProviders(<ApplyRecordPage />, '/apply/applyRecord');
    await screen.findByText(applyReferenceOf(1), { selector: 'td' });
    fireEvent.click(buttonByText('Approve', rowOf(applyReferenceOf(1))));
    const dialog = await dialogShown();
    expect(dialog.textContent).toContain('Approve application AP00000001');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/apply/approve']).toEqual([{ id: 1, validity: 1, authCount: 20, username: 'volt1' }]));
    view.unmount();
  });
});

describe('the public application form', () => {
  it('renders every field in both languages, with the privacy agreement of the platform', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Apply to join as a charging operator', 'Business licence image', 'privacy agreement', 'Submit application']],
      ['zh-CN', ['运营商入驻申请', '营业执照图片', '《隐私协议》', '提交申请']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<ApplyFormPage />, '/applyForm');
      await screen.findByTestId('apply-submit');
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(screen.getByText(words[2]).closest('a')?.getAttribute('href')).toBe(`/privacyAgreement/${'a'.repeat(32)}`);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      // Submitting empty names the required fields and sends nothing.
      fireEvent.click(screen.getByTestId('apply-submit'));
      await waitFor(() => expect(document.querySelectorAll('.ant-form-item-explain-error').length).toBeGreaterThan(3));
      expect(bodies['/prod-api/web/apply/submit']).toBeUndefined();
      view.unmount();
    }
  });

  it('says why a captcha was refused, keeps the field, and draws one on the next click', async () => {
    let refuse = true;
    mockFetch((url) => {
      const p = url.pathname;
      if (p.endsWith('/web/apply/formInfo')) return ok({ platformName: 'CSMS', privacyAgreementKey: 'a'.repeat(32), captchaEnabled: true });
      if (p.endsWith('/captchaImage'))
        return refuse
          ? { code: 409, msg: 'Too many captcha requests from this address, please try again in 1 minutes' }
          : { code: 200, msg: 'ok', captchaEnabled: true, uuid: 'u1', img: 'iVBORw0KGgo' };
      return ok([]);
    });
    const view = renderWithProviders(<ApplyFormPage />, '/applyForm');
    expect(await screen.findByText('Too many captcha requests from this address, please try again in 1 minutes')).toBeTruthy();
    expect(screen.getByTestId('apply-code')).toBeTruthy();
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Hard to read? Click to refresh' }));
    expect((await screen.findByTestId('apply-captcha')).getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo');
    view.unmount();
  });
});
