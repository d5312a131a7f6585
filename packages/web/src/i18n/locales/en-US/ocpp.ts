import type { UiCatalogue } from '../zh-CN';

const ocpp: UiCatalogue['ocppLog'] = {
  entity: 'OCPP log record',
  tabs: {
    config: 'Point configuration',
    log: 'OCPP log',
    diagnostics: 'Diagnostics',
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
  diagnostics: {
    requestTitle: 'Request diagnostics',
    target: 'Upload to',
    targetHttp: 'This platform, over HTTP',
    targetFtp: 'This platform, over FTP',
    targetLocation: 'Another location',
    targetHint:
      'A file uploaded to this platform can be downloaded from the list; FTP needs the platform’s FTP server on. A file sent to another location does not pass through the platform.',
    chooseStationFirst: 'Choose the station first',
    useLocationTarget: 'Choose “Another location” to type an address',
    locationHint: 'An http, https, ftp or ftps address the charge point uploads the file to.',
    window: 'Log time window',
    windowHint: 'Optional: only the log entries of this period; either end may be left open.',
    retriesHint: 'How often and how far apart the charge point retries a failed upload; empty: the charge point decides.',
    requested: 'Diagnostics requested',
    summaryTitle: 'The charge points’ answers',
    summary: '{sent} sent, {offline} offline, {rejected} refused',
    size: 'Size',
    download: 'Download',
  },
};
export default ocpp;
