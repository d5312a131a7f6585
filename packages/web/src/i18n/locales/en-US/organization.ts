import type { UiCatalogue } from '../zh-CN';

const organization: UiCatalogue['organization'] = {
  entity: 'organisation',
};
export default organization;
