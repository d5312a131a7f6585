import type { UserInfo } from '@csms/contract';
import { useMemo } from 'react';
import { hasPermiIn, hasRoleIn, type CheckMode } from './permissions';
import { useSession } from './session';

export interface AuthApi {
  info: UserInfo | null;
  hasPermi(p: string | string[], mode?: CheckMode): boolean;
  hasRole(r: string | string[], mode?: CheckMode): boolean;
}

/** The signed-in user and the spec's permission checks (the UI only hides; the server enforces). */
export function useAuth(): AuthApi {
  const info = useSession();
  return useMemo(
    () => ({
      info,
      hasPermi: (p, mode) => hasPermiIn(info, p, mode),
      hasRole: (r, mode) => hasRoleIn(info, r, mode),
    }),
    [info],
  );
}
