export * from './codes.js';
export * from './dicts.js';
export * from './endpoint.js';
export * from './i18n/index.js';
export * from './menus.js';
export * from './permissions.js';
export * from './validation.js';
export * from './api/auth.js';
export * from './api/common.js';
export * from './api/organization.js';

import { authApi } from './api/auth.js';
import { commonApi } from './api/common.js';
import { organizationApi } from './api/organization.js';
import type { EndpointDef } from './endpoint.js';

/** Every endpoint of the product; the server must mount each one (checked at start-up). */
export const api = {
  auth: authApi,
  common: commonApi,
  organization: organizationApi,
} satisfies Record<string, Record<string, EndpointDef>>;

export function allEndpoints(): EndpointDef[] {
  return Object.values(api).flatMap((group) => Object.values(group) as EndpointDef[]);
}
