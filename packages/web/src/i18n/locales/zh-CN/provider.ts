/** Providers tab of the system-user page. */
export default {
  entity: '运营商',
  tab: '运营商',
  mailSection: '邮箱配置',
  mailAuthCodeKeep: '已保存授权码，留空则保持不变',
  expirationRenew: '选择后从今天起重新计算有效期，留空则不变',
  testMail: '发送测试邮件',
  testMailSent: '测试邮件已发送至 {to}（邮件 ID {messageId}）',
  disclaimerPage: '免责声明页面',
  privacyPage: '隐私协议页面',
  neverExpires: '永久有效',
};
