/** Smart charging (issue 15): the page's tabs and the charging profiles tab. */
const smart = {
  smart: {
    tabs: { chargingProfile: '中心系统智能充电' },
  },
  chargingProfile: {
    entity: '充电配置',
    send: '下发',
    sendConfirm: '将充电配置 {id} 下发到它的 {count} 个充电桩/充电枪？',
    sendTitle: '下发结果：充电配置 {id}',
    sentSummary: '{accepted}/{total} 个已接受',
    clear: '清除',
    clearTitle: '在充电桩上清除充电配置',
    clearHint: '充电桩会删除与下列条件全部匹配的配置；只填充电配置编号时只删除这一个。',
    clearThis: '仅清除本配置（编号 {id}）',
    clearMatching: '按条件清除',
    clearedSummary: '充电桩已清除，{count} 个平台记录标记为已清除',
    inForce: '充电桩上的配置',
    inForceTitle: '充电桩 {serialNumber} 持有的充电配置',
    inForceEmpty: '该充电桩没有生效中的充电配置',
    pickPoint: '选择充电桩',
    periodsHint: '各时段从计划开始后的第几秒起生效；第一个时段从 0 秒开始。',
    addPeriod: '添加时段',
    removePeriod: '删除时段',
    connectorPoint: '0（整桩）',
    chooseStationFirst: '请先选择场站',
    targetsTitle: '下发对象与应答',
  },
};
export default smart;
