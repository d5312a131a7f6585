import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

/**
 * Local controllers and the built-in load balancer (spec §3 "Local controller: name, description,
 * limit power (W), points, station"; issue 15 item 2). A controller is a power budget the server
 * enforces itself: it shares `limitW` among the charging connectors of its points by sending each
 * a TxProfile at the balancer's stack level. A point belongs to at most one controller.
 */

/** The stack level the balancer's TxProfiles use: above every operator profile (0–7, see MAX_OPERATOR_STACK_LEVEL). */
export const BALANCER_STACK_LEVEL = 8;
/** chargingProfileId of the balancer's profile on connector n: this plus n (operator profiles use their row ids). */
export const BALANCER_PROFILE_ID_BASE = 1_000_000_000;
/** IEC 61851's lowest current a car charges at, per phase. */
export const DEFAULT_MIN_CURRENT_A = 6;

/** How a connector of a controller stands in the last plan. */
export const allocationStates = ['charging', 'waiting', 'offline'] as const;
export type AllocationState = (typeof allocationStates)[number];

const serialNumber = z.string().trim().min(1).max(48);

const fields = {
  name: z.string().trim().min(1).max(50),
  description: optText(255),
  stationId: z.number().int().positive(),
  /** The site's budget in W. */
  limitW: z.number().int().positive().max(100_000_000),
  /** Per phase, 6–32 A: no session is given less (it waits at 0 W instead). */
  minCurrentA: z.number().min(1).max(32).optional(),
  serialNumbers: z.array(serialNumber).min(1).max(200),
  /** Points whose sessions are served first (a subset of `serialNumbers`). */
  prioritySerialNumbers: z.array(serialNumber).max(200).optional(),
  /** User groups of the controller's provider whose members' sessions are served first. */
  priorityGroupIds: z.array(z.number().int().positive()).max(50).optional(),
};

function rules(v: { serialNumbers: string[]; prioritySerialNumbers?: string[] | undefined }, ctx: z.RefinementCtx) {
  if (new Set(v.serialNumbers.map((s) => s.toLowerCase())).size !== v.serialNumbers.length) {
    ctx.addIssue({ code: 'custom', path: ['serialNumbers'], message: 'validation.duplicate' });
  }
  const outside = (v.prioritySerialNumbers ?? []).find((s) => !v.serialNumbers.includes(s));
  if (outside) ctx.addIssue({ code: 'custom', path: ['prioritySerialNumbers'], message: 'validation.controllerPriorityOutside' });
}

const base = z.object(fields);
export const localControllerCreate = base.superRefine(rules);
export const localControllerEdit = base.extend({ id: z.number().int().positive() }).superRefine(rules);

export const localControllerDto = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  limitW: z.number(),
  minCurrentA: z.number(),
  serialNumbers: z.array(z.string()),
  prioritySerialNumbers: z.array(z.string()),
  priorityGroupIds: z.array(z.number()),
  priorityGroupNames: z.array(z.string()),
  /** Sum of the points' rated power, W: above `limitW` the balancer has work to do. */
  ratedSumW: z.number(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type LocalControllerDto = z.infer<typeof localControllerDto>;

export const localControllerFilter = z.object({
  name: optText(50),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
});

/** One connector in the last plan. */
export const allocationDto = z.object({
  serialNumber: z.string(),
  connectorNo: z.number(),
  transactionId: z.number().nullable(),
  state: z.enum(allocationStates),
  priority: z.boolean(),
  /** What the balancer allows it, W. */
  allocatedW: z.number(),
  /** What its meter last reported, W; null before the first sample. */
  measuredW: z.number().nullable(),
  /** The charger's answer to the last profile sent (accepted, rejected, offline…); null when none was needed. */
  answer: z.string().nullable(),
});
export type AllocationDto = z.infer<typeof allocationDto>;

export const controllerLive = z.object({
  id: z.number(),
  name: z.string(),
  limitW: z.number(),
  allocatedW: z.number(),
  measuredW: z.number(),
  plannedTime: z.string().nullable(),
  connectors: z.array(allocationDto),
});
export type ControllerLive = z.infer<typeof controllerLive>;

/** A sample of the last hour: budget, what was allocated and what the chargers drew. */
export const controllerSample = z.object({ at: z.string(), limitW: z.number(), allocatedW: z.number(), measuredW: z.number() });
export type ControllerSample = z.infer<typeof controllerSample>;

const resource = 'localController';
const c = crud(resource, 'smart:localController');

/** `/web/localController/{action}` (DESIGN.md §4). */
export const localControllerApi = {
  list: c.list(localControllerFilter, localControllerDto),
  get: c.get(localControllerDto),
  add: c.add(localControllerCreate, localControllerDto),
  edit: c.edit(localControllerEdit, localControllerDto, { summary: 'Save a controller; the balancer re-plans its points at once' }),
  remove: c.remove({ summary: 'Remove controllers; their points’ balancer profiles are cleared' }),
  export: c.export(localControllerFilter),
  live: endpoint({
    method: 'GET',
    path: c.path('live'),
    access: c.permi('list'),
    resource,
    query: z.object({ stationId: z.coerce.number().int().positive().optional() }),
    data: z.array(controllerLive),
    summary: 'Each controller’s limit and, per connector, the allocation of the last plan and the measured power',
  }),
  history: endpoint({
    method: 'GET',
    path: c.path('history'),
    access: c.permi('list'),
    resource,
    query: z.object({ id: z.coerce.number().int().positive() }),
    data: z.array(controllerSample),
    summary: 'The last hour of a controller: limit, allocated and measured power, one sample per plan and at least every minute',
  }),
};
