/** The error log (spec §9) and what a crashed screen shows. */
export default {
  crashedTitle: '页面出错了',
  crashedHint: '错误已报告给管理员，请刷新页面后重试。',
  reload: '刷新页面',
};
