/** System users and providers (one page, two tabs); field names come from the contract's vocabulary. */
export default {
  entity: '系统用户',
  tab: '系统用户',
  enable: '启用',
  disable: '停用',
  enableConfirm: '确认要启用用户“{name}”吗？',
  disableConfirm: '确认要停用用户“{name}”吗？停用后该用户将被强制退出。',
  resetPwd: '重置密码',
  resetPwdDone: '密码已重置，该用户需使用新密码重新登录',
  setChargeUser: '设为充电用户',
  setChargeUserConfirm: '确认将用户“{name}”设为充电用户吗？',
};
