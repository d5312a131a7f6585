/** Point configuration (GetConfiguration / ChangeConfiguration) and the OCPP log; field names come from the contract's vocabulary. */
export default {
  entity: 'OCPP 日志',
  tabs: {
    config: '充电桩配置',
    log: 'OCPP 日志',
  },
  config: {
    point: '充电桩',
    pointPlaceholder: '请选择充电桩',
    read: '读取配置',
    choosePoint: '请选择充电桩后读取它的配置',
    filter: '筛选配置项',
    readonly: '只读',
    writable: '可修改',
    edit: '修改',
    editTitle: '修改配置项 {key}',
    unknownKeys: '充电桩不认识的配置项：{keys}',
    noValue: '（无值）',
  },
  log: {
    unanswered: '未应答',
  },
};
