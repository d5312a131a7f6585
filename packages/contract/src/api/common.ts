import { z } from 'zod';
import { dictTypes, type DictType } from '../dicts.js';
import { endpoint } from '../endpoint.js';

export const dictEntry = z.object({ dictLabel: z.string(), dictValue: z.string(), listClass: z.string(), cssClass: z.string() });

/** Settings the console may read without being an administrator. */
export const publicConfigKeys = [
  'app.downloadUrl',
  'map.tileUrl',
  'export.maxRows',
  'captcha.enabled',
  'csms.reader.port',
  'ocpp.masterPassGroupId',
] as const;

/** Upload limits by kind; the widgets read the same numbers (spec §5). */
export const uploadKinds = {
  image: { maxMb: 5, types: ['png', 'jpg', 'jpeg', 'gif'] },
  file: { maxMb: 5, types: ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'pdf'] },
  /** A scanned paper (a bank transfer's receipt): a PDF or a photo of it. */
  scan: { maxMb: 5, types: ['pdf', 'png', 'jpg', 'jpeg'] },
} as const;
export type UploadKindName = keyof typeof uploadKinds;
export const uploadKindNames = Object.keys(uploadKinds) as [UploadKindName, ...UploadKindName[]];

/** The zone whose days a record list's time filter takes (`dayFilter`), and the station that gives it, if one does. */
export const dayZoneDto = z.object({ timeZone: z.string(), stationId: z.number().nullable(), stationName: z.string().nullable() });
export type DayZoneDto = z.infer<typeof dayZoneDto>;

export const commonApi = {
  dayZone: endpoint({
    method: 'GET',
    path: '/web/common/dayZone',
    access: 'session',
    resource: 'common',
    query: z.object({
      stationId: z.coerce.number().int().positive().optional(),
      pointId: z.coerce.number().int().positive().optional(),
      serialNumber: z.string().trim().max(64).optional(),
    }),
    data: dayZoneDto,
    summary: "The time zone of a record list's days: the station's for one station (chosen, or the caller's only one), else CSMS_TIME_ZONE",
  }),
  health: endpoint({
    method: 'GET',
    path: '/health',
    access: 'public',
    resource: 'common',
    // Process figures for load tests and monitoring (bench/ocpp.mjs reads them).
    data: z.object({
      status: z.literal('ok'),
      uptimeS: z.number(),
      /** Bytes: resident set, V8 heap in use. */
      memory: z.object({
        rssBytes: z.number(),
        heapUsedBytes: z.number(),
        /** V8's heap as committed (used and free pages it has not given back). */
        heapTotalBytes: z.number(),
        /**
         * The part of heapTotalBytes that is V8's young generation (new space and its large objects):
         * sized by the allocation rate, not by what the process holds; it grows under load to its
         * maximum and stays committed until V8 shrinks it.
         */
        youngGenerationBytes: z.number(),
        /** Memory of C++ objects bound to JavaScript ones, Buffers included. */
        externalBytes: z.number(),
        /**
         * The compacting collections run once a connect storm settled (CSMS_OCPP_COMPACT_AFTER_CONNECTIONS):
         * how many, when the last one ran, its pause and the V8 heap it gave back.
         */
        compactions: z.object({
          count: z.number(),
          lastAt: z.string().nullable(),
          lastPauseMs: z.number().nullable(),
          lastFreedBytes: z.number().nullable(),
        }),
      }),
      /**
       * CPU time the process has used since it started, ms (all its threads); `mainThreadMs`: the
       * part of the thread that serves HTTP and OCPP (Linux; null elsewhere), the rest being the
       * embedded database's thread and Node's helpers.
       */
      cpu: z.object({ userMs: z.number(), systemMs: z.number(), mainThreadMs: z.number().nullable() }),
      /** Event-loop delay since the previous read of this endpoint (each read starts a new window). */
      eventLoop: z.object({
        windowS: z.number(),
        p50Ms: z.number(),
        p90Ms: z.number(),
        p99Ms: z.number(),
        p999Ms: z.number(),
        maxMs: z.number(),
      }),
      /** Garbage-collection pauses of the main thread in the same window (perf_hooks): how many, their sum and the longest, ms. */
      gc: z.object({ count: z.number().int(), totalMs: z.number(), maxMs: z.number(), majorCount: z.number().int() }),
      /** Chargers connected to this node over OCPP. */
      ocppConnections: z.number().int(),
      /** Rows of the OCPP log this node has taken and not yet written (a backlog after a burst of calls). */
      ocppLogBacklog: z.number().int(),
      /**
       * The embedded database's vacuum and analyze since the start (CSMS_PGLITE_VACUUM_SECONDS): the
       * statements run and their time in all, and the ticks that did nothing because PGlite's thread had
       * been more than half busy. Null on PostgreSQL, whose own autovacuum does it.
       */
      vacuum: z.object({ statements: z.number().int(), totalMs: z.number(), waitedTicks: z.number().int() }).nullable(),
    }),
  }),
  dict: endpoint({
    method: 'GET',
    path: '/system/dict/data/type/:type',
    access: 'session',
    resource: 'dict',
    params: z.object({ type: z.enum(dictTypes as [DictType, ...DictType[]]) }),
    data: z.array(dictEntry),
  }),
  configKey: endpoint({
    method: 'GET',
    path: '/system/config/configKey/:key',
    access: 'session',
    resource: 'dict',
    params: z.object({ key: z.enum(publicConfigKeys) }),
    data: z.string(),
  }),
  upload: endpoint({
    method: 'POST',
    path: '/common/upload',
    access: 'session',
    resource: 'upload',
    operation: 'upload',
    query: z.object({ kind: z.enum(uploadKindNames).default('file') }),
    raw: 'flat',
    data: z.object({ fileName: z.string(), url: z.string(), originalName: z.string() }),
  }),
  /** Spec §7's download of a prepared file. It never deletes: a GET may come from a link or an <img>. */
  download: endpoint({
    method: 'GET',
    path: '/common/download',
    access: 'session',
    resource: 'upload',
    query: z.object({ fileName: z.string().min(1).max(255) }),
    raw: 'download',
  }),
  /** The same download as a POST, which only the header token authorises; `delete` removes the file once sent. */
  downloadByPost: endpoint({
    method: 'POST',
    path: '/common/download',
    access: 'session',
    resource: 'upload',
    operation: 'download',
    body: z.object({ fileName: z.string().min(1).max(255), delete: z.boolean().default(false) }),
    raw: 'download',
  }),
  /**
   * Several stored files in one streamed zip (spec §7's zip download): exported sheets kept as files, a
   * station's images. Every file is checked like a single download before any byte is sent. Accepts
   * a JSON or a form-encoded body (the download helper's form POST), answering with the blob.
   */
  downloadZip: endpoint({
    method: 'POST',
    path: '/common/download/zip',
    access: 'session',
    resource: 'upload',
    operation: 'download',
    mutation: false,
    form: true,
    body: z.object({
      // A form field given once arrives as a string, repeated as an array.
      fileNames: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().min(1).max(255)).min(1).max(100)),
      /** The zip's name without `.zip`; by default `files`. */
      name: z.string().trim().max(100).optional(),
    }),
    raw: 'download',
  }),
  downloadResource: endpoint({
    method: 'GET',
    path: '/common/download/resource',
    access: 'session',
    resource: 'upload',
    query: z.object({ resource: z.string().min(1).max(255) }),
    raw: 'download',
  }),
  events: endpoint({
    method: 'GET',
    path: '/web/events',
    access: 'session',
    resource: 'common',
    raw: 'stream',
  }),
};
