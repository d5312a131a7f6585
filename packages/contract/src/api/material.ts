import { z } from 'zod';
import { crud, dayFilter, endpoint, optText, optionsWindow, phoneNumber } from '../endpoint.js';
import { taskId as workOrderTaskId } from './work-order.js';

/**
 * Spare parts (issue 17 item 4; spec §2 `/workOrder/sparePartsManage`, §3 "Spare part", "Material
 * apply order: taskId", §7 "Materials"; DESIGN.md §10 "spare-part apply orders: applied → agreed |
 * not agreed").
 *
 * Each provider keeps a catalogue of parts (a parts number unique within the provider, stock count),
 * filled by hand or from the import template. A service man applies for parts for an open work
 * order he can see; someone holding the approve permission agrees (the stock falls, in the same
 * transaction, never below zero) or does not (an audit opinion is then required). Every step is
 * recorded for the flow chart.
 */
export const materialApplyStatuses = ['applied', 'agreed', 'notAgreed'] as const;
export type MaterialApplyStatus = (typeof materialApplyStatuses)[number];

/** How the parts reach the receiver (vocabulary `enums.logisticsType`). */
export const logisticsTypes = ['pickUp', 'express', 'courier', 'freight'] as const;
export type LogisticsType = (typeof logisticsTypes)[number];

/** What a step of an apply order records (vocabulary `enums.materialApplyStep`). */
export const materialApplyStepKinds = ['applied', 'agreed', 'notAgreed'] as const;
export type MaterialApplyStepKind = (typeof materialApplyStepKinds)[number];

/** The decision of `confirmApply`. */
export const materialApplyResults = ['agreed', 'notAgreed'] as const;

/** The most of one part a stock holds, or a line or an import row asks for. */
export const MATERIAL_MAX_COUNT = 1_000_000;
/** The most lines an apply order carries. */
export const MATERIAL_APPLY_MAX_LINES = 50;

/** `MA` and the apply order's number, eight digits (as a work order's `WO`). */
export const applyTaskIdOf = (id: number) => `MA${String(id).padStart(8, '0')}`;
export const applyTaskId = z
  .string()
  .trim()
  .regex(/^MA\d{8,}$/);

/** Parts numbers: letters, digits, dots, dashes, slashes and underscores (they are printed on labels). */
export const PARTS_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
export const partsNumber = z.string().trim().min(1).max(50).regex(PARTS_NUMBER_PATTERN);
const count = z.number().int().min(1).max(MATERIAL_MAX_COUNT);

export const materialDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  partsNumber: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  unit: z.string().nullable(),
  /** What is on the shelf now: imports and edits add, agreed apply orders take. */
  stock: z.number(),
  note: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type MaterialDto = z.infer<typeof materialDto>;

const materialFields = {
  partsNumber,
  name: z.string().trim().min(1).max(100),
  model: optText(100),
  unit: optText(20),
  stock: z.number().int().min(0).max(MATERIAL_MAX_COUNT),
  note: optText(500),
};
export const materialCreate = z.object({ ...materialFields, providerId: z.number().int().positive() });
/** The provider of a part does not change (its apply orders are that provider's). */
export const materialEdit = z.object({ id: z.number().int().positive(), ...materialFields });

export const materialFilter = z.object({
  partsNumber: optText(50),
  name: optText(100),
  model: optText(100),
  providerId: z.coerce.number().int().positive().optional(),
  /** Only parts with at most this many in stock (what to reorder). */
  maxStock: z.coerce.number().int().min(0).optional(),
});

/** Columns of the import template, in order; headers are the field labels in the caller's language. */
export const materialImportColumns = ['partsNumber', 'name', 'model', 'unit', 'count', 'providerName', 'note'] as const;
export const materialImportRequired = ['partsNumber', 'name', 'count', 'providerName'] as const;
/** Spec §9: an import file is at most 1 MB (as the car import). */
export const MATERIAL_IMPORT_MAX_BYTES = 1024 * 1024;

export const materialImportReport = z.object({
  total: z.number(),
  /** New parts added to the catalogue. */
  imported: z.number(),
  /** Rows of parts already in the catalogue: their count was added to the stock. */
  restocked: z.number(),
  rejected: z.array(
    z.object({
      /** Row number in the spreadsheet (the header is row 1). */
      row: z.number(),
      partsNumber: z.string(),
      /** Column at fault, one of materialImportColumns. */
      field: z.string(),
      reason: z.string(),
    }),
  ),
});
export type MaterialImportReport = z.infer<typeof materialImportReport>;

export const materialApplyLineDto = z.object({
  materialId: z.number(),
  partsNumber: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  unit: z.string().nullable(),
  count: z.number(),
});

export const materialApplyDto = z.object({
  id: z.number(),
  taskId: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  /** The work order the parts are for. */
  workOrderTaskId: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  serialNumber: z.string(),
  lines: z.array(materialApplyLineDto),
  /** "parts number × count" of every line, for the table and the export. */
  summary: z.string(),
  receiver: z.string(),
  receiverPhone: z.string(),
  logisticsType: z.enum(logisticsTypes),
  deliveryAddress: z.string(),
  note: z.string().nullable(),
  status: z.enum(materialApplyStatuses),
  applicantName: z.string().nullable(),
  approverName: z.string().nullable(),
  auditOpinion: z.string().nullable(),
  decideTime: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type MaterialApplyDto = z.infer<typeof materialApplyDto>;

export const materialApplyFilter = z.object({
  taskId: optText(20),
  /** The apply orders of one work order (its drawer shows them). */
  workOrderTaskId: optText(20),
  partsNumber: optText(50),
  status: z.enum(materialApplyStatuses).optional(),
  logisticsType: z.enum(logisticsTypes).optional(),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
  startTime: dayFilter,
  endTime: dayFilter,
});

export const materialApplyCreate = z.object({
  workOrderTaskId,
  lines: z
    .array(z.object({ materialId: z.number().int().positive(), count }))
    .min(1)
    .max(MATERIAL_APPLY_MAX_LINES)
    .refine((ls) => new Set(ls.map((l) => l.materialId)).size === ls.length, { message: 'validation.materialLinesDuplicate' }),
  receiver: z.string().trim().min(1).max(50),
  receiverPhone: phoneNumber,
  logisticsType: z.enum(logisticsTypes),
  deliveryAddress: z.string().trim().min(1).max(255),
  note: optText(500),
});

export const materialApplyConfirm = z
  .object({
    taskId: applyTaskId,
    result: z.enum(materialApplyResults),
    /** Required to refuse: the applicant is told why. */
    auditOpinion: optText(500),
  })
  .refine((b) => b.result === 'agreed' || (b.auditOpinion ?? '') !== '', { message: 'validation.required', path: ['auditOpinion'] });

export const materialApplyStepDto = z.object({
  kind: z.enum(materialApplyStepKinds),
  actorName: z.string().nullable(),
  note: z.string().nullable(),
  at: z.string(),
});
export type MaterialApplyStepDto = z.infer<typeof materialApplyStepDto>;

/** The moves of an apply order, as drawn. */
export const materialApplyFlowEdges = [
  ['applied', 'agreed'],
  ['applied', 'notAgreed'],
] as const satisfies readonly (readonly [MaterialApplyStatus, MaterialApplyStatus])[];

export const materialApplyFlowChart = z.object({
  taskId: z.string(),
  nodes: z.array(z.object({ status: z.enum(materialApplyStatuses), state: z.enum(['done', 'current', 'todo']) })),
  edges: z.array(
    z.object({ from: z.enum(materialApplyStatuses), to: z.enum(materialApplyStatuses), done: z.boolean(), times: z.number() }),
  ),
  steps: z.array(materialApplyStepDto),
});
export type MaterialApplyFlowChart = z.infer<typeof materialApplyFlowChart>;

/** A part as the apply dialog's picker offers it. */
export const materialOption = z.object({
  id: z.number(),
  partsNumber: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  unit: z.string().nullable(),
  stock: z.number(),
});

/** A work order parts may be applied for, as the apply dialog's picker offers it. */
export const applyWorkOrderOption = z.object({
  taskId: z.string(),
  providerId: z.number(),
  stationName: z.string(),
  serialNumber: z.string(),
  faultCode: z.string(),
});

const m = crud('material', 'workOrder:material', '/web/material');
const a = crud('materialApply', 'workOrder:materialApply', '/web/material');
const byApplyTask = z.object({ taskId: applyTaskId });

/** The parts catalogue: spec §7's `getMaterials` and `batchImportMaterials`, the rest under `/web/material/`. */
export const materialApi = {
  list: m.list(materialFilter, materialDto, { path: 'getMaterials' }),
  get: m.get(materialDto),
  add: m.add(materialCreate, materialDto),
  edit: m.edit(materialEdit, materialDto),
  remove: m.remove(),
  export: m.export(materialFilter),
  importTemplate: endpoint({
    method: 'GET',
    path: m.path('importTemplate'),
    access: m.permi('import'),
    resource: 'material',
    raw: 'download',
    summary: 'The import spreadsheet (xlsx) with headers in the caller’s language; required columns are marked with *',
  }),
  import: endpoint({
    method: 'POST',
    path: m.path('batchImportMaterials'),
    access: m.permi('import'),
    resource: 'materialImport',
    operation: 'import',
    body: z.object({ fileName: z.string().trim().min(1).max(255), importId: z.string().max(64).optional() }),
    data: materialImportReport,
    summary:
      'Import an uploaded template (`fileName` from /common/upload, at most 1 MB). A file-level error imports nothing; otherwise, ' +
      'in one transaction, new parts numbers are added and the count of a known one is added to its stock; every rejected row is reported',
  }),
  options: endpoint({
    method: 'GET',
    path: m.path('options'),
    access: { anyPermi: ['workOrder:material:list', 'workOrder:materialApply:apply'] },
    resource: 'material',
    query: z.object({ providerId: z.coerce.number().int().positive(), text: optText(50), ...optionsWindow }),
    data: z.array(materialOption),
    summary: "A provider's parts by parts number or name (the apply dialog's picker), with their stock",
  }),
};

/** Apply orders: spec §7's paths. */
export const materialApplyApi = {
  list: a.list(materialApplyFilter, materialApplyDto, { path: 'getMaterialApplyOrder' }),
  search: a.search(materialApplyFilter, materialApplyDto, { path: 'searchMaterialApplyOrder' }),
  add: a.add(materialApplyCreate, materialApplyDto, {
    path: 'createMaterialApply',
    access: a.permi('apply'),
    operation: 'apply',
    summary: 'A service man applies for parts for an open work order he can see',
  }),
  confirm: a.action('approve', materialApplyConfirm, materialApplyDto, {
    path: 'confirmApply',
    summary:
      'Agree (the stock of every line falls, in the same transaction, refused whole when one is short) or not agree (an audit opinion is required)',
  }),
  flowChart: endpoint({
    method: 'GET',
    path: a.path('getApplyOrderFlowChart'),
    access: a.permi('query'),
    resource: 'materialApply',
    query: byApplyTask,
    data: materialApplyFlowChart,
    summary: 'The flow chart of an apply order: the states passed and the moves made, with its steps',
  }),
  workOrders: endpoint({
    method: 'GET',
    path: a.path('workOrders'),
    access: a.permi('apply'),
    resource: 'materialApply',
    query: z.object({ text: optText(20), limit: optionsWindow.limit }),
    data: z.array(applyWorkOrderOption),
    summary: 'Open work orders of the caller’s scope by task id (the apply dialog’s picker)',
  }),
  export: a.export(materialApplyFilter, { path: 'exportApply' }),
};
