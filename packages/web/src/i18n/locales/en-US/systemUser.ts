import type { UiCatalogue } from '../zh-CN';

const systemUser: UiCatalogue['systemUser'] = {
  entity: 'system user',
  tab: 'System users',
  enable: 'Enable',
  disable: 'Disable',
  enableConfirm: 'Enable the user "{name}"?',
  disableConfirm: 'Disable the user "{name}"? The user is signed out at once.',
  resetPwd: 'Reset password',
  resetPwdDone: 'Password reset; the user signs in again with the new one',
  setChargeUser: 'Set as charging user',
  setChargeUserConfirm: 'Make the user "{name}" a charging user?',
};
export default systemUser;
