import type { UiCatalogue } from '../zh-CN';

const provider: UiCatalogue['provider'] = {
  entity: 'provider',
  tab: 'Providers',
  mailSection: 'Mail configuration',
  mailAuthCodeKeep: 'A code is stored; leave blank to keep it',
  expirationRenew: 'Choosing one renews the validity from today; leave blank to keep it',
  testMail: 'Send test mail',
  testMailSent: 'Test mail sent to {to} (Message-ID {messageId})',
  disclaimerPage: 'Disclaimer page',
  privacyPage: 'Privacy agreement page',
  neverExpires: 'Never expires',
};
export default provider;
