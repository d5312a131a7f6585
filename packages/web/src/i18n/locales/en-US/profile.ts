import type { UiCatalogue } from '../zh-CN';

const profile: UiCatalogue['profile'] = {
  title: 'Personal center',
  info: 'About me',
  edit: 'Profile',
  security: 'Security',
  passwordHint: 'After changing your password you sign in again.',
};
export default profile;
