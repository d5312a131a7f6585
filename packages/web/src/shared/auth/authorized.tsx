import type { ReactNode } from 'react';
import type { CheckMode } from './permissions';
import { useAuth } from './useAuth';

export interface AuthorizedProps {
  /** Permissions, `<area>:<resource>:<action>`. */
  permi?: string[];
  /** Role keys. */
  role?: string[];
  mode?: CheckMode;
  children?: ReactNode;
}

/** Renders its children only when the user passes every check given (spec §6: failing elements are removed). */
export function Authorized({ permi, role, mode = 'any', children }: AuthorizedProps) {
  const { hasPermi, hasRole } = useAuth();
  const ok = (permi === undefined || hasPermi(permi, mode)) && (role === undefined || hasRole(role, mode));
  return ok ? <>{children}</> : null;
}
