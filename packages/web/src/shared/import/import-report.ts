import type { EndpointDef } from '@csms/contract';
import { authHeaders, buildUrl, handleEnvelope, send } from '../api/client';
import { saveBlob } from '../api/download';

/** What every template import answers: how many rows, how many taken, and each rejected row with its key column. */
export interface ImportReport {
  total: number;
  imported: number;
  rejected: Array<{ row: number; field: string; reason: string } & Record<string, string | number>>;
}

/** GET an import template (headers in the console's language) and save it. */
export async function downloadTemplate(endpoint: EndpointDef, fallbackName: string): Promise<void> {
  const res = await send(buildUrl(endpoint), { method: 'GET', headers: authHeaders() });
  if ((res.headers.get('content-type') ?? '').includes('application/json')) {
    handleEnvelope((await res.json()) as { code: number; msg?: string });
    return;
  }
  const header = res.headers.get('download-filename');
  saveBlob(await res.blob(), header ? decodeURIComponent(header) : fallbackName);
}

const csvField = (v: string | number) => {
  const s = String(v);
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * The import report as CSV (with a BOM so spreadsheet programs read UTF-8): one line per rejected
 * row (its number, its key column, the column at fault, the reason), under headers in the console's language.
 */
export function reportCsv(report: ImportReport, keyField: string, label: (key: string) => string, summary: string): string {
  const lines = [
    [summary],
    ['row', keyField, 'field', 'reason'].map(label),
    ...report.rejected.map((r) => [r.row, r[keyField] ?? '', label(r.field), r.reason]),
  ];
  return `\uFEFF${lines.map((l) => l.map(csvField).join(',')).join('\r\n')}\r\n`;
}
