import { allMenuPaths, allPermissions, type CardDto, type ChargeUserDto, type LedgerRow, type UserGroupDto } from '@csms/contract';
import { expect } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type Envelope, type TestServer } from '../../../test/harness.js';

/** Test helpers of the cards area: calls through the HTTP API, as the console makes them. */
let n = 0;
export const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;
export const DAY = 86_400_000;
export const future = (days = 365) => new Date(Date.now() + days * DAY).toISOString();

export async function ok<T>(p: Promise<Envelope<T>>): Promise<T> {
  const r = await p;
  expect(r.code, r.msg).toBe(200);
  return r.data;
}

/** A full-permission operator of a new provider (child of the super provider). */
export async function operator(s: TestServer) {
  const op = await createOperator(s.database.db, { permissions: allPermissions, rolePaths: allMenuPaths });
  return { token: await s.login(op.user.username, op.user.password), providerId: op.providerId, userId: op.user.id };
}
export type Operator = Awaited<ReturnType<typeof operator>>;

export function cardsApi(s: TestServer, token: string) {
  const post = <T>(path: string, body: unknown, lang: 'zh' | 'en' = 'en') => s.call<T>('POST', path, { token, body, lang });
  const get = <T>(path: string, lang: 'zh' | 'en' = 'en') => s.call<T>('GET', path, { token, lang });
  return {
    post,
    get,
    addUser: (body: Record<string, unknown>) =>
      ok(post<ChargeUserDto>('/web/chargeUser/add', { account: uniq('u'), userType: 'card', ...body })),
    addGroup: (body: Record<string, unknown>) => ok(post<UserGroupDto>('/web/userGroup/add', { name: uniq('g'), ...body })),
    issue: (body: Record<string, unknown>) =>
      ok(
        post<CardDto>('/web/card/add', {
          cardNumber: uniq('NO'),
          physicalId: uniq('UID')
            .toUpperCase()
            .replace(/[^0-9A-Z]/g, '')
            .slice(0, 20),
          expireTime: future(),
          prepaidCents: 0,
          email: 'driver@example.test',
          ...body,
        }),
      ),
    card: (id: number) => ok(get<CardDto & { ledger: LedgerRow[] }>(`/web/card/get?id=${id}`)),
    user: (id: number) => ok(get<ChargeUserDto>(`/web/chargeUser/get?id=${id}`)),
  };
}
export type CardsApi = ReturnType<typeof cardsApi>;

/** The cards tests' server: operators of two providers (`a`, `b`) and their clients (`A`, `B`). */
export async function twoProviders() {
  const s = await startServer();
  const a = await operator(s);
  const b = await operator(s);
  return { s, a, b, A: cardsApi(s, a.token), B: cardsApi(s, b.token) };
}
