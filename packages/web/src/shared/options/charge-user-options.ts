import { chargeUserApi } from '@csms/contract';
import { call } from '../api/client';
import type { RemoteOptions } from '../resource/types';

type Labelled = { value: number; label: string };

/**
 * Charge users by account or phone (`/web/chargeUser/options`), for a searching select: the server
 * answers 50 at a time, so a provider with many drivers still finds each one. `providerId` keeps
 * the users of one provider (a point's, for a start or a reservation); `known` labels the current
 * value of an edited record, which the first 50 may not hold (the options call takes no ids).
 */
export function chargeUserOptions(providerId?: number, known?: Labelled | null): RemoteOptions {
  const search = async (text: string, values: Array<string | number> = []) => {
    const users = await call(chargeUserApi.options, { query: { keyword: text || undefined, providerId } }, { silent: true }).catch(
      () => [],
    );
    const options: Labelled[] = users.map((u) => ({ value: u.id, label: u.phone ? `${u.account} (${u.phone})` : u.account }));
    if (known && values.includes(known.value) && !options.some((o) => o.value === known.value)) options.unshift(known);
    return options;
  };
  return { key: `chargeUsers:${providerId ?? 'all'}`, load: () => search(''), search };
}
