import type { UiCatalogue } from '../zh-CN';

const ocpp: UiCatalogue['ocppLog'] = {
  entity: 'OCPP log record',
  tabs: {
    config: 'Point configuration',
    log: 'OCPP log',
  },
  config: {
    point: 'Charge point',
    pointPlaceholder: 'Choose a charge point',
    read: 'Read configuration',
    choosePoint: 'Choose a charge point to read its configuration',
    filter: 'Filter keys',
    readonly: 'Read-only',
    writable: 'Writable',
    edit: 'Edit',
    editTitle: 'Change {key}',
    unknownKeys: 'Keys the charge point does not know: {keys}',
    noValue: '(no value)',
  },
  log: {
    unanswered: 'Unanswered',
  },
};
export default ocpp;
