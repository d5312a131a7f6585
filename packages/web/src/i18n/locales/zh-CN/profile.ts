/** Personal center. */
export default {
  title: '个人中心',
  info: '个人信息',
  edit: '基本资料',
  security: '账号安全',
  passwordHint: '修改密码后需要重新登录。',
};
