import type { UiCatalogue } from '../zh-CN';

export default {
  empty: 'This provider has not written this yet',
  notFound: 'No such provider',
} satisfies UiCatalogue['agreement'];
