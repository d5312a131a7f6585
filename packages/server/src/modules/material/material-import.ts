import {
  MATERIAL_IMPORT_MAX_BYTES,
  MATERIAL_MAX_COUNT,
  PARTS_NUMBER_PATTERN,
  fieldLabel,
  materialImportColumns,
  materialImportRequired,
  translate,
  type Lang,
  type MaterialImportReport,
} from '@csms/contract';
import { loadExcel } from '../../lib/lazy-packages.js';
import type { Db } from '../../db/client.js';
import type { material } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict } from '../../http/errors.js';
import type { EventHub } from '../../lib/events.js';
import { createSheetReader } from '../../lib/sheet-import.js';
import { isUniqueViolation } from '../../lib/scope.js';
import type { MaterialRepo } from './material.repo.js';

type Column = (typeof materialImportColumns)[number];
const RESOURCE = 'materialImport';
/** As the car import: more rows than a 1 MB file holds in practice; a guard against a sheet of empty formatted rows. */
export const MATERIAL_IMPORT_MAX_ROWS = 20_000;
const TEXT_MAX: Partial<Record<Column, number>> = { partsNumber: 50, name: 100, model: 100, unit: 20, note: 500, providerName: 100 };
const PROGRESS_EVERY = 100;

/** The header a template column carries in a language; required columns end with " *". */
export function templateHeader(lang: Lang, column: Column): string {
  const label = fieldLabel(lang, RESOURCE, column);
  return (materialImportRequired as readonly string[]).includes(column) ? `${label} *` : label;
}

/** The import template: one header row in the caller's language. */
export async function materialImportTemplate(lang: Lang): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  const ws = wb.addWorksheet('parts', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = materialImportColumns.map((c) => ({ header: templateHeader(lang, c), key: c, width: c === 'note' ? 30 : 18 }));
  ws.getRow(1).font = { bold: true };
  // Text cells: a parts number of digits must not turn into a number (leading zeros); the count stays a number.
  materialImportColumns.forEach((c, i) => {
    if (c !== 'count') ws.getColumn(i + 1).numFmt = '@';
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Deps {
  db: Db;
  repo: MaterialRepo;
  events: EventHub;
  dataDir: string;
}

/**
 * Parts from the import template, by the car import's rules (DESIGN.md §9): a file-level error (not
 * found, over 1 MB, unreadable, not the template, no rows) imports nothing; otherwise every valid
 * row is taken in one transaction and every rejected row is reported with its row number and reason.
 * A parts number the provider does not have yet is a new part with the row's count as its stock; one
 * it has is a delivery: the count is added to its stock (its name and model stay as they are).
 */
export function createMaterialImport({ db, repo, events, dataDir }: Deps) {
  const sheets = createSheetReader({ db, dataDir });
  return {
    async run(p: Principal, lang: Lang, fileName: string, importId?: string): Promise<MaterialImportReport> {
      const raw = await sheets.rows(p, lang, fileName, {
        resource: RESOURCE,
        columns: materialImportColumns,
        required: materialImportRequired,
        maxBytes: MATERIAL_IMPORT_MAX_BYTES,
        maxRows: MATERIAL_IMPORT_MAX_ROWS,
        errors: 'errors.materialImport',
      });

      const label = (c: Column) => fieldLabel(lang, RESOURCE, c);
      const reason = (key: string, params: Record<string, unknown> = {}) => translate(lang, `errors.materialImport.${key}`, params);
      const rejected: MaterialImportReport['rejected'] = [];
      const reject = (row: number, partsNumber: string, field: Column, text: string) =>
        rejected.push({ row, partsNumber, field, reason: text });
      const progress = (done: number) => {
        if (importId) events.publish({ type: 'import.progress', userId: p.userId, payload: { importId, done, total: raw.length } });
      };

      const providers = await sheets.providersByName(p);
      const accepted: { row: number; providerId: number; values: typeof material.$inferInsert; count: number }[] = [];
      const seen = new Map<string, number>();
      raw.forEach(({ row, cells }, i) => {
        if ((i + 1) % PROGRESS_EVERY === 0) progress(i + 1);
        for (const c of materialImportRequired)
          if (!cells[c]) return reject(row, cells.partsNumber, c, reason('required', { field: label(c) }));
        for (const [c, max] of Object.entries(TEXT_MAX) as [Column, number][]) {
          if (cells[c].length > max) return reject(row, cells.partsNumber, c, reason('tooLong', { field: label(c), max }));
        }
        if (!PARTS_NUMBER_PATTERN.test(cells.partsNumber)) return reject(row, cells.partsNumber, 'partsNumber', reason('badPartsNumber'));
        const count = Number(cells.count);
        if (!Number.isInteger(count) || count < 1 || count > MATERIAL_MAX_COUNT)
          return reject(row, cells.partsNumber, 'count', reason('badCount', { max: MATERIAL_MAX_COUNT }));
        const ids = providers.get(cells.providerName.toLowerCase()) ?? [];
        if (ids.length === 0)
          return reject(row, cells.partsNumber, 'providerName', reason('providerUnknown', { name: cells.providerName }));
        if (ids.length > 1)
          return reject(row, cells.partsNumber, 'providerName', reason('providerAmbiguous', { name: cells.providerName }));
        const providerId = ids[0]!;
        const key = `${providerId}:${cells.partsNumber.toUpperCase()}`;
        const first = seen.get(key);
        if (first !== undefined) return reject(row, cells.partsNumber, 'partsNumber', reason('duplicateInFile', { row: first }));
        seen.set(key, row);
        accepted.push({
          row,
          providerId,
          count,
          values: {
            providerId,
            partsNumber: cells.partsNumber,
            name: cells.name,
            model: cells.model || null,
            unit: cells.unit || null,
            note: cells.note || null,
            stock: count,
          },
        });
      });

      // Parts the providers already have take the count as a delivery.
      const fresh: (typeof material.$inferInsert)[] = [];
      const restock: { id: number; count: number; row: number; partsNumber: string }[] = [];
      const byProvider = new Map<number, typeof accepted>();
      for (const a of accepted) byProvider.set(a.providerId, [...(byProvider.get(a.providerId) ?? []), a]);
      for (const [providerId, list] of byProvider) {
        const known = await repo.byPartsNumbers(
          providerId,
          list.map((a) => a.values.partsNumber),
        );
        for (const a of list) {
          const k = known.get(a.values.partsNumber.toUpperCase());
          if (!k) fresh.push(a.values);
          else if (k.stock + a.count > MATERIAL_MAX_COUNT)
            reject(a.row, a.values.partsNumber, 'count', reason('stockTooLarge', { max: MATERIAL_MAX_COUNT }));
          else restock.push({ id: k.id, count: a.count, row: a.row, partsNumber: a.values.partsNumber });
        }
      }

      try {
        await db.transaction(async (tx) => {
          const over = await repo.importMany(tx, fresh, restock, MATERIAL_MAX_COUNT);
          // A stock grown meanwhile past the maximum: nothing is imported.
          if (over !== undefined) throw badField('fileName', 'errors.materialImport.stockTooLarge', { max: MATERIAL_MAX_COUNT });
        });
      } catch (err) {
        // Another import or an operator added one of the parts numbers meanwhile: nothing was imported.
        if (isUniqueViolation(err)) throw conflict('errors.material.partsNumberTaken', { partsNumber: fresh[0]?.partsNumber ?? '' });
        throw err;
      }
      progress(raw.length);
      rejected.sort((a, b) => a.row - b.row);
      return { total: raw.length, imported: fresh.length, restocked: restock.length, rejected };
    },
  };
}

export type MaterialImport = ReturnType<typeof createMaterialImport>;
