/** Reservations (issue 15 item 4): the screen's own words; fields, statuses and errors come from the contract. */
export default {
  entity: '预约',
  reserveTitle: '预约充电枪',
  sent: '已下发到充电桩',
  refused: '充电桩答复“{status}”，未能预约',
  cancel: '取消预约',
  cancelConfirm: '确认取消预约 {id}（充电桩 {serialNumber}）吗？',
  cancelled: '预约已取消',
  chooseStationFirst: '请先选择场站',
  choosePointFirst: '请先选择充电桩',
  userHint: '充电桩只为该用户的有效卡保留充电枪。',
  expiryHint: '最多为 72 小时之后；到期后预约失效。',
};
