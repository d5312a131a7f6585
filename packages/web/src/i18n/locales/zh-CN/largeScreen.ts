/** The large screen (issue 20 item 2): the control room's wall display. */
const largeScreen = {
  title: '充电网络实时大屏',
  open: '大屏',
  back: '返回控制台',
  fullScreen: '全屏',
  exitFullScreen: '退出全屏',
  kpi: {
    power: '当前总功率',
    energy: '今日电量',
    income: '今日收入',
    count: '今日充电次数',
    utilisation: '今日利用率',
  },
  unit: {
    kw: 'kW',
    kwh: 'kWh',
    percent: '%',
    kwValue: '{{value}} kW',
  },
  status: '枪状态',
  ranking: '今日场站收入排行',
  powerCurve: '24 小时功率曲线（kW）',
  faults: '实时故障',
  noFaults: '当前没有未恢复的故障',
  state: {
    faulted: '故障',
    charging: '充电中',
    available: '空闲',
    offline: '离线',
  },
  tooltip: '充电中 {{charging}}/{{connectors}} 枪 · {{power}} kW · 今日收入 {{income}}',
  cluster: '{{count}} 个站点',
  clusterFigures: '充电中 {{charging}}/{{connectors}} 枪 · {{power}} kW',
  truncated: '仅显示前 {{count}} 个场站',
};

export default largeScreen;
