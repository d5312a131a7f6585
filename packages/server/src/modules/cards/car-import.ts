import {
  CAR_IMPORT_MAX_BYTES,
  carImportColumns,
  carImportRequired,
  fieldLabel,
  plate as plateSchema,
  translate,
  vin as vinSchema,
  type CarImportReport,
  type Lang,
} from '@csms/contract';
import { and, inArray, sql } from 'drizzle-orm';
import { loadExcel } from '../../lib/lazy-packages.js';
import type { Db } from '../../db/client.js';
import { type car, chargeUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { conflict } from '../../http/errors.js';
import type { EventHub } from '../../lib/events.js';
import { createSheetReader } from '../../lib/sheet-import.js';
import { isUniqueViolation, providerScope } from '../../lib/scope.js';
import type { CarRepo } from './car.repo.js';

type Column = (typeof carImportColumns)[number];
const RESOURCE = 'carImport';
/** More rows than a 1 MB file holds in practice; a guard against a sheet of empty formatted rows. */
export const CAR_IMPORT_MAX_ROWS = 20_000;
const TEXT_MAX: Partial<Record<Column, number>> = { alias: 50, brand: 50, model: 50, account: 64, providerName: 100 };
const PROGRESS_EVERY = 100;

/** The header a template column carries in a language; required columns end with " *". */
export function templateHeader(lang: Lang, column: Column): string {
  const label = fieldLabel(lang, RESOURCE, column);
  return (carImportRequired as readonly string[]).includes(column) ? `${label} *` : label;
}

/** The import template: one header row in the caller's language. */
export async function carImportTemplate(lang: Lang): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  const ws = wb.addWorksheet('cars', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = carImportColumns.map((c) => ({ header: templateHeader(lang, c), key: c, width: c === 'vin' ? 22 : 18 }));
  ws.getRow(1).font = { bold: true };
  // Text cells: a plate of digits or a VIN must not turn into a number.
  for (let i = 1; i <= carImportColumns.length; i++) ws.getColumn(i).numFmt = '@';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Deps {
  db: Db;
  repo: CarRepo;
  events: EventHub;
  dataDir: string;
}

/**
 * Cars from the import template (DESIGN.md §9): a file-level error (not found, over 1 MB,
 * unreadable, not the template, no rows) imports nothing; otherwise every valid row is imported in
 * one transaction and every rejected row is reported with its row number and reason. Provider
 * names resolve within the caller's scope; accounts within the row's provider.
 */
export function createCarImport({ db, repo, events, dataDir }: Deps) {
  const sheets = createSheetReader({ db, dataDir });
  async function accountsByName(p: Principal, names: string[]) {
    const map = new Map<string, { id: number; providerId: number }>();
    for (let i = 0; i < names.length; i += 1000) {
      const rows = await db
        .select({ id: chargeUser.id, providerId: chargeUser.providerId, account: chargeUser.account })
        .from(chargeUser)
        .where(and(providerScope(p, chargeUser.providerId), inArray(sql`lower(${chargeUser.account})`, names.slice(i, i + 1000))));
      for (const r of rows) map.set(r.account.toLowerCase(), { id: r.id, providerId: r.providerId });
    }
    return map;
  }

  return {
    async run(p: Principal, lang: Lang, fileName: string, importId?: string): Promise<CarImportReport> {
      const raw = await sheets.rows(p, lang, fileName, {
        resource: RESOURCE,
        columns: carImportColumns,
        required: carImportRequired,
        maxBytes: CAR_IMPORT_MAX_BYTES,
        maxRows: CAR_IMPORT_MAX_ROWS,
        errors: 'errors.carImport',
      });

      const label = (c: Column) => fieldLabel(lang, RESOURCE, c);
      const reason = (key: string, params: Record<string, unknown> = {}) => translate(lang, `errors.carImport.${key}`, params);
      const rejected: CarImportReport['rejected'] = [];
      const reject = (row: number, plate: string, field: Column, text: string) => rejected.push({ row, plate, field, reason: text });
      const progress = (done: number) => {
        if (importId) events.publish({ type: 'import.progress', userId: p.userId, payload: { importId, done, total: raw.length } });
      };

      const providers = await sheets.providersByName(p);
      const accounts = await accountsByName(p, [...new Set(raw.map((r) => r.cells.account.toLowerCase()).filter(Boolean))]);
      const accepted: { row: number; values: typeof car.$inferInsert }[] = [];
      const seen = new Map<string, number>();
      raw.forEach(({ row, cells }, i) => {
        if ((i + 1) % PROGRESS_EVERY === 0) progress(i + 1);
        for (const c of carImportRequired) if (!cells[c]) return reject(row, cells.plate, c, reason('required', { field: label(c) }));
        for (const [c, max] of Object.entries(TEXT_MAX) as [Column, number][]) {
          if (cells[c].length > max) return reject(row, cells.plate, c, reason('tooLong', { field: label(c), max }));
        }
        const plate = plateSchema.safeParse(cells.plate);
        if (!plate.success) return reject(row, cells.plate, 'plate', reason('badPlate'));
        const vin = vinSchema.safeParse(cells.vin);
        if (!vin.success) return reject(row, cells.plate, 'vin', reason('badVin'));
        const ids = providers.get(cells.providerName.toLowerCase()) ?? [];
        if (ids.length === 0) return reject(row, cells.plate, 'providerName', reason('providerUnknown', { name: cells.providerName }));
        if (ids.length > 1) return reject(row, cells.plate, 'providerName', reason('providerAmbiguous', { name: cells.providerName }));
        const providerId = ids[0]!;
        let chargeUserId: number | null = null;
        if (cells.account) {
          const owner = accounts.get(cells.account.toLowerCase());
          if (!owner || owner.providerId !== providerId) {
            return reject(row, cells.plate, 'account', reason('accountUnknown', { account: cells.account }));
          }
          chargeUserId = owner.id;
        }
        const key = `${providerId}:${plate.data.toUpperCase()}`;
        const first = seen.get(key);
        if (first !== undefined) return reject(row, cells.plate, 'plate', reason('duplicateInFile', { row: first }));
        seen.set(key, row);
        accepted.push({
          row,
          values: {
            providerId,
            plate: plate.data,
            vin: vin.data,
            alias: cells.alias || null,
            brand: cells.brand || null,
            model: cells.model || null,
            chargeUserId,
          },
        });
      });

      // Plates the providers already have.
      const byProvider = new Map<number, typeof accepted>();
      for (const a of accepted) byProvider.set(a.values.providerId, [...(byProvider.get(a.values.providerId) ?? []), a]);
      const fresh: typeof accepted = [];
      for (const [providerId, list] of byProvider) {
        const taken = await repo.existingPlates(
          providerId,
          list.map((a) => a.values.plate),
        );
        for (const a of list) {
          if (taken.has(a.values.plate.toUpperCase()))
            reject(a.row, a.values.plate, 'plate', reason('plateTaken', { plate: a.values.plate }));
          else fresh.push(a);
        }
      }

      try {
        await db.transaction((tx) =>
          repo.insertMany(
            tx,
            fresh.map((a) => a.values),
          ),
        );
      } catch (err) {
        // Another import or an operator took one of the plates meanwhile: nothing was imported.
        if (isUniqueViolation(err)) throw conflict('errors.carImport.plateTaken', { plate: fresh[0]?.values.plate ?? '' });
        throw err;
      }
      progress(raw.length);
      rejected.sort((a, b) => a.row - b.row);
      return { total: raw.length, imported: fresh.length, rejected };
    },
  };
}

export type CarImport = ReturnType<typeof createCarImport>;
