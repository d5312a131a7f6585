/** System messages: the navbar bell and the messages page (spec §6, §8). */
export default {
  entity: '消息',
  title: '系统消息',
  bell: '系统消息（{n} 条未读）',
  from: '发件人',
  usernameHint: '多个用户名用逗号分隔',
  isSendHint: '同时通过短信提醒接收人',
  sendTitle: '发送消息',
  sendConfirm: '确认发送该消息吗？',
  sent: '消息发送成功',
  sendFailed: '消息发送失败',
  deleteConfirm: '确认删除消息“{title}”吗？',
  deleted: '消息删除成功',
  deleteFailed: '删除新增失败',
  searchFailed: '搜索失败',
  newTitle: '您有一条新消息',
  newText: '{from}：{title}',
};
