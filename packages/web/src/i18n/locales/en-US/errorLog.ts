import type { UiCatalogue } from '../zh-CN';

const errorLog: UiCatalogue['errorLog'] = {
  crashedTitle: 'Something went wrong on this page',
  crashedHint: 'The error was reported to the administrators. Please reload the page and try again.',
  reload: 'Reload page',
};
export default errorLog;
