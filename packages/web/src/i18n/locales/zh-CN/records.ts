/**
 * Records (charging records with their bills, process data and print page; alarm records) and the
 * dashboard statistics. One group per resource (the kit reads `<resource>.entity`), spread into the
 * catalogue by index.ts. Field names, enum labels and server messages come from the contract.
 */
export default {
  chargeRecord: {
    entity: '充电记录',
    detail: '详情',
    print: '打印账单',
    confirm: '确认记录',
    confirmQuestion: '交易 {id} 的电表数据未通过校验（{reason}）。确认后将按现有电表数据结算并扣费，确定要确认吗？',
    confirmDone: '记录已确认',
    pageTitles: { detail: '充电记录详情', print: '充电账单' },
    detailTitle: '充电记录 {id}',
    back: '返回',
    loadFailed: '充电记录加载失败',
    sections: { session: '充电信息', bill: '账单', process: '过程数据' },
    invalidAlert: '该记录的电表数据未通过校验：{reason}。在操作员确认之前不会结算。',
    confirmedAlert: '该记录的电表数据未通过校验（{reason}），已由 {name} 于 {time} 确认。',
    lateStopAlert: '充电桩在该记录已按“未上报结束”关闭后，于 {time} 补报了结束，记录已按实际结束更新。',
    adjustedAlert: '账单已于结算后按实际结束调整 {amount}（见调整明细与余额流水）。',
    adjustmentTag: '调整',
    notBilledAlert: '该记录尚未结算：{reason}',
    waitingBill: '尚未结算',
    noLines: '没有账单明细',
    noSamples: '该次充电没有过程数据',
    thinned: '数据点较多，已均匀抽样显示',
    total: '合计',
    listTimeZoneNote: '时间按各场站所在时区显示，鼠标悬停在时间上可查看时区。',
    bill: {
      title: '充电账单',
      printButton: '打印',
      billNo: '账单编号',
      provider: '运营商',
      customer: '客户',
      session: '充电信息',
      lines: '计费明细',
      summary: '费用汇总',
      printedAt: '打印时间',
      timeZoneNote: '时间按场站所在时区（{tz}）显示。',
      unbilledNote: '该记录尚未结算，以下金额不代表实际扣费。',
      thanks: '感谢您的使用！',
    },
  },
  alarmRecord: {
    entity: '告警记录',
    timeZoneNote: '时间按各场站所在时区显示，鼠标悬停在时间上可查看时区。',
  },
  statistics: {
    today: {
      title: '今日概况',
      energy: '今日电量（kWh）',
      income: '今日收入（元）',
      count: '今日充电次数',
      utilisation: '枪口利用率（%）',
      hint: '按 {tz} 时区统计，充电按开始时间计入当天。利用率：充电枪充电时长 ÷ 充电枪在线时长，自各站点当地零点起',
    },
    assets: {
      title: '资产统计',
      stations: '充电站',
      points: '充电桩',
      kinds: '交流 {ac} · 直流 {dc} · 交直流 {acdc}',
      connectors: '充电枪',
      chargeUsers: '充电用户',
      cards: '充电卡',
    },
    trend: {
      title: '收入趋势',
      income: '收入（元）',
      label: '收入趋势图',
    },
  },
};
