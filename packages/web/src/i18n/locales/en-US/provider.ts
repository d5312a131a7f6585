import type { UiCatalogue } from '../zh-CN';

const provider: UiCatalogue['provider'] = {
  entity: 'provider',
  tab: 'Providers',
  myTab: 'My provider',
  myNoPermission: 'You may not edit your provider’s settings',
  mailSection: 'Mail configuration',
  mailAuthCodeKeep: 'A code is stored; leave blank to keep it (type it again if you change the account, SMTP address or port)',
  expirationRenew: 'Choosing one renews the validity from today; leave blank to keep it',
  testMail: 'Send test mail',
  testMailSent: 'Test mail sent to {to} (Message-ID {messageId})',
  disclaimerPage: 'Disclaimer page',
  privacyPage: 'Privacy agreement page',
  neverExpires: 'Never expires',
  autoLocalListSyncHelp:
    "When on, cards reported lost, disabled, expired, run down to zero or newly issued reach the whitelists of all this provider's online charge points within a minute, as Differential updates.",
};
export default provider;
