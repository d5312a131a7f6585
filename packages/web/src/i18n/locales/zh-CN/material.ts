/** 备件管理：备件目录与领料单（issue 17 item 4）。 */
const material = {
  entity: '备件',
  partsTab: '备件目录',
  applyTab: '领料单',
  import: '导入',
  template: '下载模板',
  importTitle: '导入备件',
  importHint:
    '请先下载模板，按模板填写后上传（xlsx，不超过 1 MB）。备件编号、备件名称、入库数量和运营商名称必填。新的备件编号新增为备件；已有的备件编号将入库数量加到其库存上。',
  start: '开始导入',
  uploadFirst: '请先上传模板文件',
  importing: '正在导入：已检查 {done} / {total} 行',
  summary: '共 {total} 行：新增 {imported} 个备件，{restocked} 个备件入库，{rejected} 行未导入',
  allImported: '所有行均已导入',
  noneImported: '没有导入任何行',
  rejectedRows: '未导入的行',
  downloadReport: '下载导入报告',
  again: '继续导入',
  reportFile: '备件导入报告',
  lowStock: '库存为 0',
};

const materialApply = {
  entity: '领料单',
  createTitle: '申请备件',
  created: '领料单已提交',
  approve: '审批',
  approveTitle: '审批领料单 {taskId}',
  approveHint: '同意后，各备件的库存将按申请数量扣减；任一备件库存不足时不能同意。不同意时须填写审批意见。',
  approved: '审批完成',
  flowChart: '流程图',
  flowTitle: '领料单 {taskId} 流程',
  history: '审批记录',
  byActor: '{name}',
  summary: '工单 {workOrder}，场站 {station}，充电桩 {serialNumber}',
  chooseWorkOrder: '请输入工单号搜索未完成的工单',
  chooseWorkOrderFirst: '请先选择工单',
  choosePart: '输入备件编号或名称搜索',
  addLine: '添加备件',
  removeLine: '移除',
  inStock: '库存 {stock}',
  linesHint: '可申请的备件为工单所属运营商的备件。',
};

export { materialApply };
export default material;
