/** Operations (issue 19): membership levels and members. */
const memberLevel = {
  entity: '会员等级',
  tab: '会员等级',
  sortOrderHint: '数字越大等级越高；用户取其达到门槛的最高等级',
  thresholdHint: '近 12 个月已结算的消费金额（元）或充电电量（kWh）',
  validityHint: '达到等级后至少保持的天数，期满后按实际消费重新计算，可能降级',
  money: '{value} 元',
  kwh: '{value} kWh',
};

const member = {
  entity: '会员',
  tab: '会员',
  overridden: '已指定会员等级',
  clearOverride: '取消指定',
  clearOverrideConfirm: '确认取消用户“{account}”的指定等级吗？',
  overrideCleared: '已取消指定等级',
  recompute: '重新计算等级',
  recomputed: '已重新计算 {users} 个用户的等级',
};

const voucherTemplate = {
  entity: '优惠券模板',
  tab: '优惠券模板',
  valueAmountHint: '减免金额（元），从服务费中扣除，最多扣完服务费',
  valuePercentHint: '服务费折扣百分比（1–100）',
  minBillHint: '账单（优惠前）达到该金额（元）才可使用；0 表示不限',
  stationsHint: '不选表示该运营商的全部场站（绑定了场站的用户须从自己的场站中选择）',
  validityHint: '自发放起有效的天数；不填则按下方的生效日期和截止日期',
};

const voucher = {
  entity: '优惠券',
  tab: '优惠券',
  issueTitle: '发放优惠券',
  issued: '优惠券已发放',
  groupHint: '选择用户组则发给该组的每个成员',
  percent: '{value}%',
  revoke: '作废',
  revokeTitle: '作废优惠券',
  revoked: '优惠券已作废',
  choose: '指定用于充电',
  chooseTitle: '指定该优惠券用于某次充电',
  chooseHint: '输入该券持有人一条未结算充电记录的交易号：结算时若适用即使用此券',
  chosen: '已指定该次充电使用此券',
};

const activity = {
  entity: '活动',
  valueHint: '按折扣时为服务费的百分比；每度减免时为元/kWh',
  hoursHint: '只在这些本地时段（场站时区）充入的电量享受优惠；不选表示全天',
  stationsHint: '不选表示该运营商的全部场站（绑定了场站的用户须从自己的场站中选择）',
  groupsHint: '不选表示所有用户',
  percentOff: '服务费 {value}% 折扣',
  perKwhOff: '每度减 {value}',
  allDay: '全天',
  activate: '启用',
  activateConfirm: '确认启用活动“{name}”吗？启用后条款不能再修改，只能提前结束。',
  activated: '活动已启用',
  end: '结束',
  endConfirm: '确认提前结束活动“{name}”吗？此后结束的充电不再享受该优惠。',
  ended: '活动已结束',
  bonusTerms: '充值满 {min} 送 {bonus}',
  grantTerms: '“{template}”发放给{to}',
  bonusHint: '赠送到同一张卡或手机账户，在充值记录中单独成行',
};

export default { memberLevel, member, voucherTemplate, voucher, activity };
