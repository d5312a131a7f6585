import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import send from '@fastify/send';
import {
  FIRMWARE_MAX_MB,
  fieldLabel,
  firmwarePointStates,
  hasBadText,
  translate,
  type FirmwareUpgradeDto,
  type firmwareUpgradeApi,
  type firmwareVersionApi,
} from '@csms/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { external, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { contentDisposition } from '../../lib/stored-files.js';
import type { FirmwareRepo } from './firmware.repo.js';
import type { FirmwareUpgrades } from './firmware.service.js';

/** Where packages are kept, under the uploads directory (shared storage when several nodes run). */
const FIRMWARE_DIR = 'firmware';

/** The server's address as chargers reach it: CSMS_PUBLIC_URL, else the host the operator's request came to. */
const baseOf = (config: Pick<Config, 'publicUrl'>, req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;

/** Version management (spec §2 versionManage): packages streamed to the file store, each with its SHA-256 and size. */
export function firmwareVersionRoutes({
  repo,
  config,
}: {
  repo: FirmwareRepo;
  config: Pick<Config, 'dataDir' | 'publicUrl'>;
}): Handlers<typeof firmwareVersionApi> {
  const uploads = path.join(config.dataDir, 'uploads');
  return {
    async list({ query, ctx, req }) {
      const { page, limit, ...f } = query;
      return repo.versions(ctx.principal, f, page, limit, baseOf(config, req));
    },
    async get({ query, ctx, req }) {
      return (await repo.version(ctx.principal, query.id, baseOf(config, req)))?.dto ?? Promise.reject(notFound());
    },
    // Streams the file from the client: no transaction is held open meanwhile.
    add: external(async ({ query, ctx, req, audit }: Parameters<Handlers<typeof firmwareVersionApi>['add']>[0]) => {
      const p = ctx.principal;
      audit.operand = `firmware:${query.version}`;
      if (await repo.versionNamed(p.providerId, query.version))
        throw badField('version', 'errors.firmware.duplicateVersion', { version: query.version });
      if (!req.isMultipart()) throw badField('file', 'errors.firmware.fileMissing');
      const part = await req.file({ limits: { fileSize: FIRMWARE_MAX_MB * 1024 * 1024, files: 1 } });
      if (!part) throw badField('file', 'errors.firmware.fileMissing');
      const fileName =
        path
          .basename(part.filename)
          .replace(/[^\w.+-]/g, '_')
          .slice(0, 200) || 'firmware.bin';
      if (hasBadText(part.filename)) {
        part.file.resume();
        throw badField('file', 'validation.badCharacter', { field: fieldLabel(ctx.lang, 'firmwareVersion', 'file') });
      }
      // In a directory of its own under its own name: the FTP server offers that directory to the charger.
      const storedName = path.join(FIRMWARE_DIR, randomUUID(), fileName);
      const full = path.join(uploads, storedName);
      const incoming = path.join(uploads, '.incoming', randomUUID());
      await fs.promises.mkdir(path.dirname(incoming), { recursive: true });
      try {
        const hash = createHash('sha256');
        let size = 0;
        await pipeline(
          part.file,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              hash.update(chunk);
              size += chunk.length;
              yield chunk;
            }
          },
          fs.createWriteStream(incoming),
        );
        if (part.file.truncated) throw badField('file', 'errors.firmware.tooLarge', { n: FIRMWARE_MAX_MB });
        if (size === 0) throw badField('file', 'errors.firmware.fileMissing');
        await fs.promises.mkdir(path.dirname(full), { recursive: true });
        await fs.promises.rename(incoming, full);
        const id = await repo
          .insertVersion({
            providerId: p.providerId,
            version: query.version,
            applicationType: query.applicationType,
            communicationType: query.communicationType,
            note: query.note || null,
            storedName,
            fileName,
            sizeBytes: size,
            sha256: hash.digest('hex'),
            token: randomBytes(32).toString('hex'),
            uploadedBy: p.userId,
          })
          .catch(async (err: unknown) => {
            await fs.promises.rm(full, { force: true });
            // Two uploads of one version at once: the second finds the first.
            if (await repo.versionNamed(p.providerId, query.version))
              throw badField('version', 'errors.firmware.duplicateVersion', { version: query.version });
            throw err;
          });
        audit.operand = `firmware:${id}`;
        return (await repo.version(p, id, baseOf(config, req)))!.dto;
      } finally {
        await fs.promises.rm(incoming, { force: true });
      }
    }),
    async edit({ body, ctx, req, audit }) {
      const p = ctx.principal;
      const found = await repo.version(p, body.id, baseOf(config, req));
      if (!found) throw notFound();
      audit.operand = `firmware:${body.id}`;
      if (await repo.versionNamed(found.row.providerId, body.version, body.id))
        throw badField('version', 'errors.firmware.duplicateVersion', { version: body.version });
      await repo.updateVersion(body.id, {
        version: body.version,
        applicationType: body.applicationType,
        communicationType: body.communicationType,
        note: body.note || null,
      });
      return (await repo.version(p, body.id, baseOf(config, req)))!.dto;
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visibleVersions(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `firmware:${found.map((v) => v.version).join(',')}`.slice(0, 255);
      const used = await repo.upgradeUsing(body.ids);
      if (used) {
        const v = found.find((x) => x.id === used.versionId)!;
        throw conflict('errors.firmware.inUse', { version: v.version, id: used.id }, 'ids');
      }
      const removed = await repo.removeVersions(body.ids);
      // The rows are gone with this transaction; their files follow (a leftover file is harmless, a missing one is not).
      for (const v of removed) {
        const file = path.join(uploads, v.storedName);
        await fs.promises.rm(file, { force: true });
        // Its own directory, once empty (never the firmware directory itself).
        if (path.dirname(v.storedName) !== FIRMWARE_DIR) await fs.promises.rmdir(path.dirname(file)).catch(() => {});
      }
      return { removed: removed.length };
    },
    async download({ query, ctx, req, reply }) {
      const found = await repo.version(ctx.principal, query.id, baseOf(config, req));
      if (!found) throw notFound();
      const full = path.join(uploads, found.row.storedName);
      if (!fs.existsSync(full)) throw notFound();
      reply
        .headers({
          'content-type': 'application/octet-stream',
          'content-disposition': contentDisposition(found.row.fileName, 'attachment'),
          'content-length': String(found.row.sizeBytes),
          'download-filename': encodeURIComponent(found.row.fileName),
          'access-control-expose-headers': 'download-filename',
        })
        .send(fs.createReadStream(full));
    },
  };
}

/** Firmware upgrades (the Update Firmware page). */
export function firmwareUpgradeRoutes({
  repo,
  upgrades,
  uow,
  events,
  columns,
  config,
  onError,
  now = () => new Date(),
}: {
  repo: FirmwareRepo;
  upgrades: Pick<FirmwareUpgrades, 'sendPending'>;
  uow: Pick<UnitOfWork, 'afterCommit'>;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'publicUrl' | 'ftp' | 'exportMaxRows'>;
  onError: (err: unknown) => void;
  now?: () => Date;
}): Handlers<typeof firmwareUpgradeApi> {
  /** Sent once committed, in the background: a large upgrade answers at once, and the page follows each point. */
  const sendLater = (id: number) => uow.afterCommit(() => void upgrades.sendPending(id).catch(onError));
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.upgrades(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.upgrade(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async points({ query, ctx }) {
      if (!(await repo.upgrade(ctx.principal, query.id))) throw notFound();
      return repo.upgradePoints(ctx.principal, query.id);
    },
    async add({ body, ctx, req, audit }) {
      const p = ctx.principal;
      let location = body.location ?? '';
      const found = new Map((await repo.points(p, body.serialNumbers)).map((x) => [x.serialNumber, x]));
      // In the operator's order: the first points chosen make the first wave.
      const points = body.serialNumbers.map((sn) => found.get(sn));
      if (points.some((x) => x === undefined)) throw notFound();
      // The upgrade is its points' provider's: its people follow it, and nobody else's. One provider per upgrade.
      const providerId = points[0]!.providerId;
      if (points.some((x) => x!.providerId !== providerId)) throw badField('serialNumbers', 'errors.firmware.pointsOfProviders');
      if (body.versionId) {
        const v = await repo.version(p, body.versionId, baseOf(config, req));
        if (!v) throw notFound();
        // A package of the points' provider or of one above it: not a sibling's, whose file its chargers would fetch.
        if (!(await repo.isAbove(v.row.providerId, providerId))) throw badField('versionId', 'errors.firmware.versionNotOfProvider');
        if (body.transport === 'ftp') {
          if (!config.ftp) throw badField('transport', 'errors.diagnostics.ftpOff');
          const host = config.ftp.host ?? (config.publicUrl ? new URL(config.publicUrl).hostname : req.hostname);
          location = `ftp://firmware:${v.row.token}@${host}:${config.ftp.port}/${encodeURIComponent(v.row.fileName)}`;
        } else location = v.dto.location;
      }
      const retrieveAt = body.retrieveDate ? new Date(body.retrieveDate) : now();
      // A minute's grace for the clock of the operator's browser.
      if (retrieveAt.getTime() < now().getTime() - 60_000) throw badField('retrieveDate', 'errors.firmware.retrievePast');
      const id = await repo.insertUpgrade(
        {
          providerId,
          versionId: body.versionId ?? null,
          location,
          retrieveAt,
          retries: body.retries ?? null,
          retryInterval: body.retryInterval ?? null,
          description: body.description || null,
          waveSize: body.waveSize ?? null,
          waveTimeoutMinutes: body.waveSize ? (body.waveTimeoutMinutes ?? null) : null,
          createdBy: p.userId,
        },
        points as NonNullable<(typeof points)[number]>[],
        now(),
      );
      audit.operand = `firmwareUpgrade:${id}`;
      sendLater(id);
      return (await repo.upgrade(p, id))!;
    },
    async retry({ body, ctx, audit }) {
      if (!(await repo.upgrade(ctx.principal, body.id))) throw notFound();
      audit.operand = `firmwareUpgrade:${body.id}`;
      const retried = await repo.resetFailed(body.id, now(), ctx.principal.stationIds);
      if (retried === 0) throw conflict('errors.firmware.nothingToRetry', {}, 'id');
      sendLater(body.id);
      return { retried };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      type Row = FirmwareUpgradeDto & Record<string, unknown>;
      const state = (s: string) => translate(ctx.lang, `enums.firmwarePointState.${s}`);
      const defaults: ExportColumn<Row>[] = [
        { key: 'id' },
        { key: 'version', value: (r) => r.version ?? '' },
        { key: 'location' },
        { key: 'communicationType' },
        { key: 'retrieveDate' },
        { key: 'retries' },
        { key: 'retryInterval' },
        { key: 'waveSize' },
        { key: 'currentWave', value: (r) => (r.currentWave === null ? '' : `${r.currentWave}/${r.waveCount}`) },
        { key: 'total' },
        {
          key: 'counts',
          value: (r) =>
            firmwarePointStates
              .filter((s) => r.counts[s])
              .map((s) => `${state(s)} ${r.counts[s]}`)
              .join(translate(ctx.lang, 'validation.listSeparator')),
        },
        { key: 'description' },
        { key: 'providerName' },
        { key: 'uploaderName' },
        { key: 'createTime' },
        { key: 'reportTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'firmwareUpgrade',
        fileBase: 'firmwareUpgrade',
        format,
        columns: await columns.columnsFor('firmwareUpgrade', defaults, ctx),
        total: await repo.countUpgrades(p, f),
        batches: keysetBatches((after, size) => repo.upgradePage(p, f, after, size)) as AsyncIterable<Row[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}

/**
 * The packages as chargers fetch them: `GET /files/firmware/{token}/{name}`, no session (a charger
 * has none), the token being the secret; streamed, with range requests (a charger resuming a
 * download). Unknown tokens answer 404 like unknown files.
 */
export function firmwareFiles(server: FastifyInstance, { repo, config }: { repo: FirmwareRepo; config: Pick<Config, 'dataDir'> }) {
  const root = path.join(config.dataDir, 'uploads');
  server.get<{ Params: { token: string; name: string } }>('/files/firmware/:token/:name', async (req, reply) => {
    const v = /^[0-9a-f]{64}$/.test(req.params.token) ? await repo.versionByToken(req.params.token) : undefined;
    if (!v) return reply.code(404).send();
    const { statusCode, headers, stream } = await send(req.raw, `/${v.storedName}`, { root, dotfiles: 'deny', cacheControl: false });
    if (statusCode >= 400 && statusCode !== 416) {
      stream.resume();
      return reply.code(statusCode).send();
    }
    return reply
      .code(statusCode)
      .headers({
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': contentDisposition(v.fileName, 'attachment'),
      })
      .send(stream);
  });
}
