/**
 * Operation permissions, `<area>:<resource>:<action>`. This catalogue is the one list the
 * server enforces and the role editor shows; each entry hangs under the menu path whose
 * screen offers it.
 */
export const ALL_PERMISSION = '*:*:*';
export const ADMIN_ROLE = 'admin';

export interface PermissionGroup {
  menu: string;
  permissions: string[];
}

const actions = (prefix: string, list: string[]) => list.map((a) => `${prefix}:${a}`);
const CRUD = ['list', 'query', 'add', 'edit', 'remove', 'export'];

export const permissionCatalogue: PermissionGroup[] = [
  {
    menu: '/systemManagement/userManage',
    permissions: [
      ...actions('system:user', [...CRUD, 'status', 'resetPwd', 'chargeUser']),
      ...actions('system:provider', ['list', 'query', 'add', 'edit']),
      'system:message:add',
      'system:exportConfig:edit',
    ],
  },
  { menu: '/systemManagement/permissionManage', permissions: actions('system:role', ['list', 'query', 'add', 'edit', 'remove', 'status']) },
  { menu: '/systemManagement/organizationManage', permissions: actions('system:organization', CRUD) },
  { menu: '/systemManagement/systemLog', permissions: actions('system:log', ['list', 'query', 'export']) },
  { menu: '/systemManagement/errorLog', permissions: ['system:errorLog:list'] },
  {
    menu: '/configurationManagement/stationManagement',
    permissions: [...actions('config:station', CRUD), ...actions('config:point', [...CRUD, 'move', 'key'])],
  },
  {
    menu: '/userManagement/cardManage',
    permissions: actions('user:card', ['list', 'query', 'add', 'edit', 'export', 'recharge', 'refund', 'lost', 'cancelLoss', 'expire']),
  },
  {
    menu: '/userManagement/chargeUser',
    permissions: actions('user:chargeUser', [...CRUD, 'status', 'recharge', 'refund']),
  },
  { menu: '/userManagement/userGroup', permissions: actions('user:group', [...CRUD, 'members']) },
  // Remote maintenance (issue 16): firmware packages and upgrades, on the version management page.
  {
    menu: '/configurationManagement/versionManage',
    permissions: [
      ...actions('config:firmwareVersion', ['list', 'query', 'add', 'edit', 'remove']),
      ...actions('config:firmwareUpgrade', ['list', 'query', 'add', 'retry', 'export']),
    ],
  },
  { menu: '/configurationManagement/carManage', permissions: actions('config:car', [...CRUD, 'import']) },
  { menu: '/historyRecord/chargeRecord', permissions: actions('record:charge', ['list', 'query', 'export', 'confirm']) },
  { menu: '/historyRecord/alarmRecord', permissions: actions('record:alarm', ['list', 'query', 'export']) },
  // Statistics (issue 20): the operation and financial figures of a period, and their tables' exports.
  { menu: '/operateManagement/operateStatistics', permissions: actions('operate:operateStatistics', ['list', 'export']) },
  { menu: '/financialManagement/financialStatistics', permissions: actions('finance:financialStatistics', ['list', 'export']) },
  { menu: '/financialManagement/rechargeRecord', permissions: actions('finance:recharge', ['list', 'query', 'export']) },
  // Finance (issue 18): register and confirm a transfer are separate permissions (and the server wants two people).
  {
    menu: '/financialManagement/corporateTransfer',
    permissions: actions('finance:transfer', ['list', 'query', 'register', 'confirm', 'reject', 'export']),
  },
  { menu: '/financialManagement/transferRecord', permissions: actions('finance:transferRecord', ['list', 'export']) },
  {
    menu: '/financialManagement/invoiceRecordManage',
    permissions: actions('finance:invoice', ['list', 'query', 'apply', 'issue', 'reject', 'export']),
  },
  {
    menu: '/financialManagement/electricityPriceSetting',
    permissions: actions('finance:price', ['list', 'query', 'add', 'edit', 'remove']),
  },
  // Remote start and stop hang under the charging screen only (a tree key appears once); the point screen offers them too.
  { menu: '/realTimeMonitor/charging', permissions: ['monitor:charging:list', ...actions('monitor:point', ['remoteStart', 'remoteStop'])] },
  { menu: '/realTimeMonitor/chargeStation', permissions: ['monitor:station:list'] },
  {
    menu: '/realTimeMonitor/chargePoint',
    permissions: [
      'monitor:point:list',
      ...actions('monitor:point', [
        'reset',
        'unlock',
        'changeAvailability',
        'clearCache',
        'sendLocalList',
        'getLocalListVersion',
        'triggerMessage',
        'transactionStatus',
        'dataTransfer',
        'getCompositeSchedule',
      ]),
    ],
  },
  // Smart charging (issue 15): charging profiles, local controllers and the balancer's live view, timed charging.
  {
    menu: '/realTimeMonitor/smartCharging',
    permissions: [
      ...actions('smart:chargingProfile', [...CRUD, 'send', 'clear']),
      ...actions('smart:localController', CRUD),
      ...actions('smart:timedCharge', ['list', 'query', 'add', 'edit', 'cancel', 'export']),
    ],
  },
  { menu: '/realTimeMonitor/reservation', permissions: actions('smart:reservation', ['list', 'query', 'add', 'cancel', 'export']) },
  // Work orders (issue 17): fault treatment. Assign is the area leader's, process the service man's, archive the
  // archive person's; each also needs the user to hold that part in the order's service area.
  {
    menu: '/workOrder/list',
    permissions: [
      ...actions('workOrder:list', ['list', 'query', 'add', 'assign', 'process', 'archive', 'export']),
      ...actions('workOrder:area', ['list', 'edit']),
      ...actions('workOrder:faultCode', ['list', 'edit']),
    ],
  },
  // Feedback (/workOrder/create) needs a session only: anyone signed in may file a problem with a point they see.
  { menu: '/workOrder/maintainManage', permissions: actions('workOrder:maintain', ['list', 'export']) },
  // Spare parts (issue 17 item 4): the parts catalogue, and the apply orders of work orders (approve agrees or not).
  {
    menu: '/workOrder/sparePartsManage',
    permissions: [
      ...actions('workOrder:material', [...CRUD, 'import']),
      ...actions('workOrder:materialApply', ['list', 'query', 'apply', 'approve', 'export']),
    ],
  },
  // Warning management (issue 17 item 3): forecast warnings and manual ones; `rules` edits the thresholds, `refresh` fetches now.
  { menu: '/workOrder/warnManage', permissions: actions('workOrder:warn', [...CRUD, 'rules', 'refresh']) },
  // Applications to join the platform (issue 21): reviewing creates providers, so it is the super provider's.
  { menu: '/apply/applyRecord', permissions: actions('apply:record', ['list', 'query', 'approve', 'reject']) },
  // Operations (issue 19): membership levels and members (override sets a user's level for a while; recompute runs the nightly job now).
  {
    menu: '/operateManagement/membershipManage',
    permissions: [
      ...actions('operate:memberLevel', CRUD),
      ...actions('operate:member', ['list', 'query', 'override', 'recompute', 'export']),
    ],
  },
  // Activities (issue 19): drafts edited, activated, ended early.
  { menu: '/operateManagement/activityManage', permissions: actions('operate:activity', [...CRUD, 'activate', 'end']) },
  // Vouchers (issue 19): templates, and vouchers issued from them (issue by hand or to a group, revoke; choose one for a session).
  {
    menu: '/operateManagement/voucherManage',
    permissions: [
      ...actions('operate:voucherTemplate', CRUD),
      ...actions('operate:voucher', ['list', 'query', 'issue', 'revoke', 'choose', 'export']),
    ],
  },
  {
    menu: '/configurationManagement/pointConfiguration',
    permissions: [
      ...actions('config:pointConfig', ['query', 'edit']),
      ...actions('config:ocppLog', ['list', 'export']),
      ...actions('config:diagnostics', ['list', 'query', 'add', 'export']),
    ],
  },
];

export const allPermissions: string[] = permissionCatalogue.flatMap((g) => g.permissions);

export class EmptyPermissionListError extends Error {}

/**
 * Permission check (spec §6): passes with the wildcard or the exact permission.
 * `mode` any: one of `required`; all: each of them. An empty list is a programming error.
 */
export function checkPermi(held: readonly string[], required: readonly string[] | string, mode: 'any' | 'all' = 'any'): boolean {
  const list = typeof required === 'string' ? [required] : required;
  if (list.length === 0) throw new EmptyPermissionListError('permission list is empty');
  if (held.includes(ALL_PERMISSION)) return true;
  return mode === 'all' ? list.every((p) => held.includes(p)) : list.some((p) => held.includes(p));
}

/** Role check (spec §6): passes with role admin or the exact role. */
export function checkRole(held: readonly string[], required: readonly string[] | string, mode: 'any' | 'all' = 'any'): boolean {
  const list = typeof required === 'string' ? [required] : required;
  if (list.length === 0) throw new EmptyPermissionListError('role list is empty');
  if (held.includes(ADMIN_ROLE)) return true;
  return mode === 'all' ? list.every((r) => held.includes(r)) : list.some((r) => held.includes(r));
}

/** What a role grants: its key, the menu paths it opens and its operation permissions. */
export interface Grants {
  roleKey: string;
  rolePaths: readonly string[];
  permissions: readonly string[];
}

/** What `wanted` grants beyond `held`: a permission, or else a menu path. */
export type Excess = { permission: string } | { path: string };

const isTop = (g: Grants) => g.roleKey === ADMIN_ROLE || g.permissions.includes(ALL_PERMISSION);

/**
 * DESIGN.md §5, "nobody hands out more than they hold": the first permission (else menu path) of
 * `wanted` that `held` lacks, or undefined when `held` covers all of it. The wildcard and role key
 * `admin` are the top: they cover everything, and only they cover each other. The one check
 * behind granting a role, assigning one to a user and managing a user or a role.
 */
export function exceeds(held: Grants, wanted: Grants): Excess | undefined {
  if (isTop(held)) return undefined;
  if (isTop(wanted)) return { permission: ALL_PERMISSION };
  const permission = wanted.permissions.find((x) => !held.permissions.includes(x));
  if (permission !== undefined) return { permission };
  const path = wanted.rolePaths.find((x) => !held.rolePaths.includes(x));
  return path === undefined ? undefined : { path };
}

/** A value is an external link if it starts with http:, https:, mailto: or tel: (spec §5). */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}
