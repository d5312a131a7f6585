import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, polyfillDom, renderWithProviders } from '../resource/test-kit';
import { DictTag } from './DictTag';

beforeAll(polyfillDom);
afterEach(cleanup);

const entries = [
  { dictLabel: 'Enabled', dictValue: '1', listClass: 'success', cssClass: '' },
  { dictLabel: 'Disabled', dictValue: '0', listClass: 'danger', cssClass: '' },
];

describe('dictionaries', () => {
  it('fetches a dictionary once and renders coloured tags', async () => {
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', data: entries }));
    renderWithProviders(
      <>
        <DictTag type="userStatus" value="1" />
        <DictTag type="userStatus" value="0,1" />
        <DictTag type="userStatus" value="9" />
      </>,
    );
    await waitFor(() => expect(screen.getAllByText('Enabled')).toHaveLength(2));
    expect(screen.getByText('Disabled').closest('.ant-tag')?.className).toMatch(/error/);
    expect(screen.getAllByText('Enabled')[0]!.closest('.ant-tag')?.className).toMatch(/success/);
    expect(screen.getByText('9')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]![0])).toBe('/prod-api/system/dict/data/type/userStatus');
  });
});
