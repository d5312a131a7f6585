import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Code, translate, type DiagnosticsDto, type DiagnosticsState, type diagnosticsApi } from '@csms/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError, badField, notFound } from '../../http/errors.js';
import { external, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { contentDisposition } from '../../lib/stored-files.js';
import type { FirmwareRepo } from '../firmware/firmware.repo.js';
import type { CommandSender } from '../pointAction/pointAction.service.js';
import type { DiagnosticsRepo, DiagnosticsRow } from './diagnostics.repo.js';

/** Where received files are kept, one directory per request, under the uploads directory. */
export const DIAGNOSTICS_DIR = 'diagnostics';
/** The largest diagnostics file accepted, in MB, over HTTP and over FTP. */
const MAX_MB = 200;
export const DIAGNOSTICS_MAX_BYTES = MAX_MB * 1024 * 1024;

/** The FTP username of a diagnostics request: the password is its token. */
export const diagnosticsFtpUser = (id: number) => `diag${id}`;

const hostOf = (config: Pick<Config, 'publicUrl'>, req: FastifyRequest) =>
  config.publicUrl ? new URL(config.publicUrl).hostname : req.hostname;

/**
 * The Diagnosis page (issue 16 item 3): GetDiagnostics to each point with an upload target of its
 * own. Sending waits for chargers, so no transaction is held meanwhile (`external`).
 */
export function diagnosticsRoutes({
  repo,
  points,
  ask,
  events,
  columns,
  config,
  now = () => new Date(),
}: {
  repo: DiagnosticsRepo;
  points: Pick<FirmwareRepo, 'points'>;
  ask: CommandSender;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'ftp' | 'exportMaxRows'>;
  now?: () => Date;
}): Handlers<typeof diagnosticsApi> {
  const uploads = path.join(config.dataDir, 'uploads');
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id))?.dto ?? Promise.reject(notFound());
    },
    add: external(async ({ body, ctx, req, audit }: Parameters<Handlers<typeof diagnosticsApi>['add']>[0]) => {
      const p = ctx.principal;
      const found = await points.points(p, body.serialNumbers);
      if (found.length !== body.serialNumbers.length) throw notFound();
      audit.operand = `diagnostics:${body.serialNumbers.join(',')}`.slice(0, 255);
      const transport = body.transport ?? 'http';
      if (!body.location && transport === 'ftp' && !config.ftp) throw badField('transport', 'errors.diagnostics.ftpOff');
      const base = config.publicUrl ?? `${req.protocol}://${req.host}`;
      const rows = await repo.insert(
        found.map((x) => ({
          providerId: x.providerId,
          stationId: x.stationId,
          chargePointId: x.id,
          location: body.location ?? '',
          token: body.location ? null : randomBytes(32).toString('hex'),
          startTime: body.startTime ? new Date(body.startTime) : null,
          stopTime: body.stopTime ? new Date(body.stopTime) : null,
          retries: body.retries ?? null,
          retryInterval: body.retryInterval ?? null,
          state: 'sent' as const,
          createdBy: p.userId,
        })),
      );
      const serialOf = new Map(found.map((x) => [x.id, x.serialNumber]));
      // Each request's own target, named after its id; then every point at once.
      await Promise.all(
        rows.map(async (r) => {
          const location = body.location
            ? body.location
            : transport === 'ftp'
              ? `ftp://${diagnosticsFtpUser(r.id)}:${r.token}@${config.ftp!.host ?? hostOf(config, req)}:${config.ftp!.port}/`
              : `${base}/files/diagnostics/${r.token}`;
          const a = await ask(
            serialOf.get(r.chargePointId)!,
            'GetDiagnostics',
            {
              location,
              ...(body.retries !== undefined ? { retries: body.retries } : {}),
              ...(body.retryInterval !== undefined ? { retryInterval: body.retryInterval } : {}),
              ...(body.startTime ? { startTime: body.startTime } : {}),
              ...(body.stopTime ? { stopTime: body.stopTime } : {}),
            },
            (payload) => (typeof payload.fileName === 'string' || payload.fileName === undefined ? 'Accepted' : undefined),
          );
          const state: DiagnosticsState = a.status === 'accepted' ? 'sent' : a.status === 'offline' ? 'offline' : 'rejected';
          const fileName = a.payload && typeof a.payload.fileName === 'string' ? a.payload.fileName.slice(0, 255) : null;
          await repo.update(r.id, {
            location,
            state,
            fileName,
            reason: state === 'rejected' ? (a.chargerStatus ?? a.status) : null,
            reportedAt: now(),
          });
        }),
      );
      const out = [];
      for (const r of rows) out.push((await repo.get(p, r.id))!.dto);
      return out;
    }),
    async download({ query, ctx, reply }) {
      const found = await repo.get(ctx.principal, query.id);
      if (!found) throw notFound();
      const { row } = found;
      const full = row.storedName ? path.join(uploads, row.storedName) : undefined;
      if (!full || !fs.existsSync(full)) throw new AppError(Code.NOT_FOUND, 'errors.diagnostics.noFile', { id: row.id });
      const name = path.basename(row.storedName!);
      reply
        .headers({
          'content-type': 'application/octet-stream',
          'content-disposition': contentDisposition(name, 'attachment'),
          'download-filename': encodeURIComponent(name),
          'access-control-expose-headers': 'download-filename',
        })
        .send(fs.createReadStream(full));
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      type Row = DiagnosticsDto & Record<string, unknown>;
      const defaults: ExportColumn<Row>[] = [
        { key: 'id' },
        { key: 'stationName' },
        { key: 'serialNumber' },
        { key: 'pointName' },
        { key: 'state', value: (r) => translate(ctx.lang, `enums.diagnosticsState.${r.state}`) },
        { key: 'fileName' },
        { key: 'sizeBytes' },
        { key: 'reason' },
        // Credentials hidden, as the list shows it.
        { key: 'location' },
        { key: 'startTime' },
        { key: 'stopTime' },
        { key: 'retries' },
        { key: 'retryInterval' },
        { key: 'providerName' },
        { key: 'createdByName' },
        { key: 'createTime' },
        { key: 'reportTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'diagnostics',
        fileBase: 'diagnostics',
        format,
        columns: await columns.columnsFor('diagnostics', defaults, ctx),
        total: await repo.count(p, f),
        batches: keysetBatches((after, size) => repo.page(p, f, after, size)) as AsyncIterable<Row[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}

/**
 * What happens to a request as its charger reports and its file arrives: the notification moves
 * its state; the file, received over HTTP or FTP, is stored and the request marked received.
 */
export function createDiagnosticsReceiver({
  repo,
  config,
  now = () => new Date(),
}: {
  repo: DiagnosticsRepo;
  config: Pick<Config, 'dataDir'>;
  now?: () => Date;
}) {
  const uploads = path.join(config.dataDir, 'uploads');
  const dirOf = (id: number) => path.join(DIAGNOSTICS_DIR, String(id));
  async function stored(r: DiagnosticsRow, file: string) {
    const { size } = await fs.promises.stat(file);
    await repo.update(r.id, {
      state: 'received',
      storedName: path.join(dirOf(r.id), path.basename(file)),
      sizeBytes: size,
      fileName: r.fileName ?? path.basename(file),
      reportedAt: now(),
    });
  }
  return {
    /** The directory an FTP login of this request writes into. */
    ftpRoot: (id: number) => path.join(uploads, dirOf(id)),
    stored,
    async reported(point: { id: number }, status: string) {
      if (!['Uploading', 'Uploaded', 'UploadFailed'].includes(status)) return;
      const r = await repo.latestOpen(point.id);
      // The file may be here before the charger says it sent it.
      if (!r || r.state === 'received') return;
      await repo.update(r.id, { state: status as DiagnosticsState, reportedAt: now() });
    },
    /** `POST /files/diagnostics/{token}` (multipart, the file in any field): where chargers upload over HTTP. */
    mount(server: FastifyInstance) {
      server.post<{ Params: { token: string } }>('/files/diagnostics/:token', async (req, reply) => {
        const r = /^[0-9a-f]{64}$/.test(req.params.token) ? await repo.byToken(req.params.token) : undefined;
        // A token takes one file: once its request has received it, the address is spent.
        if (!r || r.state === 'received' || !req.isMultipart()) return reply.code(404).send();
        const part = await req.file({ limits: { fileSize: MAX_MB * 1024 * 1024, files: 1 } });
        if (!part) return reply.code(400).send();
        const name = diagnosticsFileName(part.filename, r.fileName);
        const incoming = path.join(uploads, '.incoming', randomUUID());
        await fs.promises.mkdir(path.dirname(incoming), { recursive: true });
        try {
          await pipeline(part.file, fs.createWriteStream(incoming));
          if (part.file.truncated) return reply.code(413).send();
          const full = path.join(uploads, dirOf(r.id), name);
          await fs.promises.mkdir(path.dirname(full), { recursive: true });
          await fs.promises.rename(incoming, full);
          await stored(r, full);
          return reply.code(201).send();
        } finally {
          await fs.promises.rm(incoming, { force: true });
        }
      });
    },
  };
}

/**
 * The name a charger's diagnostics file is stored under, in its request's directory: the upload's name,
 * else the one the charger gave in GetDiagnostics.conf; its last part, in safe characters, with no
 * leading dot. Never `.` or `..` (a charger answering `fileName: ".."` and uploading with no name would
 * otherwise have made a file of the diagnostics directory itself), never hidden; `diagnostics.log` when
 * nothing is left.
 */
export function diagnosticsFileName(uploaded: string | undefined, given: string | null): string {
  const name = path
    .basename(uploaded || given || '')
    .replace(/[^\w.+-]/g, '_')
    .replace(/^\.+/, '');
  return name || 'diagnostics.log';
}

export type DiagnosticsReceiver = ReturnType<typeof createDiagnosticsReceiver>;
