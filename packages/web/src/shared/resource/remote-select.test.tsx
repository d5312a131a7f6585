import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { RemoteSelect } from './inputs';
import { renderWithProviders, signInAdmin } from './test-kit';
import type { RemoteOptions } from './types';

/** 250 roles on the server: the select shows the first ones and searches the rest by name. */
const all = Array.from({ length: 250 }, (_, i) => ({ value: i + 1, label: `Role ${String(i + 1).padStart(3, '0')}` }));

function remote() {
  const asked: { text: string; values: Array<string | number> }[] = [];
  const r: RemoteOptions = {
    key: `roles-${Math.random()}`,
    load: () => Promise.resolve(all.slice(0, 100)),
    search: (text, values) => {
      asked.push({ text, values });
      const hits = all.filter((o) => o.label.includes(text)).slice(0, 100);
      return Promise.resolve([...hits, ...all.filter((o) => values.includes(o.value) && !hits.includes(o))]);
    },
  };
  return { r, asked };
}

beforeAll(signInAdmin);

describe('remote select with server search', { timeout: 60_000 }, () => {
  it('labels a selected value past the first 100 and searches the server once the typing pauses', async () => {
    const { r, asked } = remote();
    const { container } = renderWithProviders(<RemoteSelect remote={r} value={180} data-testid="role-select" />);
    // The value is not among the first 100: the server is asked for it by id.
    expect(await screen.findByText('Role 180', {}, { timeout: 20_000 })).toBeTruthy();
    expect(asked[0]).toEqual({ text: '', values: [180] });
    const input = container.querySelector('input')!;
    fireEvent.mouseDown(container.querySelector('.ant-select')!);
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.change(input, { target: { value: '24' } });
    fireEvent.change(input, { target: { value: '249' } });
    await waitFor(() => expect(asked.map((a) => a.text)).toContain('249'), { timeout: 20_000 });
    // Debounced: the keystrokes in between never reached the server.
    expect(asked.map((a) => a.text)).toEqual(['', '249']);
    expect(await screen.findByText('Role 249', {}, { timeout: 20_000 })).toBeTruthy();
  });
});
