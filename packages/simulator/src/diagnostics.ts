import { OfflineError } from './ocpp.js';
import { transferJobs, type TransferJob } from './transfer-job.js';
import { upload } from './transfer.js';
import type { ChargePointState, PointInternals } from './types.js';

/**
 * Diagnostics (OCPP 1.6 §4.4 DiagnosticsStatusNotification, §5.9 GetDiagnostics). The point
 * answers with a file name, writes a small text file of what it knows (identity, firmware, the
 * requested time window, connection, every connector's status, meter register and transaction,
 * its configuration) and uploads it for real to the location (`transfer.ts`: http(s) as a
 * multipart POST to exactly that URL, ftp(s) into that directory): Uploading, then Uploaded or
 * UploadFailed; a failed upload is tried again `retries` times, `retryInterval` s apart, each try
 * starting with Uploading. A new GetDiagnostics replaces the upload in progress.
 */

export const DIAGNOSTICS_STATUSES = ['Idle', 'Uploaded', 'UploadFailed', 'Uploading'] as const;
export type DiagnosticsStatus = (typeof DIAGNOSTICS_STATUSES)[number];

export interface DiagnosticsRequest {
  location: string;
  /** Tries after the first failed upload. */
  retries: number;
  retryIntervalS: number;
  /** Epoch ms: the window the CSMS asked about. */
  startTime?: number;
  stopTime?: number;
}

export interface DiagnosticsEvent {
  status: DiagnosticsStatus;
  fileName: string;
  location: string;
  attempt: number;
  /** The file's size in bytes. */
  bytes: number;
  error?: Error;
}

/** What the file describes, read when it is written. */
export interface DiagnosticsSource {
  vendor: string;
  model: string;
  firmwareVersion: string;
  firmwareStatus: string;
  state: ChargePointState;
  configuration: { key: string; value?: string; readonly: boolean }[];
}

export interface Diagnostics {
  /** The last status of the upload in progress; Idle when there is none. */
  status(): DiagnosticsStatus;
  /** The file name to answer with, and the upload to start once the answer is sent (cancelling the one in progress). */
  request(r: DiagnosticsRequest): { fileName: string; start(): void };
  halt(): void;
}

type Deps = Pick<PointInternals, 'serialNumber' | 'scheduler' | 'now' | 'iso' | 'online' | 'call' | 'emit'>;

interface Job extends TransferJob {
  request: DiagnosticsRequest;
  fileName: string;
  content: string;
}

/** `diagnostics-<serial>-<yyyymmddThhmmssZ>.log`, the serial reduced to characters safe in a file name. */
export function diagnosticsFileName(serialNumber: string, atMs: number): string {
  const stamp = new Date(atMs)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `diagnostics-${serialNumber.replace(/[^\w.-]/g, '_')}-${stamp}.log`;
}

export function diagnosticsContent(serialNumber: string, generatedAt: string, r: DiagnosticsRequest, s: DiagnosticsSource): string {
  const when = (ms: number | undefined) => (ms === undefined ? 'open' : new Date(ms).toISOString());
  const st = s.state;
  const lines = [
    `# Diagnostics of charge point ${serialNumber}`,
    `generatedAt: ${generatedAt}`,
    `window: ${when(r.startTime)} .. ${when(r.stopTime)}`,
    `vendor: ${s.vendor}`,
    `model: ${s.model}`,
    `firmwareVersion: ${s.firmwareVersion}`,
    `firmwareStatus: ${s.firmwareStatus}`,
    `connection: ${st.connection}`,
    `registration: ${st.registration}`,
    `heartbeatIntervalS: ${st.heartbeatIntervalS}`,
    `queuedMessages: ${st.queuedMessages}`,
    `localListVersion: ${st.localListVersion}`,
    '',
    '[connectors] id status errorCode energyRegisterWh powerW …',
    ...st.connectors.map((c) =>
      [
        c.connectorId,
        c.status,
        c.errorCode,
        `energy=${c.energyRegisterWh}Wh`,
        `power=${c.powerW}W`,
        c.plugged ? 'plugged' : 'unplugged',
        c.operative ? 'operative' : 'inoperative',
        ...(c.transactionId !== undefined ? [`transactionId=${c.transactionId}`] : []),
        ...(c.idTag !== undefined ? [`idTag=${c.idTag}`] : []),
        ...(c.soc !== undefined ? [`soc=${c.soc}%`] : []),
        ...(c.limitW !== undefined ? [`limit=${c.limitW}W`] : []),
        ...(c.reservationId !== undefined ? [`reservationId=${c.reservationId}`] : []),
      ].join(' '),
    ),
    '',
    '[configuration]',
    ...s.configuration.map((k) => `${k.key}=${k.value ?? ''}${k.readonly ? ' (read-only)' : ''}`),
    '',
  ];
  return lines.join('\n');
}

export function createDiagnostics(p: Deps, source: () => DiagnosticsSource): Diagnostics {
  let status: DiagnosticsStatus = 'Idle';

  function report(j: Job, s: DiagnosticsStatus, error?: Error) {
    status = s;
    const bytes = Buffer.byteLength(j.content);
    p.emit('diagnostics', {
      status: s,
      fileName: j.fileName,
      location: j.request.location,
      attempt: j.attempt,
      bytes,
      ...(error ? { error } : {}),
    });
    if (!p.online()) return;
    p.call('DiagnosticsStatusNotification', { status: s }).catch((err: unknown) => {
      if (!(err instanceof OfflineError)) p.emit('warning', { message: 'DiagnosticsStatusNotification failed', error: err });
    });
  }

  const jobs = transferJobs<Job>(p, { failure: 'diagnostics upload failed', idle: () => (status = 'Idle'), attempt });

  async function attempt(j: Job, signal: AbortSignal) {
    report(j, 'Uploading');
    try {
      await upload(j.request.location, j.fileName, j.content, signal);
    } catch (err) {
      if (j.cancelled) return;
      const retrying = jobs.retryLater(j);
      report(j, 'UploadFailed', err instanceof Error ? err : new Error(String(err)));
      if (!retrying) jobs.finish(j);
      return;
    }
    if (j.cancelled) return;
    report(j, 'Uploaded');
    jobs.finish(j);
  }

  return {
    status: () => status,
    request(r) {
      const fileName = diagnosticsFileName(p.serialNumber, p.now());
      return {
        fileName,
        start() {
          const content = diagnosticsContent(p.serialNumber, p.iso(), r, source());
          const j: Job = { request: r, fileName, content, attempt: 0, cancelled: false };
          jobs.begin(j);
          jobs.run(j);
        },
      };
    },
    halt: () => jobs.cancel(),
  };
}
