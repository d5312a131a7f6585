import type { UiCatalogue } from '../zh-CN';

const material: UiCatalogue['material'] = {
  entity: 'spare part',
  partsTab: 'Parts catalogue',
  applyTab: 'Apply orders',
  import: 'Import',
  template: 'Download template',
  importTitle: 'Import spare parts',
  importHint:
    'Download the template, fill it in and upload it (xlsx, at most 1 MB). Parts number, part name, count received and provider name are required. A new parts number becomes a new part; the count of a known one is added to its stock.',
  start: 'Import',
  uploadFirst: 'Upload the template file first',
  importing: 'Importing: {done} of {total} rows checked',
  summary: '{total} rows: {imported} new parts, {restocked} parts restocked, {rejected} rejected',
  allImported: 'Every row was imported',
  noneImported: 'No row was imported',
  rejectedRows: 'Rejected rows',
  downloadReport: 'Download the import report',
  again: 'Import another',
  reportFile: 'parts-import-report',
  lowStock: 'Out of stock',
};

const materialApply: UiCatalogue['materialApply'] = {
  entity: 'apply order',
  createTitle: 'Apply for parts',
  created: 'Apply order submitted',
  approve: 'Approve',
  approveTitle: 'Approve {taskId}',
  approveHint:
    'Agreeing takes the counts from the stock of each part; it is refused when any part is short. An audit opinion is required to refuse.',
  approved: 'Decision recorded',
  flowChart: 'Flow chart',
  flowTitle: 'Flow of apply order {taskId}',
  history: 'History',
  byActor: '{name}',
  summary: 'Work order {workOrder}, station {station}, point {serialNumber}',
  chooseWorkOrder: 'Type a task ID to search the open work orders',
  chooseWorkOrderFirst: 'Choose the work order first',
  choosePart: 'Type a parts number or name to search',
  addLine: 'Add a part',
  removeLine: 'Remove',
  inStock: '{stock} in stock',
  linesHint: "The parts of the work order's provider.",
};

export { materialApply };
export default material;
