import { z } from 'zod';
import { crud, optText, dayFilter } from '../endpoint.js';

export const ocppDirections = ['in', 'out', 'refused'] as const;

/** Why an idTag was answered as it was (the OCPP status alone does not say): recorded with every decision. */
export const authorizationReasons = [
  'accepted',
  'unknown',
  /** The card belongs to a provider that is neither the charger's nor one of its parents. */
  'otherProvider',
  'lost',
  'expired',
  'expiredByOperator',
  'userDisabled',
  'concurrentTx',
  'insufficientBalance',
  'groupLimit',
  /** A master pass (OCPP 2.0.1 C16) presented to start a session: it only stops them. */
  'masterPass',
] as const;
export type AuthorizationReason = (typeof authorizationReasons)[number];

/**
 * One exchange of the OCPP log: a request (CALL) with the response paired to it by message id
 * (CALLRESULT or CALLERROR), a refused connection attempt, or a frame nothing pairs with.
 */
export const ocppLogDto = z.object({
  id: z.number(),
  providerId: z.number().nullable(),
  serialNumber: z.string(),
  /** in: charger → central system; out: central system → charger; refused: a connection turned away. */
  direction: z.enum(ocppDirections),
  /** 2 CALL, 3 CALLRESULT, 4 CALLERROR of the row itself; null for refused connections. */
  messageType: z.number().nullable(),
  action: z.string().nullable(),
  messageId: z.string().nullable(),
  createTime: z.string(),
  /** The paired response: its type (3 or 4), time and latency; null while unanswered. */
  responseType: z.number().nullable(),
  responseTime: z.string().nullable(),
  latencyMs: z.number().nullable(),
  /** CALLERROR code of the response, if it was one. */
  errorCode: z.string().nullable(),
  /** Why the reply refused an idTag (Authorize, StartTransaction, StopTransaction); null otherwise. */
  reason: z.enum(authorizationReasons).nullable(),
});
export type OcppLogDto = z.infer<typeof ocppLogDto>;

export const ocppLogDetail = ocppLogDto.extend({ payload: z.unknown(), responsePayload: z.unknown() });

export const ocppLogFilter = z.object({
  serialNumber: optText(64),
  action: optText(48),
  direction: z.enum(ocppDirections).optional(),
  messageId: optText(64),
  startTime: dayFilter,
  endTime: dayFilter,
});

const c = crud('ocppLog', 'config:ocppLog');

/** The OCPP log (DESIGN.md §6): every frame, requests paired with responses, refused connections. */
export const ocppLogApi = {
  list: c.list(ocppLogFilter, ocppLogDto),
  get: c.get(ocppLogDetail, { access: c.permi('list') }),
  export: c.export(ocppLogFilter),
};
