import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

/**
 * Diagnostics (issue 16 item 3; spec §3 "Diagnosis: location, retries, retryInterval, start and stop
 * time, status, file name"): GetDiagnostics to each chosen point, the file uploaded to a target the
 * server provides (HTTP with a per-request token, or FTP with per-request credentials when the FTP
 * server is on) unless the operator types another location, DiagnosticsStatusNotification followed,
 * the received file listed and downloadable.
 */
export const diagnosticsStates = ['offline', 'sent', 'rejected', 'Uploading', 'Uploaded', 'UploadFailed', 'received'] as const;
export type DiagnosticsState = (typeof diagnosticsStates)[number];
/** Where the server's own upload target is offered: over HTTP, or over FTP (needs CSMS_FTP_PORT). */
export const diagnosticsTransports = ['http', 'ftp'] as const;

const serialNumber = z.string().trim().min(1).max(48);
const instant = z.iso.datetime({ offset: true });

export const diagnosticsCreate = z
  .object({
    serialNumbers: z.array(serialNumber).min(1).max(100),
    /** The server's own target (default http)… */
    transport: z.enum(diagnosticsTransports).optional(),
    /** …or a location the operator types (the charger uploads there; nothing is received here). */
    location: z.string().trim().max(500).optional(),
    startTime: instant.optional(),
    stopTime: instant.optional(),
    retries: z.number().int().min(0).max(10).optional(),
    /** Seconds. */
    retryInterval: z.number().int().min(0).max(86_400).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.location && !/^(https?|ftps?):\/\/[^\s/]+/i.test(v.location))
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'validation.firmwareLocation' });
    if (v.startTime && v.stopTime && Date.parse(v.stopTime) <= Date.parse(v.startTime))
      ctx.addIssue({ code: 'custom', path: ['stopTime'], message: 'validation.diagnosticsWindow' });
    if (new Set(v.serialNumbers.map((s) => s.toLowerCase())).size !== v.serialNumbers.length)
      ctx.addIssue({ code: 'custom', path: ['serialNumbers'], message: 'validation.duplicate' });
  });

export const diagnosticsDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  serialNumber: z.string(),
  pointName: z.string(),
  /** Where the charger was told to upload, credentials hidden. */
  location: z.string(),
  startTime: z.string().nullable(),
  stopTime: z.string().nullable(),
  retries: z.number().nullable(),
  retryInterval: z.number().nullable(),
  state: z.enum(diagnosticsStates),
  /** The charger's answer's file name, or why it failed. */
  fileName: z.string().nullable(),
  reason: z.string().nullable(),
  /** The file received by the server: its size; null until it arrives (or when it went elsewhere). */
  sizeBytes: z.number().nullable(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
  reportTime: z.string().nullable(),
});
export type DiagnosticsDto = z.infer<typeof diagnosticsDto>;

export const diagnosticsFilter = z.object({
  serialNumber: optText(48),
  state: z.enum(diagnosticsStates).optional(),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
});

const resource = 'diagnostics';
const c = crud(resource, 'config:diagnostics');

/** `/web/diagnostics/{action}`: the Diagnosis page. */
export const diagnosticsApi = {
  list: c.list(diagnosticsFilter, diagnosticsDto),
  get: c.get(diagnosticsDto),
  add: c.add(diagnosticsCreate, z.array(diagnosticsDto), {
    operation: 'getDiagnostics',
    summary: 'GetDiagnostics to each point; one request per point, each with its own upload target and answer',
  }),
  export: c.export(diagnosticsFilter),
  download: endpoint({
    method: 'GET',
    path: c.path('download'),
    access: c.permi('query'),
    resource,
    query: z.object({ id: z.coerce.number().int().positive() }),
    raw: 'download',
  }),
};
