import { ADMIN_ROLE, checkPermi, checkRole, type UserInfo } from '@csms/contract';
import i18n from 'i18next';

export type CheckMode = 'any' | 'all';
type Held = Pick<UserInfo, 'roles' | 'permissions'> | null | undefined;

function asList(v: string | readonly string[]): readonly string[] {
  return typeof v === 'string' ? [v] : v;
}

/**
 * Permission check of spec §6 on a user's info: the admin role and `*:*:*` pass; nothing
 * passes before the info is loaded. An empty list is a programming error and throws.
 */
export function hasPermiIn(info: Held, required: string | readonly string[], mode: CheckMode = 'any'): boolean {
  const list = asList(required);
  if (list.length === 0 || list.some((p) => !p)) throw new Error(i18n.t('auth.permiEmpty'));
  if (!info) return false;
  if (info.roles.includes(ADMIN_ROLE)) return true;
  return checkPermi(info.permissions, list, mode);
}

/** Role check of spec §6: the admin role or the exact role passes; nothing before info is loaded. */
export function hasRoleIn(info: Held, required: string | readonly string[], mode: CheckMode = 'any'): boolean {
  const list = asList(required);
  if (list.length === 0 || list.some((r) => !r)) throw new Error(i18n.t('auth.roleEmpty'));
  if (!info) return false;
  return checkRole(info.roles, list, mode);
}
