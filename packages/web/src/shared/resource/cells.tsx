import { Space } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, type ReactNode } from 'react';
import { DictTag } from '../dict/DictTag';
import { LazyRichTextView as RichTextView } from '../richtext/lazy-rich-text';
import { baseName, fileUrl, splitValue } from '../upload/rules';
import type { ColumnDef } from './types';

// antd's Image (with its preview) comes only with a table that shows pictures (issue 14 item 7).
const Image = lazy(() => import('antd/es/image'));

type Row = Record<string, unknown>;

export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';

/** Timestamps arrive in UTC (ISO); they show in the browser's time zone. */
export function formatDateTime(value: unknown, format = DATETIME_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value as string | number | Date);
  return d.isValid() ? d.format(format) : String(value);
}

/** One cell of the table or the detail view. */
export function renderCell(col: ColumnDef<Row>, row: Row): ReactNode {
  const value = row[col.key];
  if (col.render) return col.render(value, row);
  if (col.dict) return <DictTag type={col.dict} value={value as string} />;
  switch (col.kind) {
    case 'datetime':
      return formatDateTime(value);
    case 'date':
      return formatDateTime(value, DATE_FORMAT);
    case 'image':
      return (
        <Suspense fallback={null}>
          <Space size={4}>
            {splitValue(value as string).map((v) => (
              <Image key={v} src={fileUrl(v)} width={48} height={48} style={{ objectFit: 'cover' }} />
            ))}
          </Space>
        </Suspense>
      );
    case 'html':
      return typeof value === 'string' && value ? <RichTextView html={value} /> : '';
    case 'file':
      return (
        <Space size={4} wrap>
          {splitValue(value as string).map((v) => (
            <a key={v} href={fileUrl(v)} target="_blank" rel="noreferrer">
              {baseName(v)}
            </a>
          ))}
        </Space>
      );
    default:
      if (value === null || value === undefined) return '';
      if (typeof value === 'object') return JSON.stringify(value);
      return String(value);
  }
}

/** Comparator for on-screen sorting. */
export function compareBy(key: string) {
  return (a: Row, b: Row) => {
    const x = a[key];
    const y = b[key];
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x ?? '').localeCompare(String(y ?? ''));
  };
}

/** 1536 → "1.50 KB"; bytes below a KB as they are (file sizes). */
export function formatBytes(n: unknown): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}
