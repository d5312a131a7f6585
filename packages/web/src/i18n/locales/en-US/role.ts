import type { UiCatalogue } from '../zh-CN';

const role: UiCatalogue['role'] = {
  entity: 'role',
  grants: 'Menus and operations',
  checkAll: 'Check all',
  checkNone: 'Clear all',
  enableConfirm: 'Enable the role "{name}"?',
  disableConfirm: 'Disable the role "{name}"?',
  enabledDone: 'Enabled',
  disabledDone: 'Disabled',
  pageAccess: 'Open the page',
  permissionLabel: '{resource}: {action}',
  permResources: {
    user: 'System users',
    provider: 'Providers',
    message: 'System messages',
    exportConfig: 'Export configuration',
    role: 'Roles',
    organization: 'Organisations',
    log: 'System log',
  },
  permActions: {
    list: 'list',
    query: 'view',
    add: 'add',
    edit: 'edit',
    remove: 'delete',
    export: 'export',
    status: 'enable/disable',
    resetPwd: 'reset password',
    chargeUser: 'set as charging user',
  },
};
export default role;
