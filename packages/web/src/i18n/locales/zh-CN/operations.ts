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

export default { memberLevel, member };
