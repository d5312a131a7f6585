import { PassThrough, type Writable } from 'node:stream';
import { fieldLabel, type Lang } from '@csms/contract';
import type { FastifyReply } from 'fastify';
import { AppError } from '../http/errors.js';
import type { EventHub } from './events.js';
import { createXlsxWriter, needsZip64, waitFor, type XlsxWriter } from './xlsx-writer.js';

export interface ExportColumn<Row> {
  key: string;
  /** Cell value; defaults to `row[key]`. Dates become ISO strings unless formatted here. */
  value?: (row: Row) => string | number | boolean | null;
}

export interface ExportJob<Row> {
  lang: Lang;
  resource: string;
  fileBase: string;
  format: 'xlsx' | 'csv';
  columns: ExportColumn<Row>[];
  total: number;
  /** Rows in batches, e.g. keyset pages of 1000: the engine never holds more than one batch. */
  batches: AsyncIterable<Row[]>;
  maxRows: number;
  progress?: { hub: EventHub; userId: number; exportId?: string };
}

const PROGRESS_EVERY = 1000;
const CSV_CHUNK = 64 * 1024;

function cell(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return v as string | number | boolean;
}

/** One CSV cell: quoted when needed, and a text a spreadsheet would run as a formula neutralised. */
export function csvField(v: unknown): string {
  // A number is no formula: a negative amount (a bill adjustment, a refund) stays a number.
  if (typeof v === 'number') return String(v);
  const s = v === null || v === undefined ? '' : String(v);
  // Quote when needed; neutralise spreadsheet formulas.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Writes a chunk; when the body is full, waits for it to drain, or fails once it is closed (the client went away). */
async function write(out: Writable, chunk: string) {
  if (!out.write(chunk)) await waitFor(out, 'drain', [out]);
}

/** Rows of an Excel worksheet. */
const XLSX_MAX_ROWS = 1_048_576;

/** The most rows one export may hold: the configured limit, and for xlsx what a worksheet holds besides its header (Excel would open a longer one cut short). */
export function exportRowLimit(format: 'xlsx' | 'csv', maxRows: number): number {
  return format === 'xlsx' ? Math.min(maxRows, XLSX_MAX_ROWS - 1) : maxRows;
}

/**
 * The one export engine: streams rows to the reply as xlsx or CSV in constant memory and
 * reports progress on the event stream. Refuses (409) above the configured row limit.
 */
export async function streamExport<Row extends Record<string, unknown>>(reply: FastifyReply, job: ExportJob<Row>): Promise<void> {
  const max = exportRowLimit(job.format, job.maxRows);
  if (job.total > max) throw new AppError(409, 'errors.export.tooLarge', { total: job.total, max });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  const fileName = `${job.fileBase}_${stamp}.${job.format}`;
  const headers = job.columns.map((c) => fieldLabel(job.lang, job.resource, c.key));
  const values = (row: Row) => job.columns.map((c) => cell(c.value ? c.value(row) : row[c.key]));
  const body = new PassThrough();
  reply
    .header(
      'content-type',
      job.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    .header('download-filename', encodeURIComponent(fileName))
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('access-control-expose-headers', 'download-filename')
    .send(body);

  let done = 0;
  let xlsx: XlsxWriter | undefined;
  const report = () => {
    const p = job.progress;
    if (p) p.hub.publish({ type: 'export.progress', userId: p.userId, payload: { exportId: p.exportId ?? null, done, total: job.total } });
  };
  try {
    if (job.format === 'csv') {
      // Rows go out in chunks of about 64 KB: one write per row costs more than the row itself.
      let text = `\uFEFF${headers.map(csvField).join(',')}\r\n`;
      for await (const batch of job.batches) {
        for (const row of batch) {
          text += `${values(row).map(csvField).join(',')}\r\n`;
          if (text.length >= CSV_CHUNK) {
            await write(body, text);
            text = '';
          }
          if (++done % PROGRESS_EVERY === 0) report();
        }
      }
      await write(body, text);
      body.end();
    } else {
      // Our own writer: exceljs's streaming writer keeps every row until the workbook is committed.
      xlsx = createXlsxWriter(body, { sheetName: job.fileBase, zip64: needsZip64((job.total + 1) * headers.length) });
      await xlsx.addRow(headers);
      for await (const batch of job.batches) {
        for (const row of batch) {
          const full = xlsx.addRow(values(row));
          if (full) await full;
          if (++done % PROGRESS_EVERY === 0) report();
        }
      }
      await xlsx.end();
    }
    report();
  } catch (err) {
    xlsx?.destroy();
    body.destroy(err as Error);
    throw err;
  }
}

/** Keyset pagination over an id-ordered query, for `batches`. */
export async function* keysetBatches<Row extends { id: number }>(page: (afterId: number, size: number) => Promise<Row[]>, size = 1000) {
  let after = 0;
  for (;;) {
    const rows = await page(after, size);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    if (rows.length < size) return;
  }
}
