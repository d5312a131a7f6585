import type { UiCatalogue } from '../zh-CN';

const message: UiCatalogue['message'] = {
  entity: 'message',
  title: 'System messages',
  bell: 'System messages ({n} unread)',
  from: 'From',
  usernameHint: 'Separate several usernames with commas',
  isSendHint: 'Also remind the recipients by SMS',
  sendTitle: 'Send a message',
  sendConfirm: 'Send this message?',
  sent: 'Message sent',
  sendFailed: 'Failed to send the message',
  deleteConfirm: 'Delete the message "{title}"?',
  deleted: 'Message deleted',
  deleteFailed: 'Failed to delete the message',
  searchFailed: 'Search failed',
  newTitle: 'You have a new message',
  newText: '{from}: {title}',
};
export default message;
