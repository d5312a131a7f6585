import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useResourceText } from './labels';
import { SearchBar } from './SearchBar';
import { mockFetch, renderWithProviders, signInAdmin } from './test-kit';
import type { SearchDef } from './types';

const search = [
  { key: 'status', kind: 'dict', dict: 'userStatus' },
  { key: 'account', kind: 'text' },
] as SearchDef[];

function Bar({ query }: { query: Record<string, unknown> }) {
  const text = useResourceText('chargeUser');
  return <SearchBar name="chargeUser" search={search} query={query} text={text} onSearch={() => {}} onReset={() => {}} />;
}

/** The list's address: its query changes as the user goes back or opens a link. */
let goTo: (query: Record<string, unknown>) => void = () => {};
function List({ initial }: { initial: Record<string, unknown> }) {
  const [query, setQuery] = useState(initial);
  goTo = setQuery;
  return <Bar query={query} />;
}

describe('the search bar', { timeout: 60_000 }, () => {
  it('fills its fields from the query, and asks for its dictionary once', async () => {
    signInAdmin();
    const fetched = mockFetch(() => ({
      code: 200,
      msg: 'ok',
      data: [{ dictValue: '0', dictLabel: 'Normal', listClass: 'primary' }],
    }));
    renderWithProviders(<List initial={{ status: 0, account: 'alice' }} />);
    await waitFor(() => expect(screen.getByDisplayValue('alice')).toBeTruthy(), { timeout: 20_000 });
    // The dictionary's label for the query's value (a number in the query, a string in the dictionary).
    expect(await screen.findByText('Normal', {}, { timeout: 20_000 })).toBeTruthy();
    // Drawn once: a reset before filling remounted every input, and the select's first request was cancelled.
    const asked = fetched.mock.calls.filter(([url]) => String(url).includes('/system/dict/data/type/userStatus'));
    expect(asked).toHaveLength(1);
    expect((asked[0]![1] as RequestInit | undefined)?.signal?.aborted).toBe(false);

    // A query without the filters empties them (back to a list without them).
    act(() => goTo({}));
    await waitFor(() => expect(screen.queryByDisplayValue('alice')).toBeNull(), { timeout: 20_000 });
  });
});
