import { api, type CarImportReport } from '@csms/contract';
import { authHeaders, buildUrl, handleEnvelope, send } from '../../shared/api/client';
import { saveBlob } from '../../shared/api/download';

/** GET the import template (headers in the console's language) and save it. */
export async function downloadTemplate(fallbackName: string): Promise<void> {
  const res = await send(buildUrl(api.car.importTemplate), { method: 'GET', headers: authHeaders() });
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
 * row, under headers and column names in the console's language.
 */
export function reportCsv(report: CarImportReport, label: (key: string) => string, summary: string): string {
  const lines = [
    [summary],
    ['row', 'plate', 'field', 'reason'].map(label),
    ...report.rejected.map((r) => [r.row, r.plate, label(r.field), r.reason]),
  ];
  return `\uFEFF${lines.map((l) => l.map(csvField).join(',')).join('\r\n')}\r\n`;
}
