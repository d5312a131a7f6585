import { Code, exceeds, type Grants } from '@csms/contract';
import type { Principal } from '../http/context.js';
import { AppError } from '../http/errors.js';

/** The seeded account every installation starts with; only it changes itself (DESIGN.md §5). */
export const BUILT_IN_ADMIN = 'admin';

export const grantsOf = (p: Principal): Grants => ({ roleKey: p.roleKey, rolePaths: p.rolePaths, permissions: p.permissions });

/** Whether the caller holds everything `wanted` grants. */
export const covers = (p: Principal, wanted: Grants) => exceeds(grantsOf(p), wanted) === undefined;

/**
 * DESIGN.md §5, "nobody hands out more than they hold": a 403 when `wanted` grants more than the
 * caller holds, its message `key` naming the permission (or `${key}Path` naming the menu path).
 */
export function excessRefusal(p: Principal, wanted: Grants, key: string, params: Record<string, unknown> = {}): AppError | undefined {
  const excess = exceeds(grantsOf(p), wanted);
  if (!excess) return undefined;
  return 'permission' in excess
    ? new AppError(Code.FORBIDDEN, key, { ...params, permission: excess.permission })
    : new AppError(Code.FORBIDDEN, `${key}Path`, { ...params, path: excess.path });
}

export function assertCovers(p: Principal, wanted: Grants, key: string, params: Record<string, unknown> = {}): void {
  const refusal = excessRefusal(p, wanted, key, params);
  if (refusal) throw refusal;
}

/** A system user with its role's grants, as the management rule sees it. */
export interface ManagedUser {
  id: number;
  username: string;
  roleKey: string;
  rolePaths: string[];
  rolePermissions: string[];
  /** The stations the user is bound to; none: all of its provider's. */
  stationIds: number[];
}

/**
 * Why the caller may not reset the password of, edit, disable, delete or link this user, or
 * undefined when it may: only users whose role grants no more than the caller holds and who see no
 * station the caller does not (a caller bound to stations would otherwise sign in as a colleague
 * who sees them all), and the built-in admin only itself.
 */
export function userRefusal(p: Principal, u: ManagedUser): AppError | undefined {
  if (u.username === BUILT_IN_ADMIN && u.id !== p.userId) return new AppError(Code.FORBIDDEN, 'errors.systemUser.builtInAdmin');
  if (p.stationIds !== null && (u.stationIds.length === 0 || u.stationIds.some((s) => !p.stationIds!.includes(s))))
    return new AppError(Code.FORBIDDEN, 'errors.systemUser.seesMoreStations', { name: u.username });
  const role = { roleKey: u.roleKey, rolePaths: u.rolePaths, permissions: u.rolePermissions };
  return excessRefusal(p, role, 'errors.systemUser.notManageable', { name: u.username });
}
