import type zh from '../zh-CN/maintenance';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

const maintenance: Strings<typeof zh> = {
  firmware: {
    tabs: { versions: 'Firmware versions', upgrades: 'Firmware upgrades' },
    upload: 'Upload firmware',
    uploadTitle: 'Upload a firmware package',
    pickFile: 'Choose file',
    fileHint: 'One file, at most {n} MB.',
    uploading: 'Uploading: {percent}%',
    processing: 'Checking and storing…',
    uploaded: 'Firmware uploaded',
    size: 'Size',
    download: 'Download',
    copyUrl: 'Copy download URL',
    urlCopied: 'The chargers’ download URL was copied',
    urlTitle: 'Chargers’ download URL',
    urlHint: 'It holds a random token: keep it private.',
    source: 'Firmware source',
    sourceVersion: 'A package of version management',
    sourceLocation: 'A download URL',
    chooseStationFirst: 'Choose the station first',
    useVersionSource: '“A download URL” is chosen',
    useLocationSource: '“A package of version management” is chosen',
    locationHint: 'An http, https, ftp or ftps address the chargers download themselves.',
    retrieveHint: 'Empty: download now. Not in the past.',
    retriesHint: 'Empty: the charger decides.',
    retriesInterval: 'Retries / interval (s)',
    newUpgradeTitle: 'New firmware upgrade',
    created: 'Created; offline points get it when they connect',
    points: 'Progress',
    pointsTitle: 'Points of firmware upgrade {id}',
    pointsHint: 'Refreshes every 3 seconds.',
    pointsEmpty: 'This upgrade has no points',
    versionChange: 'Previous → reported version',
    retry: 'Retry failed points',
    retried: 'Sent again to {n} points',
  },
  firmwareVersion: { entity: 'firmware version' },
  firmwareUpgrade: { entity: 'firmware upgrade' },
};
export default maintenance;
