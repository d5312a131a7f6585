import type { UiCatalogue } from '../zh-CN';

export default {
  appTitle: 'CSMS',
  systemPrompt: 'System prompt',
  confirm: 'OK',
  cancel: 'Cancel',
  ok: 'OK',
  close: 'Close',
  save: 'Save',
  submit: 'Submit',
  search: 'Search',
  reset: 'Reset',
  add: 'Add',
  edit: 'Edit',
  delete: 'Delete',
  detail: 'Details',
  export: 'Export',
  refresh: 'Refresh',
  more: 'More',
  actions: 'Actions',
  loading: 'Loading',
  success: 'Success',
} satisfies UiCatalogue['common'];
