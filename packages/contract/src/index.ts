export * from './codes.js';
export * from './dicts.js';
export * from './endpoint.js';
export * from './i18n/index.js';
export * from './menus.js';
export * from './permissions.js';
export * from './validation.js';
export * from './events.js';
export * from './api/auth.js';
export * from './api/common.js';
export * from './api/organization.js';
export * from './api/provider.js';
export * from './api/system-user.js';
export * from './api/role.js';
export * from './api/system-log.js';
export * from './api/message.js';
export * from './api/export-config.js';
export * from './api/profile.js';

import { authApi } from './api/auth.js';
import { commonApi } from './api/common.js';
import { exportConfigApi } from './api/export-config.js';
import { messageApi } from './api/message.js';
import { organizationApi } from './api/organization.js';
import { profileApi } from './api/profile.js';
import { providerApi } from './api/provider.js';
import { roleApi } from './api/role.js';
import { systemLogApi } from './api/system-log.js';
import { systemUserApi } from './api/system-user.js';
import type { EndpointDef } from './endpoint.js';

/** Every endpoint of the product; the server must mount each one (checked at start-up). */
export const api = {
  auth: authApi,
  common: commonApi,
  organization: organizationApi,
  provider: providerApi,
  systemUser: systemUserApi,
  role: roleApi,
  systemLog: systemLogApi,
  message: messageApi,
  exportConfig: exportConfigApi,
  profile: profileApi,
} satisfies Record<string, Record<string, EndpointDef>>;

export function allEndpoints(): EndpointDef[] {
  return Object.values(api).flatMap((group) => Object.values(group) as EndpointDef[]);
}
