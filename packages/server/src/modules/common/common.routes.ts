import type { DayZone } from '../../lib/day-zone.js';
import fs from 'node:fs';
import path from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import v8 from 'node:v8';
import { ADMIN_ROLE, Code, dictEntries, uploadKinds, type commonApi } from '@csms/contract';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { MaintenanceCounts } from '../../db/pglite-maintenance.js';
import { storedFile } from '../../db/schema.js';
import type { RequestCtx } from '../../http/context.js';
import { AppError, notFound } from '../../http/errors.js';
import { API_PREFIX, external, type Handlers } from '../../http/mount.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { SessionStore } from '../../http/sessions.js';
import { SCOPE_CHANGED, type EventHub } from '../../lib/events.js';
import { canSeeProvider } from '../../lib/scope.js';
import { contentDisposition, fileHeaders } from '../../lib/stored-files.js';
import { financeHolds } from '../finance/stored-upload.js';
import { receiveUpload } from '../../lib/upload-receive.js';
import { loadArchiver } from '../../lib/lazy-packages.js';
import type { CompactionStats } from '../../lib/heap-compaction.js';

type StoredFileRow = typeof storedFile.$inferSelect;

interface Deps {
  db: Db;
  uow: Pick<UnitOfWork, 'outside'>;
  config: Pick<Config, 'dataDir' | 'appDownloadUrl' | 'mapTileUrl' | 'exportMaxRows' | 'captcha' | 'readerPort'> & {
    ocpp: Pick<Config['ocpp'], 'masterPassGroupId'>;
  };
  events: EventHub;
  sessions: SessionStore;
  isReady: () => boolean;
  /** Chargers connected to this node over OCPP. */
  ocppConnections: () => number;
  /** Rows of the OCPP log not yet written on this node. */
  ocppLogBacklog: () => number;
  ocppCompactions: () => CompactionStats;
  /** PGlite's vacuum since the start; null on PostgreSQL. */
  vacuum: () => MaintenanceCounts | null;
  /** How often an open event stream is pinged and its session checked (ms). */
  streamPingMs?: number;
  dayZone: DayZone;
}

/**
 * Event-loop delay of this process, in windows that each read of the health endpoint closes and
 * reopens. One per process (the loop is the process's), started by the first read so that test
 * processes building many apps pay for no timer.
 */
const LOOP_RESOLUTION_MS = 10;
let loopDelay: { h: IntervalHistogram; since: number } | undefined;
/** Node records the whole interval between the monitor's ticks: the delay is what exceeds the resolution. */
const delayMs = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RESOLUTION_MS) * 100) / 100);

/** GC pauses of the main thread since the last read, gathered by a PerformanceObserver started with the loop monitor. */
const gcWindow = { count: 0, totalMs: 0, maxMs: 0, majorCount: 0 };

async function readLoopDelay() {
  if (!loopDelay) {
    const h = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    h.enable();
    loopDelay = { h, since: performance.now() };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        gcWindow.count++;
        gcWindow.totalMs += e.duration;
        gcWindow.maxMs = Math.max(gcWindow.maxMs, e.duration);
        if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcWindow.majorCount++;
      }
    }).observe({ entryTypes: ['gc'] });
  } else {
    // A stall just before this request is recorded by the monitor's next tick: wait for it, or reset() would drop it.
    await new Promise((resolve) => setTimeout(resolve, LOOP_RESOLUTION_MS + 1));
  }
  const { h, since } = loopDelay;
  const now = performance.now();
  const window = {
    windowS: Math.round(now - since) / 1000,
    p50Ms: h.count ? delayMs(h.percentile(50)) : 0,
    p90Ms: h.count ? delayMs(h.percentile(90)) : 0,
    p99Ms: h.count ? delayMs(h.percentile(99)) : 0,
    p999Ms: h.count ? delayMs(h.percentile(99.9)) : 0,
    maxMs: h.count ? delayMs(h.max) : 0,
  };
  h.reset();
  loopDelay.since = now;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const gc = { count: gcWindow.count, totalMs: round(gcWindow.totalMs), maxMs: round(gcWindow.maxMs), majorCount: gcWindow.majorCount };
  Object.assign(gcWindow, { count: 0, totalMs: 0, maxMs: 0, majorCount: 0 });
  return { window, gc };
}

/** The main thread's CPU time, ms: Linux lists it as the task whose id is the process id (utime + stime, in clock ticks). */
function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS_PER_S);
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_S = 100;

/** V8's young generation as committed, bytes: new space and new large-object space. */
function youngGenerationBytes(): number {
  let bytes = 0;
  for (const s of v8.getHeapSpaceStatistics())
    if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') bytes += s.space_size;
  return bytes;
}

export function commonRoutes({
  db,
  uow,
  config,
  events,
  sessions,
  isReady,
  ocppConnections,
  ocppLogBacklog,
  ocppCompactions,
  vacuum,
  streamPingMs = 25_000,
  dayZone,
}: Deps): Handlers<typeof commonApi> {
  const uploadDir = path.join(config.dataDir, 'uploads');

  async function findFile(ctx: RequestCtx & { principal: NonNullable<RequestCtx['principal']> }, fileName: string) {
    const [row] = await db.select().from(storedFile).where(eq(storedFile.fileName, fileName)).limit(1);
    if (!row || (row.providerId !== null && !canSeeProvider(ctx.principal, row.providerId))) throw notFound();
    const full = path.join(uploadDir, row.fileName);
    if (!fs.existsSync(full)) throw new AppError(Code.NOT_FOUND, 'errors.upload.notFound');
    return { row, full };
  }

  function sendFile(reply: Parameters<Handlers<typeof commonApi>['download']>[0]['reply'], row: StoredFileRow, stream: Readable) {
    reply.headers(fileHeaders(row)).send(stream);
  }

  return {
    async dayZone({ query, ctx }) {
      return (await dayZone.zoneOf(ctx.principal, query)) ?? Promise.reject(notFound());
    },
    async health() {
      if (!isReady()) throw new AppError(Code.SERVER_ERROR, 'errors.serverError');
      const loop = await readLoopDelay();
      const mem = process.memoryUsage();
      const cpu = process.cpuUsage();
      return {
        status: 'ok' as const,
        uptimeS: Math.round(process.uptime() * 1000) / 1000,
        memory: {
          rssBytes: mem.rss,
          heapUsedBytes: mem.heapUsed,
          heapTotalBytes: mem.heapTotal,
          youngGenerationBytes: youngGenerationBytes(),
          externalBytes: mem.external,
          compactions: { ...ocppCompactions() },
        },
        cpu: { userMs: Math.round(cpu.user / 1000), systemMs: Math.round(cpu.system / 1000), mainThreadMs: mainThreadCpuMs() },
        eventLoop: loop.window,
        gc: loop.gc,
        ocppConnections: ocppConnections(),
        ocppLogBacklog: ocppLogBacklog(),
        vacuum: vacuum(),
      };
    },
    async dict({ params, ctx }) {
      return dictEntries(ctx.lang, params.type as Parameters<typeof dictEntries>[1]);
    },
    async configKey({ params }) {
      const values: Record<string, string> = {
        'app.downloadUrl': config.appDownloadUrl,
        'map.tileUrl': config.mapTileUrl,
        'export.maxRows': String(config.exportMaxRows),
        'captcha.enabled': String(config.captcha),
        'csms.reader.port': String(config.readerPort),
        // For the card form's hint: chargers must be given the same AuthCtrlr.MasterPassGroupId.
        'ocpp.masterPassGroupId': config.ocpp.masterPassGroupId,
      };
      return values[String(params.key)] ?? '';
    },
    // Streams the file from the client: no transaction is held open meanwhile.
    upload: external(async ({ req, query, ctx, audit }) => {
      const kindName = query.kind ?? 'file';
      const kind = uploadKinds[kindName];
      const p = ctx.principal;
      const { fileName, originalName } = await receiveUpload(
        { db, uploadDir },
        req,
        ctx.lang,
        { ...kind, badTypeKey: kindName === 'image' ? 'errors.upload.badImageType' : 'errors.upload.badType' },
        { providerId: p.providerId, uploadedBy: p.userId },
        (name) => (audit.operand = `file:${name}`),
      );
      return { fileName, originalName, url: `${API_PREFIX}/common/download/resource?resource=${encodeURIComponent(fileName)}` };
    }),
    // A GET never deletes: a link or an <img> that the session cookie authorises must not remove a file.
    async download({ query, ctx, reply }) {
      const { row, full } = await findFile(ctx, query.fileName);
      sendFile(reply, row, fs.createReadStream(full));
    },
    async downloadZip({ body, ctx, reply, req, audit }) {
      const names = [...new Set(body.fileNames)];
      // Every file passes the single download's checks (it exists, the caller's provider may see it)
      // before the first byte goes out: one refusal refuses the whole archive, and says which file.
      const files: Awaited<ReturnType<typeof findFile>>[] = [];
      for (const name of names) {
        try {
          files.push(await findFile(ctx, name));
        } catch (err) {
          if (err instanceof AppError) throw new AppError(err.code, err.key, err.params, 'fileNames');
          throw err;
        }
      }
      const zipName = `${(body.name || 'files').replace(/[\\/:*?"<>|]/g, '_')}.zip`;
      audit.operand = `zip:${names.length}:${zipName}`;
      // Entries keep their uploaded names; a repeated name gets a counter so that no entry hides another.
      const used = new Map<string, number>();
      const entryName = (original: string) => {
        const n = (used.get(original) ?? 0) + 1;
        used.set(original, n);
        if (n === 1) return original;
        const dot = original.lastIndexOf('.');
        return dot > 0 ? `${original.slice(0, dot)} (${n})${original.slice(dot)}` : `${original} (${n})`;
      };
      // archiver streams: files are opened one at a time as the archive reaches them, never held whole.
      const archive = new (await loadArchiver())({ zlib: { level: 6 } });
      archive.on('error', (err: Error) => {
        req.log.error({ err }, 'zip download failed');
        archive.destroy(err);
      });
      for (const { row, full } of files) archive.file(full, { name: entryName(row.originalName) });
      void archive.finalize();
      reply.headers({
        'content-type': 'application/zip',
        'x-content-type-options': 'nosniff',
        'content-disposition': contentDisposition(zipName, 'attachment'),
        'cache-control': 'private, no-cache',
        'download-filename': encodeURIComponent(zipName),
        'access-control-expose-headers': 'download-filename',
      });
      reply.send(archive);
    },
    async downloadResource({ query, ctx, reply }) {
      const { row, full } = await findFile(ctx, query.resource);
      sendFile(reply, row, fs.createReadStream(full));
    },
    /** The spec's download with `delete`: a POST, which only the header token authorises. */
    // Streams the file and removes it from the disk: the system-log row comes first.
    downloadByPost: external(async ({ body, ctx, reply, audit }) => {
      const { row, full } = await findFile(ctx, body.fileName);
      audit.operand = `file:${row.originalName}`;
      if (!body.delete) return sendFile(reply, row, fs.createReadStream(full));
      // Seeing a file is not owning it: only its uploader (or the admin role) may have it deleted.
      if (row.uploadedBy !== ctx.principal.userId && ctx.principal.roleKey !== ADMIN_ROLE) {
        throw new AppError(Code.FORBIDDEN, 'errors.forbidden');
      }
      // Opened first, then removed from the table and the disk: the reply streams from the open file, and
      // once it starts the file is gone for everyone else.
      // An issued invoice's PDF and a transfer's receipt are records of money: kept (issue 18).
      if (await financeHolds(db, row.fileName)) throw new AppError(Code.CONFLICT, 'errors.invoice.fileKept');
      const handle = await fs.promises.open(full, 'r');
      try {
        await db.delete(storedFile).where(eq(storedFile.id, row.id));
        await fs.promises.rm(full, { force: true });
      } catch (err) {
        await handle.close();
        throw err;
      }
      sendFile(reply, row, handle.createReadStream());
    }),
    async events({ ctx, req, reply }) {
      const p = ctx.principal;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 3000\n\n');
      // The scope is read again on every ping and at once when it is said to have changed (a user's
      // bound stations edited): what a stream delivers follows the user's current provider and stations.
      // By the session the stream was opened with, however its token came (cookie or header); read
      // outside whatever request published the change, whose transaction is not this stream's.
      let scope = p;
      let ended = false;
      const refresh = () =>
        void uow
          .outside(() => sessions.resolveSession(p.sessionId))
          .then((still) => {
            if (ended) return;
            if (still) {
              scope = still;
              return;
            }
            res.write('event: session.revoked\ndata: {}\n\n');
            res.end();
          })
          .catch((err: unknown) => req.log.warn({ err }, 'event stream: session check failed'));
      // A disabled role, or a one-time password not yet changed, opens nothing: such a stream gets only
      // what is addressed to its user (an export's progress, a message), no provider's or station's events.
      const opens = () => scope.roleEnabled && !scope.mustChangePassword;
      const unsubscribe = events.subscribe({
        userId: p.userId,
        canSee: (providerId) => opens() && canSeeProvider(scope, providerId),
        canSeeStation: (stationId) => opens() && (scope.stationIds === null || scope.stationIds.includes(stationId)),
        send: (e) => {
          if (e.type === SCOPE_CHANGED) refresh();
          else res.write(`event: ${e.type}\ndata: ${JSON.stringify(e.payload)}\n\n`);
        },
      });
      // Keep proxies from timing out, and end the stream once the session is revoked.
      const timer = setInterval(() => {
        res.write(': ping\n\n');
        refresh();
      }, streamPingMs);
      const close = () => {
        ended = true;
        clearInterval(timer);
        unsubscribe();
      };
      req.raw.on('close', close);
      res.on('close', close);
    },
  };
}
