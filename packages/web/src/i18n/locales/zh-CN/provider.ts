/** Providers tab of the system-user page. */
export default {
  entity: '运营商',
  tab: '运营商',
  myTab: '我的运营商',
  myNoPermission: '您没有修改所属运营商设置的权限',
  mailSection: '邮箱配置',
  mailAuthCodeKeep: '已保存授权码，留空则保持不变（修改邮箱账号、SMTP 地址或端口时须重新输入）',
  expirationRenew: '选择后从今天起重新计算有效期，留空则不变',
  testMail: '发送测试邮件',
  testMailSent: '测试邮件已发送至 {to}（邮件 ID {messageId}）',
  disclaimerPage: '免责声明页面',
  privacyPage: '隐私协议页面',
  neverExpires: '永久有效',
  autoLocalListSyncHelp: '开启后，卡的挂失、停用、过期、余额归零和新开卡会在一分钟内以差分更新下发到本运营商所有在线充电桩的白名单。',
};
