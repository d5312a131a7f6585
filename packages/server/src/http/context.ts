import type { Lang } from '@csms/contract';

/** Who is calling, resolved once per request from the session token. */
export interface Principal {
  sessionId: number;
  userId: number;
  username: string;
  providerId: number;
  providerType: 'super' | 'common';
  roleId: number;
  roleKey: string;
  roleEnabled: boolean;
  permissions: string[];
  /** Menu paths of the role (empty while it is disabled): with `permissions`, what the user may hand out. */
  rolePaths: string[];
  /** Providers whose rows this user sees; `all` for a super provider's users. */
  providerIds: number[] | 'all';
  /** Stations the user is bound to; `null` when unbound (all of the providers' stations). */
  stationIds: number[] | null;
  /** A one-time password is in use: only endpoints open to any session (change it, sign out) are allowed. */
  mustChangePassword?: boolean;
}

export interface RequestCtx {
  lang: Lang;
  ip: string;
  principal: Principal | null;
}

export interface AuthedCtx extends RequestCtx {
  principal: Principal;
}
