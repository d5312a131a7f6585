import { OfflineError } from './ocpp.js';
import { transferJobs, type TransferJob } from './transfer-job.js';
import { download, type Downloaded } from './transfer.js';
import type { PointInternals } from './types.js';

/**
 * Firmware updates (OCPP 1.6 §4.5 FirmwareStatusNotification, §5.19 UpdateFirmware). At
 * retrieveDate (at once if it has passed) the point downloads the file for real (`transfer.ts`),
 * reporting Downloading, then Downloaded or DownloadFailed; a failed download is tried again
 * `retries` times, `retryInterval` s apart, each try starting with Downloading. A downloaded file
 * is installed (Installing, then Installed or InstallationFailed) and, once the CSMS has heard
 * Installed, the point reboots (a hard reset) and boots with the new firmwareVersion. A new
 * UpdateFirmware replaces the update in progress. Knobs make an install fail as real chargers
 * do: a file whose SHA-256 is not the expected one, or `failInstall`.
 */

export const FIRMWARE_STATUSES = [
  'Downloaded',
  'DownloadFailed',
  'Downloading',
  'Idle',
  'InstallationFailed',
  'Installing',
  'Installed',
] as const;
export type FirmwareStatus = (typeof FIRMWARE_STATUSES)[number];

export interface FirmwareOptions {
  /** Lower- or upper-case hex: a downloaded file with another SHA-256 fails to install. */
  expectSha256?: string;
  /** Every install fails (InstallationFailed, no reboot, version unchanged). */
  failInstall?: boolean;
}

export interface FirmwareRequest {
  location: string;
  /** Epoch ms. */
  retrieveAt: number;
  /** Tries after the first failed download. */
  retries: number;
  retryIntervalS: number;
}

export interface FirmwareEvent {
  status: FirmwareStatus;
  location: string;
  /** 1 for the first download, 2 for the first retry… */
  attempt: number;
  /** Downloaded: the file's size and SHA-256. */
  bytes?: number;
  sha256?: string;
  /** Installed: the version the point boots with. */
  version?: string;
  /** DownloadFailed, InstallationFailed: why. */
  error?: Error;
}

export interface Firmware {
  /** The version BootNotification reports. */
  version(): string;
  /** The last status of the update in progress; Idle when there is none. */
  status(): FirmwareStatus;
  /** Starts an update, cancelling the one in progress. */
  update(request: FirmwareRequest): void;
  /** Changes how the next installs behave. */
  configure(options: FirmwareOptions): void;
  halt(): void;
}

type Deps = Pick<PointInternals, 'scheduler' | 'now' | 'online' | 'call' | 'emit' | 'reboot'>;

/** Longest firmwareVersion of BootNotification (CiString50). */
const MAX_VERSION = 50;
const VERSION_LINE = /^version\s*[:=]\s*(.*?)\s*$/i;

/**
 * The version a file brings: its first line when it reads `version: <v>` or `version=<v>`
 * (any case), else the last segment of the URL's path without its extension
 * (`…/fw-2.0.1.bin` → `fw-2.0.1`); undefined when neither names one.
 */
export function firmwareVersionOf(head: Buffer, location: string): string | undefined {
  const firstLine = head.toString('utf8').split('\n')[0]!.replace(/\r$/, '');
  const named = VERSION_LINE.exec(firstLine)?.[1];
  if (named) return named.slice(0, MAX_VERSION);
  let segment: string | undefined;
  try {
    segment = new URL(location).pathname.split('/').filter(Boolean).at(-1);
    segment = segment && decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const name = segment?.replace(/\.[^.]*$/, '');
  return name ? name.slice(0, MAX_VERSION) : undefined;
}

interface Job extends TransferJob {
  request: FirmwareRequest;
}

export function createFirmware(p: Deps, initialVersion: string, initialOptions: FirmwareOptions = {}): Firmware {
  let version = initialVersion;
  let options = initialOptions;
  let status: FirmwareStatus = 'Idle';

  /** Sends the status (when online); resolves once answered or failed. */
  function report(j: Job, s: FirmwareStatus, extra: Partial<FirmwareEvent> = {}): Promise<void> {
    status = s;
    p.emit('firmware', { status: s, location: j.request.location, attempt: j.attempt, ...extra });
    if (!p.online()) return Promise.resolve();
    return p.call('FirmwareStatusNotification', { status: s }).then(
      () => undefined,
      (err: unknown) => {
        if (!(err instanceof OfflineError)) p.emit('warning', { message: 'FirmwareStatusNotification failed', error: err });
      },
    );
  }

  const jobs = transferJobs<Job>(p, { failure: 'firmware update failed', idle: () => (status = 'Idle'), attempt });

  async function attempt(j: Job, signal: AbortSignal) {
    void report(j, 'Downloading');
    let file: Downloaded;
    try {
      file = await download(j.request.location, signal);
    } catch (err) {
      if (j.cancelled) return;
      const error = err instanceof Error ? err : new Error(String(err));
      const retrying = jobs.retryLater(j);
      void report(j, 'DownloadFailed', { error });
      if (!retrying) jobs.finish(j);
      return;
    }
    if (j.cancelled) return;
    void report(j, 'Downloaded', { bytes: file.bytes, sha256: file.sha256 });
    void report(j, 'Installing');
    const expected = options.expectSha256?.trim().toLowerCase() || undefined;
    const problem =
      expected !== undefined && expected !== file.sha256
        ? `SHA-256 ${file.sha256} is not the expected ${expected}`
        : options.failInstall
          ? 'installation fails on purpose (failInstall)'
          : undefined;
    if (problem) {
      void report(j, 'InstallationFailed', { error: new Error(problem) });
      jobs.finish(j);
      return;
    }
    // Installed: the point runs the new firmware from its next boot, whatever comes after.
    version = firmwareVersionOf(file.head, j.request.location) ?? version;
    await report(j, 'Installed', { version });
    if (j.cancelled) return;
    jobs.finish(j);
    p.reboot('Hard');
  }

  return {
    version: () => version,
    status: () => status,
    update(request) {
      const j: Job = { request, attempt: 0, cancelled: false };
      jobs.begin(j);
      if (request.retrieveAt <= p.now()) jobs.run(j);
      else j.task = p.scheduler.at(request.retrieveAt, () => jobs.run(j));
    },
    configure(o) {
      options = o;
    },
    halt: () => jobs.cancel(),
  };
}
