import type { UiCatalogue } from '../zh-CN';

const kit: UiCatalogue['kit'] = {
  addTitle: 'Add {name}',
  editTitle: 'Edit {name}',
  detailTitle: '{name} details',
  inputPlaceholder: 'Enter {field}',
  selectPlaceholder: 'Select {field}',
  startDate: 'Start date',
  endDate: 'End date',
  total: '{total} in total',
  columns: 'Columns',
  showSearch: 'Show search',
  hideSearch: 'Hide search',
  batchDelete: 'Delete selected',
  deleteConfirm: 'Delete the item(s) with ID "{ids}"?',
  deleteSuccess: 'Deleted',
  exportXlsx: 'Export Excel (xlsx)',
  exportCsv: 'Export CSV',
  exporting: 'Exporting {name}',
  exportWaiting: 'Preparing data…',
  exportProgress: '{done} of {total} rows processed',
  exportDone: 'Export finished',
  exportFailed: 'Export failed',
};
export default kit;
