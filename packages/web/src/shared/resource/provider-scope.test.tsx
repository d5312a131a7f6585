import { type UserInfo, cardApi } from '@csms/contract';
import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { setSession } from '../auth/session';
import { ResourcePage } from './ResourcePage';
import { mockFetch, renderWithProviders, signInAdmin } from './test-kit';
import { defineResource } from './types';

const cards = defineResource({
  name: 'card',
  api: { list: cardApi.list },
  columns: [
    { key: 'cardNumber', width: 120 },
    { key: 'providerName', width: 150 },
  ],
  search: [
    { key: 'cardNumber', kind: 'text' },
    { key: 'providerId', kind: 'select', options: [] },
  ],
});

const signIn = (isShowProvider: boolean) =>
  setSession({ roles: ['ops'], permissions: ['*:*:*'], providerId: 7, providerName: 'Harbour', isShowProvider } as unknown as UserInfo);

async function render() {
  mockFetch(() => ({ code: 200, msg: 'ok', data: { list: [{ id: 1, cardNumber: 'C-001', providerName: 'Harbour' }], total: 1 } }));
  const view = renderWithProviders(<ResourcePage resource={cards} />);
  await screen.findByText('C-001', {}, { timeout: 20_000 });
  const headers = [...view.container.querySelectorAll('th')].map((th) => th.textContent ?? '');
  const labels = [...view.container.querySelectorAll('label')].map((l) => l.textContent ?? '');
  view.unmount();
  return { headers, labels };
}

afterAll(signInAdmin);

describe('provider columns follow isShowProvider', { timeout: 60_000 }, () => {
  it('hides the provider column and filter from a user who sees one provider', async () => {
    act(() => signIn(false));
    const { headers, labels } = await render();
    expect(headers.some((h) => h.includes('Card number'))).toBe(true);
    expect(headers.some((h) => h.includes('Provider'))).toBe(false);
    expect(labels.some((l) => l.includes('Provider'))).toBe(false);
  });

  it('shows them to a user who sees several providers', async () => {
    act(() => signIn(true));
    const { headers, labels } = await render();
    expect(headers.some((h) => h.includes('Provider'))).toBe(true);
    expect(labels.some((l) => l.includes('Provider'))).toBe(true);
  });
});
