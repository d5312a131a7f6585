import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

export const carDto = z.object({
  id: z.number(),
  plate: z.string(),
  vin: z.string(),
  alias: z.string().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  chargeUserId: z.number().nullable(),
  account: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  createTime: z.string(),
});
export type CarDto = z.infer<typeof carDto>;

/** ISO 3779: 17 characters, digits and capital letters except I, O and Q. */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
export const vin = z
  .string()
  .trim()
  .toUpperCase()
  .min(1)
  .refine((v) => VIN_PATTERN.test(v), { message: 'validation.vin' });
/** Letters of any script, digits, spaces, dots and dashes ("粤B·12345", "AB-123-CD"). */
export const plate = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ·.-]*$/u);

export const carFields = {
  plate,
  vin,
  alias: optText(50),
  brand: optText(50),
  model: optText(50),
  chargeUserId: z.number().int().positive().nullable().optional(),
  providerId: z.number().int().positive(),
};
export const carCreate = z.object(carFields);
export const carEdit = z.object({ id: z.number().int().positive(), ...carFields });

export const carFilter = z.object({
  plate: optText(20),
  vin: optText(17),
  account: optText(64),
  brand: optText(50),
  providerId: z.coerce.number().int().positive().optional(),
  chargeUserId: z.coerce.number().int().positive().optional(),
});

/** Columns of the import template, in order; headers are the field labels in the caller's language. */
export const carImportColumns = ['plate', 'vin', 'providerName', 'account', 'alias', 'brand', 'model'] as const;
export const carImportRequired = ['plate', 'vin', 'providerName'] as const;
/** Spec §9: an import file is at most 1 MB. */
export const CAR_IMPORT_MAX_BYTES = 1024 * 1024;

export const carImportRejection = z.object({
  /** Row number in the spreadsheet (the header is row 1). */
  row: z.number(),
  plate: z.string(),
  /** Column at fault, one of carImportColumns. */
  field: z.string(),
  reason: z.string(),
});
export const carImportReport = z.object({
  total: z.number(),
  imported: z.number(),
  rejected: z.array(carImportRejection),
});
export type CarImportReport = z.infer<typeof carImportReport>;

const resource = 'car';
const c = crud(resource, 'config:car');

/** Cars of charge users: `/web/car/{action}`; plates are unique within a provider. */
export const carApi = {
  list: c.list(carFilter, carDto),
  get: c.get(carDto),
  add: c.add(carCreate, carDto),
  edit: c.edit(carEdit, carDto),
  remove: c.remove(),
  export: c.export(carFilter),
  importTemplate: endpoint({
    method: 'GET',
    path: c.path('importTemplate'),
    access: c.permi('import'),
    resource,
    raw: 'download',
    summary: 'The import spreadsheet (xlsx) with headers in the caller’s language; required columns are marked with *',
  }),
  import: endpoint({
    method: 'POST',
    path: c.path('import'),
    access: c.permi('import'),
    resource: 'carImport',
    operation: 'import',
    body: z.object({ fileName: z.string().trim().min(1).max(255), importId: z.string().max(64).optional() }),
    data: carImportReport,
    summary:
      'Import an uploaded template (`fileName` from /common/upload, at most 1 MB). A file-level error imports nothing; ' +
      'otherwise the valid rows are imported in one transaction and every rejected row is reported',
  }),
};
