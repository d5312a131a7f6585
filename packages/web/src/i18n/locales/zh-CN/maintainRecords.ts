/**
 * Maintenance records and vendor fault codes (issue 17): the screens' own words; the fields, the
 * components' and the actions' names and the server's errors come from the contract's catalogue.
 */
const maintainRecords = {
  componentUse: {
    entity: '维保记录',
    history: '维保记录',
    historyTitle: '充电桩 {serial} 的维保记录',
    noRecords: '该充电桩暂无维保记录',
    openList: '在维保记录中查看',
    typed: '手工填写的部件',
  },
  faultCode: {
    entity: '厂家故障码',
    title: '厂家故障码',
    hint: '充电桩自身故障码（状态通知中的厂家错误码）的处理方法。工单的推荐处理方案会显示所属运营商对该厂家错误码的条目。',
    stepsHint: '每行一个步骤。',
    providerHint: '故障码属于所选运营商，创建后不能更改。',
    saved: '厂家故障码已保存',
    removeConfirm: '确定删除厂家故障码 {code}？',
    removed: '厂家故障码已删除',
  },
};

export default maintainRecords;
