import type { UiCatalogue } from '../zh-CN';

const systemLog: UiCatalogue['systemLog'] = {
  entity: 'system log',
};
export default systemLog;
