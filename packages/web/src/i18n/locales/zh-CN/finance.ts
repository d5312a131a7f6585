/** 财务：对公转账、转账记录与发票（issue 18）。 */
const corporateTransfer = {
  entity: '对公转账',
  createTitle: '登记对公转账',
  registered: '转账已登记，待其他用户确认',
  chooseProviderFirst: '请先选择运营商',
  chooseUser: '输入账号或手机号搜索充电用户',
  addLine: '添加入账对象',
  chooseCard: '输入卡号搜索该运营商的充电卡',
  openReceipt: '查看',
  removeLine: '移除',
  allocated: '已分配 {sum} / 转账金额 {amount}',
  confirm: '确认入账',
  confirmAsk: '确认转账 {id}（流水号 {reference}，金额 {amount}）并为 {count} 个账户入账？确认后不可撤销。',
  confirmed: '已入账',
  reject: '驳回',
  rejectTitle: '驳回转账',
  rejected: '已驳回',
  record: '转账记录',
};

const transferRecord = {
  entity: '转账记录',
};

const invoice = {
  entity: '发票',
  createTitle: '申请发票',
  applied: '发票申请已提交',
  chooseUserFirst: '请先选择充电用户',
  total: '已选 {count} 条记录，合计 {amount}',
  issue: '开具',
  issueTitle: '开具发票 {id}',
  issueHint: '接收人 {account}，金额 {amount}。上传发票 PDF 后，将按所选通知方式通知用户（邮件发送至 {email}，附发票）。',
  issueHintSms: '接收人 {account}，金额 {amount}。上传发票 PDF 后，将通过短信通知用户（发送至 {mobile}）。',
  issued: '发票已开具',
  reject: '驳回',
  rejectTitle: '驳回发票申请',
  rejected: '已驳回，所含记录可重新开票',
};

export { corporateTransfer, transferRecord, invoice };
