/**
 * The console's menu tree (spec §2). A role's `rolePaths` is a subset of these paths; the
 * console's route registry attaches screens to them, and the menu shows only paths that have
 * a screen. Titles live in the web catalogues under `menu.<name>`.
 */
export interface MenuNode {
  path: string;
  name: string;
  /** Default child the parent redirects to. */
  redirect?: string;
  /** Role required in addition to the path (spec: financial and system need admin). */
  role?: string;
  hidden?: boolean;
  children?: MenuNode[];
}

const group = (path: string, redirect: string, children: (string | [string, { hidden?: boolean }])[], role?: string): MenuNode => ({
  path,
  name: path.slice(1),
  redirect: `${path}/${redirect}`,
  ...(role ? { role } : {}),
  children: children.map((c) => {
    const [name, opts] = typeof c === 'string' ? [c, {}] : c;
    return { path: `${path}/${name}`, name, ...opts };
  }),
});

export const menuTree: MenuNode[] = [
  group('/realTimeMonitor', 'charging', ['charging', 'chargeStation', 'chargePoint', 'smartCharging', 'reservation']),
  group('/workOrder', 'list', ['list', 'create', 'warnManage', 'sparePartsManage', 'maintainManage']),
  group('/historyRecord', 'chargeRecord', ['chargeRecord', 'alarmRecord']),
  group('/userManagement', 'cardManage', ['cardManage', 'chargeUser', 'userGroup']),
  group('/operateManagement', 'operateStatistics', ['operateStatistics', 'membershipManage', 'activityManage', 'voucherManage']),
  group(
    '/financialManagement',
    'financialStatistics',
    [
      'corporateTransfer',
      'electricityPriceSetting',
      ['transferRecord', { hidden: true }],
      'rechargeRecord',
      'invoiceRecordManage',
      'financialStatistics',
    ],
    'admin',
  ),
  group('/configurationManagement', 'stationManagement', ['versionManage', 'carManage', 'stationManagement', 'pointConfiguration']),
  group('/systemManagement', 'userManage', ['userManage', 'systemLog', 'errorLog', 'permissionManage', 'organizationManage'], 'admin'),
  group('/apply', 'applyRecord', [['applyRecord', { hidden: true }]]),
];

export function flattenMenus(nodes: MenuNode[] = menuTree): MenuNode[] {
  return nodes.flatMap((n) => [n, ...flattenMenus(n.children ?? [])]);
}

/** Every menu path; what the admin role's `rolePaths` holds. */
export const allMenuPaths: string[] = flattenMenus().map((n) => n.path);
