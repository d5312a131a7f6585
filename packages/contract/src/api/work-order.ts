import { z } from 'zod';
import { crud, dayFilter, endpoint, optText } from '../endpoint.js';

/**
 * Work orders, fault treatment (spec §1 "Work orders: fault treatment", §2 `/workOrder/list`, §3
 * "Work order: taskId, faultCode, stationName, pointId, transactionId", §4 "Work order flow: area
 * leader, service man, archive person", §7 "Work orders"; DESIGN.md §10; issue 17 item 1).
 *
 * A charger's serious fault (an alarm of level serious) opens an order by itself, one open order per
 * point and fault code (later repeats attach to it); operators open orders by hand. Flow:
 * new → assigned (the station area's leader picks a service man) → processing (he accepts) →
 * resolved | failed (failed goes back to the leader, who reassigns) → archived (the archive person,
 * resolved orders only). Every step records who, when and what.
 */
export const workOrderStatuses = ['new', 'assigned', 'processing', 'resolved', 'failed', 'archived'] as const;
export type WorkOrderStatus = (typeof workOrderStatuses)[number];

/** Still to be dealt with: the states a repeat of the same fault attaches to. */
export const openWorkOrderStatuses = ['new', 'assigned', 'processing', 'failed'] as const satisfies readonly WorkOrderStatus[];

export const workOrderPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export type WorkOrderPriority = (typeof workOrderPriorities)[number];

/** Where an order came from: a charger's serious fault, an operator, or anyone's feedback (`/workOrder/create`). */
export const workOrderSources = ['alarm', 'manual', 'feedback'] as const;
export type WorkOrderSource = (typeof workOrderSources)[number];

/** What a step of an order's history records (vocabulary `enums.workOrderStep`). */
export const workOrderStepKinds = [
  'created',
  'repeated',
  'faultCleared',
  'assigned',
  'accepted',
  'resolved',
  'failed',
  'reassigned',
  'archived',
] as const;
export type WorkOrderStepKind = (typeof workOrderStepKinds)[number];

/** A member's part in a service area (vocabulary `enums.areaRole`). */
export const areaRoles = ['leader', 'serviceMan', 'archivist'] as const;
export type AreaRole = (typeof areaRoles)[number];

/** The shortest fault description (spec §5, §9). */
export const MIN_FAULT_DESCRIPTION = 10;

/** At most this many pictures with a feedback (the image widget's default). */
export const MAX_FEEDBACK_PICTURES = 5;

/** What a maintenance record says was done to a component (vocabulary `enums.componentAction`). */
export const componentActions = ['replaced', 'repaired'] as const;
export type ComponentAction = (typeof componentActions)[number];

/** Common charger components, named in both languages (`enums.component`); operators may type others. */
export const commonComponents = [
  'cable',
  'connector',
  'contactor',
  'relay',
  'rcd',
  'powerModule',
  'meter',
  'display',
  'rfidReader',
  'commModule',
  'controlBoard',
  'fan',
  'fuse',
  'emergencyStop',
] as const;

/** `WO` and the order's number, eight digits: what the console shows and the flow calls take. */
export const taskIdOf = (id: number) => `WO${String(id).padStart(8, '0')}`;
export const taskId = z
  .string()
  .trim()
  .regex(/^WO\d{8,}$/);

const description = z.string().trim().min(MIN_FAULT_DESCRIPTION).max(1000);
const note = z.string().trim().max(500).optional();

export const workOrderDto = z.object({
  id: z.number(),
  taskId: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  /** The point (spec: pointId), by its serial number. */
  pointId: z.number(),
  serialNumber: z.string(),
  pointName: z.string(),
  /** 0: the point as a whole. */
  connectorNo: z.number(),
  /** The session the fault interrupted, when one was running. */
  transactionId: z.number().nullable(),
  /** OCPP ChargePointErrorCode, or the code an operator typed. */
  faultCode: z.string(),
  vendorErrorCode: z.string().nullable(),
  source: z.enum(workOrderSources),
  description: z.string(),
  /** Stored images (file names) filed with a feedback. */
  pictures: z.array(z.string()),
  priority: z.enum(workOrderPriorities),
  status: z.enum(workOrderStatuses),
  /** The service area of the order's station, when it is in one. */
  areaId: z.number().nullable(),
  areaName: z.string().nullable(),
  serviceManId: z.number().nullable(),
  serviceManName: z.string().nullable(),
  /** How many more times the charger reported the same fault while the order was open. */
  repeats: z.number(),
  /** When the charger reported the fault gone (null while it stands, or after it came back). */
  faultClearedAt: z.string().nullable(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type WorkOrderDto = z.infer<typeof workOrderDto>;

/** A component replaced or repaired on a point (a maintenance record), from the work order that did it. */
export const componentUseDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  serialNumber: z.string(),
  pointName: z.string(),
  connectorNo: z.number(),
  /** A `commonComponents` key, or the name an operator typed. */
  component: z.string(),
  action: z.enum(componentActions),
  quantity: z.number(),
  note: z.string().nullable(),
  taskId: z.string().nullable(),
  faultCode: z.string().nullable(),
  actorName: z.string().nullable(),
  createTime: z.string(),
});
export type ComponentUseDto = z.infer<typeof componentUseDto>;

export const componentUseFilter = z.object({
  serialNumber: optText(48),
  component: optText(50),
  action: z.enum(componentActions).optional(),
  taskId: optText(20),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
  startTime: dayFilter,
  endTime: dayFilter,
});

/** One line of a resolved repair: what was done to which component. */
export const componentUseInput = z.object({
  component: z.string().trim().min(1).max(50),
  action: z.enum(componentActions),
  quantity: z.number().int().min(1).max(999),
  note: z.string().trim().max(200).optional(),
});

export const workOrderStepDto = z.object({
  kind: z.enum(workOrderStepKinds),
  /** Who did it; null for the charger or the system. */
  actorName: z.string().nullable(),
  /** The service man an assignment named. */
  serviceManName: z.string().nullable(),
  note: z.string().nullable(),
  at: z.string(),
});
export type WorkOrderStepDto = z.infer<typeof workOrderStepDto>;

/** An order with its history, and what the caller may do with it now. */
export const workOrderDetail = workOrderDto.extend({
  steps: z.array(workOrderStepDto),
  can: z.object({ assign: z.boolean(), accept: z.boolean(), report: z.boolean(), archive: z.boolean() }),
});
export type WorkOrderDetail = z.infer<typeof workOrderDetail>;

export const workOrderFilter = z.object({
  taskId: optText(20),
  faultCode: optText(50),
  serialNumber: optText(48),
  status: z.enum(workOrderStatuses).optional(),
  priority: z.enum(workOrderPriorities).optional(),
  source: z.enum(workOrderSources).optional(),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
  startTime: dayFilter,
  endTime: dayFilter,
});

export const workOrderCreate = z.object({
  serialNumber: z.string().trim().min(1).max(48),
  /** 0: the point as a whole. */
  connectorNo: z.number().int().min(0).max(32),
  faultCode: z.string().trim().min(1).max(50),
  description,
  priority: z.enum(workOrderPriorities),
  transactionId: z.number().int().positive().optional(),
});

const byTask = z.object({ taskId });
export const workOrderAssign = z.object({ taskId, serviceManId: z.number().int().positive(), note });
export const workOrderReport = z.object({
  taskId,
  result: z.enum(['resolved', 'failed']),
  description,
  /** The components replaced or repaired (resolved orders): the point's maintenance records. */
  components: z.array(componentUseInput).max(20).default([]),
});

/** A problem with a point, filed by anyone signed in (`/workOrder/create`). */
export const workOrderFeedback = z.object({
  serialNumber: z.string().trim().min(1).max(48),
  /** 0: the point as a whole. */
  connectorNo: z.number().int().min(0).max(32),
  description,
  /** The image widget's value: stored images, comma-separated. */
  pictures: z.string().trim().max(2000).optional(),
});

/** A vendor's fault code with its fix, kept per provider (the OCPP codes' fixes are built in). */
export const faultCodeDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  code: z.string(),
  title: z.string(),
  /** One step per line. */
  steps: z.string(),
  updateTime: z.string(),
});
export type FaultCodeDto = z.infer<typeof faultCodeDto>;
export const faultCodeSave = z.object({
  /** Absent: a new code. */
  id: z.number().int().positive().optional(),
  providerId: z.number().int().positive().optional(),
  code: z.string().trim().min(1).max(50),
  title: z.string().trim().min(1).max(100),
  steps: z.string().trim().min(1).max(2000),
});
export const workOrderArchive = z.object({ taskId, note });

/** A service area: stations of one provider, and the system users who lead, repair and archive there. */
export const serviceAreaDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  name: z.string(),
  stations: z.array(z.object({ id: z.number(), name: z.string() })),
  members: z.array(z.object({ userId: z.number(), name: z.string(), role: z.enum(areaRoles) })),
});
export type ServiceAreaDto = z.infer<typeof serviceAreaDto>;

const userIds = z.array(z.number().int().positive()).max(200);
export const serviceAreaSave = z.object({
  /** Absent: a new area. */
  id: z.number().int().positive().optional(),
  /** The area's provider (a super provider's users choose; others' default to their own). */
  providerId: z.number().int().positive().optional(),
  name: z.string().trim().min(1).max(50),
  stationIds: z.array(z.number().int().positive()).max(500),
  leaderIds: userIds.min(1),
  serviceManIds: userIds.min(1),
  archivistIds: userIds,
});

export const userOption = z.object({ id: z.number(), name: z.string(), username: z.string() });

/** The flow's states as drawn, in the flow chart's order, and the moves between them. */
export const workOrderFlowEdges = [
  ['new', 'assigned'],
  ['assigned', 'processing'],
  ['processing', 'resolved'],
  ['processing', 'failed'],
  ['failed', 'assigned'],
  ['resolved', 'archived'],
] as const satisfies readonly (readonly [WorkOrderStatus, WorkOrderStatus])[];

/** An order's flow chart: each state passed, current or still ahead, each move made or not, and the steps. */
export const workOrderFlowChart = z.object({
  taskId: z.string(),
  nodes: z.array(z.object({ status: z.enum(workOrderStatuses), state: z.enum(['done', 'current', 'todo']) })),
  edges: z.array(z.object({ from: z.enum(workOrderStatuses), to: z.enum(workOrderStatuses), done: z.boolean(), times: z.number() })),
  steps: z.array(workOrderStepDto),
});
export type WorkOrderFlowChart = z.infer<typeof workOrderFlowChart>;

/**
 * The recommended fix of a fault code, in the caller's language; `known` is false for codes outside OCPP's list.
 * `vendor`: the provider's own entry for the charger's vendor code (or for a non-OCPP code), when it has one.
 */
export const faultScheme = z.object({
  faultCode: z.string(),
  known: z.boolean(),
  title: z.string(),
  steps: z.array(z.string()),
  vendor: z.object({ code: z.string(), title: z.string(), steps: z.array(z.string()) }).nullable(),
});
export type FaultScheme = z.infer<typeof faultScheme>;

const resource = 'workOrder';
const c = crud(resource, 'workOrder:list');
const area = crud('serviceArea', 'workOrder:area', '/web/workOrder');
const codes = crud('faultCode', 'workOrder:faultCode', '/web/workOrder');
const comp = crud('componentUse', 'workOrder:maintain', '/web/component');

/** Spec §7's work-order paths; the verbs it does not name keep the `/web/workOrder` prefix. */
export const workOrderApi = {
  list: c.list(workOrderFilter, workOrderDto, { path: '/web/getWorkOrderList' }),
  search: c.search(workOrderFilter, workOrderDto, { path: '/web/getWorkOrderConditionList' }),
  detail: endpoint({
    method: 'POST',
    path: '/web/getFaultDetails',
    access: c.permi('query'),
    resource,
    mutation: false,
    body: byTask,
    data: workOrderDetail,
    summary: 'An order with its steps and what the caller may do with it now',
  }),
  add: c.add(workOrderCreate, workOrderDto, { path: '/web/createArtificialOrder', operation: 'add' }),
  assign: c.action('assign', workOrderAssign, workOrderDto, {
    path: '/web/updateServiceManToWorkOrder',
    summary: "The area leader gives a new order to one of the area's service men",
  }),
  accept: c.action('process', byTask, workOrderDto, {
    path: 'accept',
    operation: 'accept',
    summary: 'The assigned service man takes the order on (assigned → processing)',
  }),
  report: c.action('process', workOrderReport, workOrderDto, {
    path: '/web/getServiceMenProcessingResult',
    operation: 'report',
    summary: 'The assigned service man reports the repair resolved or failed',
  }),
  reassign: c.action('assign', workOrderAssign, workOrderDto, {
    path: '/web/updateFailManToWorkOrder',
    operation: 'reassign',
    summary: 'The area leader gives a failed order to a service man again',
  }),
  archive: c.action('archive', workOrderArchive, workOrderDto, {
    summary: 'The archive person files a resolved order',
  }),
  flowChart: endpoint({
    method: 'GET',
    path: '/web/getWorkOrderFlowChart',
    access: c.permi('query'),
    resource,
    query: byTask,
    data: workOrderFlowChart,
    summary: 'The flow chart of an order: the states passed and the moves made, with its steps',
  }),
  scheme: endpoint({
    method: 'POST',
    path: '/web/getRecommendedScheme',
    access: c.permi('query'),
    resource,
    mutation: false,
    body: z.object({
      faultCode: z.string().trim().min(1).max(50),
      /** The charger's vendor code, looked up in the vendor catalogue of the order's provider (or the caller's). */
      vendorErrorCode: optText(50),
      taskId: taskId.optional(),
    }),
    data: faultScheme,
    summary: "The recommended fix of a fault code (OCPP ChargePointErrorCode), and the provider's entry for a vendor code",
  }),
  feedback: endpoint({
    method: 'POST',
    path: '/web/workOrder/feedback',
    access: 'session',
    resource,
    operation: 'feedback',
    body: workOrderFeedback,
    data: workOrderDto,
    summary: 'Anyone signed in files a problem with a point in their scope; it becomes a work order (source feedback)',
  }),
  myFeedback: endpoint({
    method: 'GET',
    path: '/web/workOrder/myFeedback',
    access: 'session',
    resource,
    query: z.object({ page: z.coerce.number().int().min(1).default(1), limit: z.coerce.number().int().min(1).max(100).default(10) }),
    data: z.object({ rows: z.array(workOrderDto), total: z.number() }),
    summary: "The caller's own feedback and where each stands",
  }),
  deleteFile: endpoint({
    method: 'POST',
    path: '/web/deleteFile',
    access: 'session',
    resource,
    operation: 'remove',
    body: z.object({ clearFile: z.string().trim().min(1).max(255) }),
    data: z.object({ removed: z.number() }),
    summary: 'Removes a picture its uploader took out of a form before sending it (never one a work order holds)',
  }),
  faultCodes: codes.list(z.object({ code: optText(50), providerId: z.coerce.number().int().positive().optional() }), faultCodeDto, {
    path: 'faultCodes',
  }),
  saveFaultCode: codes.action('edit', faultCodeSave, faultCodeDto, { path: 'faultCodeSave', operation: 'save' }),
  removeFaultCode: codes.action('edit', z.object({ id: z.number().int().positive() }), z.object({ removed: z.number() }), {
    path: 'faultCodeRemove',
    operation: 'remove',
  }),
  stationIds: endpoint({
    method: 'GET',
    path: '/web/getPcaIds',
    access: c.permi('list'),
    resource,
    query: z.object({ stationName: optText(100) }),
    data: z.object({ stationIds: z.array(z.number()) }),
    summary: 'The stations in the caller’s scope whose name contains the text (the list’s station search)',
  }),
  serviceMen: endpoint({
    method: 'GET',
    path: '/web/workOrder/serviceMen',
    access: c.permi('assign'),
    resource,
    query: z.object({ taskId }),
    data: z.array(userOption),
    summary: "The service men of the order's area",
  }),
  export: c.export(workOrderFilter),
  areas: endpoint({
    method: 'POST',
    path: '/web/getAreaToServiceMan',
    access: area.permi('list'),
    resource: 'serviceArea',
    mutation: false,
    data: z.array(serviceAreaDto),
    summary: 'The service areas in scope with their stations and members',
  }),
  saveArea: area.action('edit', serviceAreaSave, serviceAreaDto, {
    path: '/web/updateAreaToServiceMan',
    operation: 'save',
    summary: 'Adds or edits a service area: its stations and its leaders, service men and archive people',
  }),
  removeArea: area.action('edit', z.object({ id: z.number().int().positive() }), z.object({ removed: z.number() }), {
    path: 'areaRemove',
    operation: 'remove',
  }),
  userOptions: endpoint({
    method: 'GET',
    path: '/web/workOrder/userOptions',
    access: area.permi('edit'),
    resource: 'serviceArea',
    query: z.object({ providerId: z.coerce.number().int().positive().optional() }),
    data: z.array(userOption),
    summary: "The provider's enabled system users, to make members of an area",
  }),
};

/** Maintenance records (issue 17 item 5; spec §7 "Components"): what was replaced or repaired on which point. */
export const componentApi = {
  list: comp.list(componentUseFilter, componentUseDto, { path: 'getComponentUseInfo' }),
  search: comp.search(componentUseFilter, componentUseDto, { path: 'searchComponentUseInfo' }),
  names: endpoint({
    method: 'GET',
    path: '/web/component/getComName',
    access: { anyPermi: ['workOrder:maintain:list', 'workOrder:list:process'] },
    resource: 'componentUse',
    query: z.object({ name: optText(50) }),
    data: z.array(z.object({ value: z.string(), common: z.boolean() })),
    summary: 'Component names to choose from: the common ones, then those recorded in scope',
  }),
  export: comp.export(componentUseFilter),
};
