/** Operation and financial statistics (issue 20 items 3, 4). Table columns take the contract's field names (with units). */
const statsReport = {
  period: '统计周期',
  range: '日期范围',
  provider: '运营商',
  station: '站点',
  point: '充电桩',
  allProviders: '全部运营商',
  allStations: '全部站点',
  allPoints: '全部充电桩',
  zone: '按 {tz} 时区统计',
  export: '导出',
  empty: '该周期内没有数据',
};

const operateStatistics = {
  sessions: '充电次数',
  energy: '充电量（kWh）',
  chargingTime: '充电时长（小时）',
  utilisation: '利用率（%）',
  idleTime: '空闲时长（小时）',
  averageSession: '平均充电时长（分钟）',
  faults: '故障次数',
  faultRate: '故障率（%）',
  utilisationHint: '利用率 = 枪口充电时长 ÷ 枪口在线时长（枪口数 × 周期内已过时长）',
  faultRateHint: '故障率 = 周期内有故障的充电桩 ÷ 充电桩总数',
  perDay: '每日充电次数与充电量',
  heatmap: '开始充电时间分布（星期 × 小时）',
  topStations: '充电量最高的站点',
  bottomStations: '充电量最低的站点',
  topPoints: '充电量最高的充电桩',
  bottomPoints: '充电量最低的充电桩',
  table: '明细',
  weekdays: { mon: '周一', tue: '周二', wed: '周三', thu: '周四', fri: '周五', sat: '周六', sun: '周日' },
  hour: '{h} 时',
  starts: '开始次数',
};

const financialStatistics = {
  income: '实收（元）',
  elecFee: '电费（元）',
  serviceFee: '服务费（元）',
  reserveFee: '预约费（元）',
  discounts: '优惠（元）',
  recharges: '充值（元）',
  refunds: '退款（元）',
  transfers: '对公转账（元）',
  invoiced: '已开票（元）',
  outstanding: '期末账户余额（元）',
  groupBy: '分组',
  perDay: '每日实收、优惠、充值与退款（元）',
  byKind: '按费用类型的收入（元）',
  table: '明细',
  settledHint: '账单按结算日计入；充值、退款、转账与余额按运营商统计，站点无此数据',
};

export default { statsReport, operateStatistics, financialStatistics };
