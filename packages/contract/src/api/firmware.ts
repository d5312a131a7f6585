import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

/**
 * Remote maintenance (issue 16): firmware packages (spec §3 "Version: version, upload time,
 * uploader, note, application type, communication type") and firmware upgrades ("Firmware:
 * version, communication type, uploader, description, file, location, retries, retrieve date,
 * retry interval, status, report time"). A package is stored by the server and offered to chargers
 * as one URL under its public address with an unguessable token (DESIGN.md §10); an upgrade sends
 * UpdateFirmware to each chosen point and follows it through FirmwareStatusNotification to the
 * version the charger reports when it boots again.
 */

/** The largest package, in MB. */
export const FIRMWARE_MAX_MB = 1024;

const versionFields = {
  version: z.string().trim().min(1).max(50),
  applicationType: z.string().trim().min(1).max(50),
  communicationType: z.string().trim().min(1).max(50),
  note: optText(500),
};

/** The package's fields travel in the query string beside the multipart file. */
export const firmwareVersionCreate = z.object(versionFields);
export const firmwareVersionEdit = z.object({ id: z.number().int().positive(), ...versionFields });

export const firmwareVersionDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  version: z.string(),
  applicationType: z.string(),
  communicationType: z.string(),
  note: z.string().nullable(),
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: z.string(),
  /** What chargers are sent as UpdateFirmware's location. */
  location: z.string(),
  uploaderName: z.string().nullable(),
  uploadTime: z.string(),
});
export type FirmwareVersionDto = z.infer<typeof firmwareVersionDto>;

export const firmwareVersionFilter = z.object({
  version: optText(50),
  applicationType: optText(50),
  communicationType: optText(50),
  providerId: z.coerce.number().int().positive().optional(),
});

/**
 * Where one point stands in an upgrade: waiting for its wave (`queued`, an upgrade in waves), before
 * the charger hears of it (`pending` while it is offline), its answer, each
 * FirmwareStatusNotification, and the outcome its next boot shows (`confirmed`: it reports the
 * package's version; `notInstalled`: it booted after installing with another version;
 * `timedOut`: in an upgrade in waves, not finished within the wave's time limit).
 */
export const firmwarePointStates = [
  'queued',
  'pending',
  'sent',
  'rejected',
  'Downloading',
  'Downloaded',
  'DownloadFailed',
  'Installing',
  'Installed',
  'InstallationFailed',
  'Idle',
  'confirmed',
  'notInstalled',
  'timedOut',
] as const;
export type FirmwarePointState = (typeof firmwarePointStates)[number];
/** The states that end a point's part in an upgrade as a failure (retry sends it again). */
export const firmwareFailedStates: readonly FirmwarePointState[] = [
  'rejected',
  'DownloadFailed',
  'InstallationFailed',
  'notInstalled',
  'timedOut',
];
/**
 * Rollout in waves: a point is done with its wave once it installed the package or failed (a dead
 * charger must not hold the rollout up); the next wave is sent when every point sent so far is done.
 */
export const firmwareWaveDoneStates: readonly FirmwarePointState[] = ['Installed', 'confirmed', ...firmwareFailedStates];
/** A wave's time limit when the upgrade names none, in minutes. */
export const FIRMWARE_WAVE_TIMEOUT_MINUTES = 60;

const serialNumber = z.string().trim().min(1).max(48);

export const firmwareUpgradeCreate = z
  .object({
    serialNumbers: z.array(serialNumber).min(1).max(500),
    /** A package of version management… */
    versionId: z.number().int().positive().optional(),
    /** …offered over HTTP (default) or over the server's FTP (needs CSMS_FTP_PORT)… */
    transport: z.enum(['http', 'ftp']).optional(),
    /** …or a URL the chargers fetch themselves. */
    location: z.string().trim().max(500).optional(),
    /** When the chargers should fetch it; empty: now. Not in the past. */
    retrieveDate: z.iso.datetime({ offset: true }).optional(),
    retries: z.number().int().min(0).max(10).optional(),
    /** Seconds. */
    retryInterval: z.number().int().min(0).max(86_400).optional(),
    description: optText(500),
    /** Points per wave: the next wave is sent once each point of the ones sent is done; empty: all at once. */
    waveSize: z.number().optional(),
    /** Minutes a wave's point has to finish before it counts as failed (`timedOut`); only with waves. */
    waveTimeoutMinutes: z.number().int().min(1).max(10_080).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.waveSize !== undefined) {
      if (!Number.isInteger(v.waveSize) || v.waveSize < 1)
        ctx.addIssue({ code: 'custom', path: ['waveSize'], message: 'validation.waveSize' });
      else if (v.waveSize > v.serialNumbers.length)
        ctx.addIssue({ code: 'custom', path: ['waveSize'], message: 'validation.waveSizeTooBig', params: { n: v.serialNumbers.length } });
    }
    if (!v.versionId && !v.location) ctx.addIssue({ code: 'custom', path: ['versionId'], message: 'validation.firmwareSource' });
    if (v.versionId && v.location) ctx.addIssue({ code: 'custom', path: ['location'], message: 'validation.firmwareOneSource' });
    if (v.location && !/^(https?|ftps?):\/\/[^\s/]+/i.test(v.location))
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'validation.firmwareLocation' });
    if (new Set(v.serialNumbers.map((s) => s.toLowerCase())).size !== v.serialNumbers.length)
      ctx.addIssue({ code: 'custom', path: ['serialNumbers'], message: 'validation.duplicate' });
  });

export const firmwareUpgradePointDto = z.object({
  serialNumber: z.string(),
  /** Its wave, from 1 (every point is in wave 1 of an upgrade sent all at once). */
  wave: z.number(),
  pointName: z.string(),
  stationName: z.string(),
  state: z.enum(firmwarePointStates),
  /** The charger's own word when it refused, or why it failed. */
  reason: z.string().nullable(),
  /** The version the point reported before, and at its last boot. */
  fromVersion: z.string().nullable(),
  reportedVersion: z.string().nullable(),
  sentTime: z.string().nullable(),
  reportTime: z.string().nullable(),
});
export type FirmwareUpgradePointDto = z.infer<typeof firmwareUpgradePointDto>;

export const firmwareUpgradeDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  versionId: z.number().nullable(),
  /** The package's version; null for a typed URL. */
  version: z.string().nullable(),
  communicationType: z.string().nullable(),
  location: z.string(),
  retrieveDate: z.string(),
  retries: z.number().nullable(),
  retryInterval: z.number().nullable(),
  description: z.string().nullable(),
  /** Points per wave, and a wave's time limit in minutes; null: all at once. */
  waveSize: z.number().nullable(),
  waveTimeoutMinutes: z.number().nullable(),
  /** The last wave sent so far, and how many there are; null: all at once. */
  currentWave: z.number().nullable(),
  waveCount: z.number().nullable(),
  /** Points per state. */
  counts: z.record(z.string(), z.number()),
  total: z.number(),
  uploaderName: z.string().nullable(),
  createTime: z.string(),
  /** The last report of any of its points. */
  reportTime: z.string().nullable(),
});
export type FirmwareUpgradeDto = z.infer<typeof firmwareUpgradeDto>;

export const firmwareUpgradeFilter = z.object({
  version: optText(50),
  providerId: z.coerce.number().int().positive().optional(),
});

const versions = crud('firmwareVersion', 'config:firmwareVersion');
const upgrades = crud('firmwareUpgrade', 'config:firmwareUpgrade');

/** `/web/firmwareVersion/{action}`: version management (spec §2 `/configurationManagement/versionManage`). */
export const firmwareVersionApi = {
  list: versions.list(firmwareVersionFilter, firmwareVersionDto),
  get: versions.get(firmwareVersionDto),
  add: endpoint({
    method: 'POST',
    path: versions.path('add'),
    access: versions.permi('add'),
    resource: 'firmwareVersion',
    operation: 'add',
    query: firmwareVersionCreate,
    data: firmwareVersionDto,
    summary: `Upload a package (multipart, one file, at most ${FIRMWARE_MAX_MB} MB), streamed to the file store with its SHA-256`,
  }),
  edit: versions.edit(firmwareVersionEdit, firmwareVersionDto),
  remove: versions.remove({ summary: 'Remove packages; refused, naming the upgrade, while an upgrade still uses one' }),
  download: endpoint({
    method: 'GET',
    path: versions.path('download'),
    access: versions.permi('query'),
    resource: 'firmwareVersion',
    query: z.object({ id: z.coerce.number().int().positive() }),
    raw: 'download',
  }),
};

/** `/web/firmwareUpgrade/{action}`: firmware upgrades (the Update Firmware page). */
export const firmwareUpgradeApi = {
  list: upgrades.list(firmwareUpgradeFilter, firmwareUpgradeDto),
  get: upgrades.get(firmwareUpgradeDto),
  add: upgrades.add(firmwareUpgradeCreate, firmwareUpgradeDto, {
    summary:
      'UpdateFirmware to every chosen point online now (with waveSize: to the first wave, the next once each point sent is done); an offline one gets it when it connects again',
  }),
  export: upgrades.export(firmwareUpgradeFilter),
  points: endpoint({
    method: 'GET',
    path: upgrades.path('points'),
    access: upgrades.permi('query'),
    resource: 'firmwareUpgrade',
    query: z.object({ id: z.coerce.number().int().positive() }),
    data: z.array(firmwareUpgradePointDto),
    summary: 'Each point of an upgrade with its state, reason and report time',
  }),
  retry: upgrades.action('retry', z.object({ id: z.number().int().positive() }), z.object({ retried: z.number() }), {
    operation: 'retryFirmware',
    summary: 'UpdateFirmware again to the points of an upgrade that failed',
  }),
};
