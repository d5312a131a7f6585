import fs from 'node:fs';
import path from 'node:path';
import { fieldLabel, type Lang } from '@csms/contract';
import { eq } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { loadExcel, loadJsZip } from './lazy-packages.js';
import type { Db } from '../db/client.js';
import { provider, storedFile } from '../db/schema.js';
import type { Principal } from '../http/context.js';
import { badField, notFound } from '../http/errors.js';
import { canSeeProvider, providerScope } from './scope.js';

/**
 * The spreadsheet imports' shared steps (cars, spare parts; DESIGN.md §9): the uploaded file read as
 * its first sheet, its header matched to the template's columns in either language (a file made in
 * Chinese imports in English too), the data rows without the blank ones. Any file-level problem is a
 * 400 on `fileName` with the import's own message (`<errors>.tooLarge`, `unreadable`, `notTemplate`,
 * `tooManyRows`, `empty`), and nothing is imported.
 */
export interface SheetImport<C extends string> {
  /** Vocabulary of the column labels: `fields.<resource>.<column>`. */
  resource: string;
  columns: readonly C[];
  required: readonly C[];
  maxBytes: number;
  maxRows: number;
  /** Prefix of the import's messages, `errors.carImport`. */
  errors: string;
}

export interface SheetRow<C extends string> {
  /** The row's number in the sheet (the header is row 1). */
  row: number;
  cells: Record<C, string>;
}

/** A header cell as matched: marks of required columns (`*`) and spaces left out, any case. */
const norm = (s: string) => s.replace(/\*/g, '').replace(/\s+/g, '').toLowerCase();

/** Which column each header cell is, matching the labels of either language. */
function mapHeader<C extends string>(row: ExcelJS.Row, spec: SheetImport<C>): Map<C, number> {
  const byLabel = new Map<string, C>();
  for (const c of spec.columns) for (const lang of ['zh', 'en'] as const) byLabel.set(norm(fieldLabel(lang, spec.resource, c)), c);
  const found = new Map<C, number>();
  row.eachCell({ includeEmpty: false }, (cell, col) => {
    const c = byLabel.get(norm(cell.text ?? ''));
    if (c && !found.has(c)) found.set(c, col);
  });
  return found;
}

/**
 * How much larger than the file its parts may be once inflated, all together. A template's XML packs
 * about 5 to 10 times; a zip bomb, a thousand times.
 */
const INFLATE_RATIO = 24;

/** Whether an xlsx's parts inflate to at most `limit` bytes together; counted as they inflate, stopped past it. */
async function inflatesWithin(file: Buffer, limit: number): Promise<boolean> {
  let zip;
  try {
    zip = await (await loadJsZip()).loadAsync(file);
  } catch {
    return true; // not a zip: the workbook reader says so (`unreadable`)
  }
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const over = await new Promise<boolean>((resolve) => {
      const stream = entry.nodeStream('nodebuffer');
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limit) {
          stream.pause();
          resolve(true);
        }
      });
      stream.on('end', () => resolve(false));
      // A damaged part: the workbook reader says so.
      stream.on('error', () => resolve(false));
    });
    if (over) return false;
  }
  return true;
}

export function createSheetReader({ db, dataDir }: { db: Db; dataDir: string }) {
  async function firstSheet<C extends string>(p: Principal, fileName: string, spec: SheetImport<C>) {
    const [file] = await db.select().from(storedFile).where(eq(storedFile.fileName, fileName)).limit(1);
    if (!file || (file.providerId !== null && !canSeeProvider(p, file.providerId))) throw notFound();
    const full = path.join(dataDir, 'uploads', file.fileName);
    const size = (await fs.promises.stat(full).catch(() => null))?.size;
    if (size === undefined) throw notFound();
    if (size > spec.maxBytes) throw badField('fileName', `${spec.errors}.tooLarge`, { n: spec.maxBytes / 1024 / 1024 });
    const bytes = await fs.promises.readFile(full);
    // A few KB of zip can inflate to gigabytes of XML, which the workbook would hold and parse at once.
    if (!(await inflatesWithin(bytes, spec.maxBytes * INFLATE_RATIO))) {
      throw badField('fileName', `${spec.errors}.tooLarge`, { n: spec.maxBytes / 1024 / 1024 });
    }
    const wb = new (await loadExcel()).Workbook();
    try {
      // exceljs declares its own `Buffer` (an ArrayBuffer), which node's Buffer type does not match.
      await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    } catch {
      throw badField('fileName', `${spec.errors}.unreadable`);
    }
    const ws = wb.worksheets[0];
    if (!ws) throw badField('fileName', `${spec.errors}.unreadable`);
    return ws;
  }

  return {
    /** The data rows of an uploaded template, each cell trimmed text ('' when the column is absent or empty). */
    async rows<C extends string>(p: Principal, lang: Lang, fileName: string, spec: SheetImport<C>): Promise<SheetRow<C>[]> {
      const ws = await firstSheet(p, fileName, spec);
      const header = mapHeader(ws.getRow(1), spec);
      const missing = spec.required.find((c) => !header.has(c));
      if (missing) throw badField('fileName', `${spec.errors}.notTemplate`, { column: fieldLabel(lang, spec.resource, missing) });
      const rows: SheetRow<C>[] = [];
      // Only the rows the file holds a value in (never every number up to the last row, which may be the
      // 1,048,576th); each of them counts toward the limit, blank once trimmed or not.
      let held = 0;
      ws.eachRow((row, r) => {
        if (r === 1) return;
        if (++held > spec.maxRows) throw badField('fileName', `${spec.errors}.tooManyRows`, { max: spec.maxRows });
        const cells = Object.fromEntries(
          spec.columns.map((c) => [c, header.has(c) ? (row.getCell(header.get(c)!).text ?? '').trim() : '']),
        ) as Record<C, string>;
        if (!Object.values(cells).every((v) => v === '')) rows.push({ row: r, cells });
      });
      if (rows.length === 0) throw badField('fileName', `${spec.errors}.empty`);
      return rows;
    },
    /** The providers of the caller's scope by name (trimmed, any case): a name may be two providers'. */
    async providersByName(p: Principal) {
      const found = await db.select({ id: provider.id, name: provider.name }).from(provider).where(providerScope(p, provider.id));
      const map = new Map<string, number[]>();
      for (const r of found) map.set(r.name.trim().toLowerCase(), [...(map.get(r.name.trim().toLowerCase()) ?? []), r.id]);
      return map;
    },
  };
}

export type SheetReader = ReturnType<typeof createSheetReader>;
