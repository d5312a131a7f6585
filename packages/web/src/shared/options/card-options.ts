import { cardApi } from '@csms/contract';
import { call } from '../api/client';
import type { RemoteOptions } from '../resource/types';

/**
 * Cards by card number (`/web/card/options`), for a searching select: the server answers 50 at a time.
 * `providerId` keeps the cards of one provider (a corporate transfer's allocations).
 */
export function cardOptions(providerId?: number): RemoteOptions {
  const search = async (text: string) => {
    const cards = await call(cardApi.options, { query: { keyword: text || undefined, providerId } }, { silent: true }).catch(() => []);
    return cards.map((c) => ({ value: c.id, label: c.account ? `${c.cardNumber} (${c.account})` : c.cardNumber }));
  };
  return { key: `cards:${providerId ?? 'all'}`, load: () => search(''), search };
}
