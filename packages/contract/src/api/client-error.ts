import { z } from 'zod';
import { crud, endpoint, optText, timeFilter } from '../endpoint.js';

/** Where in the console an uncaught error was caught. */
export const clientErrorSources = ['error', 'unhandledrejection', 'boundary'] as const;

/** One kind of error (same build, message and top of stack), with how often and where it was last seen. */
export const clientErrorDto = z.object({
  id: z.number(),
  fingerprint: z.string(),
  message: z.string(),
  stack: z.string().nullable(),
  source: z.enum(clientErrorSources),
  route: z.string(),
  buildId: z.string(),
  username: z.string().nullable(),
  providerId: z.number().nullable(),
  userAgent: z.string().nullable(),
  count: z.number(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type ClientErrorDto = z.infer<typeof clientErrorDto>;

export const clientErrorReport = z.object({
  message: z.string().trim().min(1).max(1000),
  stack: z.string().max(8000).optional(),
  source: z.enum(clientErrorSources),
  route: z.string().max(500),
  buildId: z.string().trim().min(1).max(64),
});

export const clientErrorFilter = z.object({
  message: optText(200),
  buildId: optText(64),
  username: optText(64),
  startTime: timeFilter,
  endTime: timeFilter,
});

const c = crud('clientError', 'system:errorLog', '/web/errorLog');

/** Spec §9's error log: production consoles report uncaught errors; administrators list them. */
export const clientErrorApi = {
  /**
   * Open without a session (a sign-in or agreement page can fail too); a session, when sent, names the
   * user. Rate-limited per session and address, deduplicated by fingerprint. Not an operator's change:
   * it writes no system-log row (a failing console would fill the log).
   */
  report: endpoint({
    method: 'POST',
    path: c.path('report'),
    access: 'public',
    resource: 'clientError',
    mutation: false,
    body: clientErrorReport,
    data: z.object({ accepted: z.boolean() }),
    summary: "Report an uncaught error of the console (production builds); accepted false once the caller's quota is spent",
  }),
  list: c.list(clientErrorFilter, clientErrorDto),
};
