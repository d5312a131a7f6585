import type { UiCatalogue } from '../zh-CN';

export default {
  network: 'Backend connection abnormal',
  timeout: 'Interface request timed out',
  httpStatus: 'Interface {path} {status} exception',
  unknown: 'Unknown system error, please report it to the administrator',
  downloadFailed: 'Error downloading the file, please contact the administrator!',
} satisfies UiCatalogue['request'];
