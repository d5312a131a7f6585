import type { UiCatalogue } from '../zh-CN';

const corporateTransfer: UiCatalogue['corporateTransfer'] = {
  entity: 'corporate transfer',
  createTitle: 'Register a corporate transfer',
  registered: 'Transfer registered; another user must confirm it',
  chooseProviderFirst: 'Choose the provider first',
  chooseUser: 'Type an account or phone number to search charge users',
  addLine: 'Add a line',
  chooseCard: "Type a card number to search the provider's cards",
  openReceipt: 'Open',
  removeLine: 'Remove',
  allocated: 'Allocated {sum} of {amount}',
  confirm: 'Confirm',
  confirmAsk: 'Confirm transfer {id} (reference {reference}, amount {amount}) and credit {count} accounts? This cannot be undone.',
  confirmed: 'Credited',
  reject: 'Reject',
  rejectTitle: 'Reject the transfer',
  rejected: 'Rejected',
  record: 'Transfer record',
};

const transferRecord: UiCatalogue['transferRecord'] = {
  entity: 'transfer record',
};

const invoice: UiCatalogue['invoice'] = {
  entity: 'invoice',
  createTitle: 'Apply for an invoice',
  applied: 'Invoice request submitted',
  chooseUserFirst: 'Choose the charge user first',
  total: '{count} records chosen, {amount} in all',
  issue: 'Issue',
  issueTitle: 'Issue invoice {id}',
  issueHint:
    'Receiver {account}, amount {amount}. Upload the invoice PDF; the user is then notified as asked (by mail to {email}, with the invoice attached).',
  issueHintSms: 'Receiver {account}, amount {amount}. Upload the invoice PDF; the user is then notified by SMS to {mobile}.',
  issued: 'Invoice issued',
  reject: 'Reject',
  rejectTitle: 'Reject the invoice request',
  rejected: 'Rejected; its records can be invoiced again',
};

export { corporateTransfer, transferRecord, invoice };
