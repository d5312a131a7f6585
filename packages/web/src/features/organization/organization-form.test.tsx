import { organizationCreate, validate } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import OrganizationPage from './organization.page';
import { mockFetch, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';

const row = {
  id: 7,
  orgName: 'North',
  description: null,
  providerId: 1,
  providerName: 'P',
  roleCount: 0,
  createTime: '2025-01-02T03:04:05Z',
};
const listReply = { code: 200, msg: 'ok', data: { list: [row], total: 1 } };

beforeAll(signInAdmin);

async function openAdd(addLabel: string) {
  renderWithProviders(<OrganizationPage />);
  await screen.findByText('North');
  fireEvent.click(screen.getByText(addLabel));
  return (await screen.findAllByRole('dialog'))[0]!;
}

const okButton = (label: string) => screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label)!;

describe('form dialog', () => {
  it('shows the contract message for a missing field, in English and Chinese', async () => {
    mockFetch(() => listReply);
    await openAdd('Add');
    fireEvent.click(okButton('OK'));
    const expected = validate(organizationCreate, { orgName: '' }, 'en', 'organization');
    expect(expected.ok).toBe(false);
    if (!expected.ok) expect(await screen.findByText(expected.error.msg)).toBeTruthy();
    cleanup();

    await act(() => i18n.changeLanguage('zh-CN'));
    await openAdd('新增');
    fireEvent.click(okButton('确定'));
    const zh = validate(organizationCreate, { orgName: '' }, 'zh', 'organization');
    if (!zh.ok) expect(await screen.findByText(zh.error.msg)).toBeTruthy();
  });

  it('shows the contract message for a too-long name', async () => {
    mockFetch(() => listReply);
    const dialog = await openAdd('Add');
    const long = 'x'.repeat(51);
    fireEvent.change(within(dialog).getByPlaceholderText('Enter Organisation name'), { target: { value: long } });
    const expected = validate(organizationCreate, { orgName: long }, 'en', 'organization');
    if (!expected.ok) expect(await screen.findByText(expected.error.msg)).toBeTruthy();
  });

  it("marks the field with the server's message and sends the body", async () => {
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/createOrg')) {
        bodies.push(JSON.parse(String(init?.body)));
        return { code: 400, msg: 'Organisation name "North" already exists', data: { field: 'orgName' } };
      }
      return listReply;
    });
    const dialog = await openAdd('Add');
    fireEvent.change(within(dialog).getByPlaceholderText('Enter Organisation name'), { target: { value: ' North ' } });
    fireEvent.click(okButton('OK'));
    expect(await screen.findByText('Organisation name "North" already exists')).toBeTruthy();
    expect(bodies).toEqual([{ orgName: 'North' }]);
  });

  it('edits the fresh record and sends its id', async () => {
    const bodies: unknown[] = [];
    const fetch = mockFetch((url, init) => {
      if (url.pathname.endsWith('/getOrganization')) return { code: 200, msg: 'ok', data: { ...row, description: 'from server' } };
      if (url.pathname.endsWith('/editOrganization')) {
        bodies.push(JSON.parse(String(init?.body)));
        return { code: 200, msg: 'ok', data: row };
      }
      return listReply;
    });
    renderWithProviders(<OrganizationPage />);
    await screen.findByText('North');
    fireEvent.click(screen.getByText('Edit'));
    await waitFor(() => expect((screen.getByPlaceholderText('Enter Description') as HTMLTextAreaElement).value).toBe('from server'));
    fireEvent.click(okButton('OK'));
    await waitFor(() => expect(bodies).toEqual([{ id: 7, orgName: 'North', description: 'from server' }]));
    await waitFor(() => expect(fetch.mock.calls.filter(([u]) => String(u).includes('queryOrganizations')).length).toBe(2));
  });
});
