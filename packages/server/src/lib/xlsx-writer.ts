import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A streaming xlsx writer in constant memory: one worksheet of plain values, written as the rows
 * come. The workbook is the smallest package spreadsheet programs open (content types, package
 * and workbook relationships, workbook, styles, an empty shared-string table, one sheet); the
 * sheet is deflated into the ZIP as it is written (data descriptor after the data, CRC-32
 * computed incrementally), and the writer waits for the destination to drain, so it never holds
 * more than about one chunk of sheet XML plus the compressor's own buffers, however many rows.
 *
 * Excel opens at most 1,048,576 rows of a sheet: the writer does not stop there; the export
 * engine refuses larger xlsx exports (`exportRowLimit`).
 *
 * Cells: finite numbers are numeric cells, booleans `t="b"`, everything else an inline string
 * (XML-escaped, characters illegal in XML 1.0 removed, a literal `_xHHHH_` protected from
 * Excel's escape decoding, cut to Excel's 32,767 characters a cell); null, undefined and ''
 * leave the cell out.
 */

export type XlsxValue = string | number | boolean | null | undefined;

export interface XlsxWriterOptions {
  /** Worksheet name; made valid for Excel by `sheetName`. */
  sheetName: string;
  /**
   * ZIP64 for the sheet part, which the sheet needs when its XML can pass 4 GiB (`needsZip64`).
   * Without it the writer fails rather than write a corrupt archive if the sheet does pass 4 GiB.
   */
  zip64?: boolean;
  /** Deflate level, 1 (fastest) to 9 (smallest); 3 by default: against 6, about a quarter less CPU for a file about a tenth larger. */
  level?: number;
  /** Modification time stored in the archive; now by default. */
  date?: Date;
}

export interface XlsxWriter {
  /**
   * Appends a row. Returns a promise when the destination is full: await it before the next
   * row (that is the back-pressure); undefined when the row was taken at once.
   */
  addRow(values: readonly XlsxValue[]): Promise<void> | undefined;
  /** Writes the rest of the sheet, the data descriptor and the central directory, and ends the destination. */
  end(): Promise<void>;
  /** Stops compressing after a failure; the destination is the caller's to destroy. */
  destroy(): void;
  /** Sheet XML held before compression, in UTF-16 units (bounded by the chunk size plus one row). */
  readonly bufferedChars: number;
}

/** Excel's limit of characters in a cell; it reports a longer text as damaged content. */
export const XLSX_MAX_CELL_TEXT = 32_767;

const U32 = 0xffffffff;
/** Sheet XML is handed to the compressor in chunks of this many UTF-16 units. */
const CHUNK = 64 * 1024;

/**
 * Whether a sheet of `cells` cells needs ZIP64. The uncompressed sheet is what can pass the 4 GiB
 * of a plain ZIP entry: a string cell is about 45 bytes of markup plus its text (`<c r="Y1000000"
 * t="inlineStr"><is><t>…</t></is></c>`). The benchmark's charging records (25 columns, short
 * texts) take 1.1 KB a row, 1.1 GB for 1M rows; longer texts (3 bytes a Chinese character) or
 * more columns pass 4 GiB. Up to 256 bytes per cell on average fits a plain entry; above that many
 * cells the sheet is written as ZIP64.
 */
export function needsZip64(cells: number): boolean {
  return cells * 256 > U32;
}

/** Excel's rules for a sheet name: 1–31 characters, none of []:*?/\, no apostrophe at either end, not "History". */
export function sheetName(name: string): string {
  const clean = xmlChars(name)
    .replace(/[[\]:*?/\\]/g, '_')
    .replace(/^'+|'+$/g, '');
  // Cut by code points, so a surrogate pair is never split.
  const cut = Array.from(clean).slice(0, 31).join('').replace(/'+$/, '');
  if (cut.trim() === '') return 'Sheet1';
  return cut.toLowerCase() === 'history' ? `${cut}_` : cut;
}

/** A1-style column letters for a 0-based index: 0 → A, 25 → Z, 26 → AA, 701 → ZZ, 702 → AAA. */
export function columnName(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

// XML 1.0 allows tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD and U+10000–U+10FFFF; with the u flag
// a lone surrogate is one code point outside those ranges, so it is removed too.
const ILLEGAL_TEST = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlChars = (s: string) => (ILLEGAL_TEST.test(s) ? s.replace(ILLEGAL, '') : s);

// Of text without illegal characters: `&<>` escaped; CR as a reference (a parser turns a literal
// CR into LF); `_xHHHH_` is Excel's escape for characters, so a literal one gets its underscore
// escaped (`_x005F_`).
const SPECIAL = /[&<>\r]|_x[0-9A-Fa-f]{4}_/;
function escapeText(s: string): string {
  if (!SPECIAL.test(s)) return s;
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;')
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1');
}
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** One non-empty cell. */
function cellXml(ref: string, v: string | number | boolean): string {
  if (typeof v === 'number' && Number.isFinite(v)) return `<c r="${ref}"><v>${v}</v></c>`;
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  let s = xmlChars(String(v));
  if (s.length > XLSX_MAX_CELL_TEXT) {
    // Never between the halves of a surrogate pair.
    const high = (s.charCodeAt(XLSX_MAX_CELL_TEXT - 1) & 0xfc00) === 0xd800;
    s = s.slice(0, high ? XLSX_MAX_CELL_TEXT - 1 : XLSX_MAX_CELL_TEXT);
  }
  // Leading or trailing white space, or a line break, is kept only with xml:space.
  const space = /^\s|\n|\s$/.test(s) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" t="inlineStr"><is><t${space}>${escapeText(s)}</t></is></c>`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

function staticParts(name: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/>` +
        `<Override PartName="/xl/sharedStrings.xml" ContentType="${CT}.sharedStrings+xml"/>` +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        `<sheets><sheet name="${escapeAttr(sheetName(name))}" sheetId="1" r:id="rId1"/></sheets>` +
        '</workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
        `<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/styles.xml',
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '</styleSheet>',
    ],
    // Every string is inline; some readers still expect the part to exist.
    ['xl/sharedStrings.xml', `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="0" uniqueCount="0"/>`],
  ];
}

const SHEET_PATH = 'xl/worksheets/sheet1.xml';
const SHEET_HEAD = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

interface CentralEntry {
  name: Buffer;
  flags: number;
  version: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date, as ZIP stores them (local time, 2-second resolution, from 1980). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/**
 * Resolves on `event` of `target`; rejects as soon as one of `streams` closes (a client that went
 * away) or fails: a plain `once('drain')` would wait forever on a destroyed destination.
 */
export function waitFor(target: EventEmitter, event: string, streams: (Readable | Writable)[]): Promise<void> {
  const gone = (s: Readable | Writable) => s.errored ?? new Error('stream closed before the export was complete');
  const closed = streams.find((s) => s.destroyed);
  if (closed) return Promise.reject(gone(closed));
  return new Promise((resolve, reject) => {
    const offs: (() => void)[] = [];
    const settle = (err?: Error) => {
      for (const off of offs) off();
      if (err) reject(err);
      else resolve();
    };
    const onEvent = () => settle();
    target.on(event, onEvent);
    offs.push(() => target.off(event, onEvent));
    for (const s of streams) {
      const onClose = () => settle(gone(s));
      s.on('close', onClose).on('error', settle);
      offs.push(() => s.off('close', onClose).off('error', settle));
    }
  });
}

/** A streaming xlsx writer into `out` (see the file comment). Await each `addRow` that returns a promise. */
export function createXlsxWriter(out: Writable, options: XlsxWriterOptions): XlsxWriter {
  const zip64 = options.zip64 ?? false;
  const { time, date } = dosDateTime(options.date ?? new Date());
  const entries: CentralEntry[] = [];
  const columns: string[] = [];
  const deflate = zlib.createDeflateRaw({ level: options.level ?? 3 });
  let offset = 0; // bytes written to `out`
  let started = false;
  let rowNo = 0;
  let pending = '';
  // Kept here so a compressor failure never goes unhandled; the next row or end() throws it.
  let failure: Error | undefined;
  deflate.on('error', (err) => {
    failure = err;
  });
  const sheet: CentralEntry = {
    name: Buffer.from(SHEET_PATH),
    flags: 0x08, // sizes and CRC in a data descriptor after the data
    version: zip64 ? 45 : 20,
    crc: 0,
    compressed: 0,
    size: 0,
    offset: 0,
  };

  const push = (buf: Buffer) => {
    offset += buf.length;
    return out.write(buf);
  };

  function localHeader(e: CentralEntry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(e.version, 4);
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(8, 8); // deflate
    h.writeUInt16LE(time, 10);
    h.writeUInt16LE(date, 12);
    // Streamed with a data descriptor, CRC and sizes are zero here. A ZIP64 sheet carries no ZIP64 extra
    // field in its local header: Excel refuses one there; version 4.5 and the 8-byte sizes of
    // the data descriptor are what it reads (the layout of Apache POI's and fastexcel's writer).
    h.writeUInt32LE(e.crc, 14);
    h.writeUInt32LE(e.compressed, 18);
    h.writeUInt32LE(e.size, 22);
    h.writeUInt16LE(e.name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, e.name]);
  }

  /** The small fixed parts: sizes known, so no data descriptor. A few KB, written at once. */
  function writeStaticPart(path: string, text: string) {
    const data = Buffer.from(text);
    const deflated = zlib.deflateRawSync(data);
    const e: CentralEntry = {
      name: Buffer.from(path),
      flags: 0,
      version: 20,
      crc: zlib.crc32(data),
      compressed: deflated.length,
      size: data.length,
      offset,
    };
    entries.push(e);
    push(localHeader(e));
    push(deflated);
  }

  function start() {
    started = true;
    for (const [path, text] of staticParts(options.sheetName)) writeStaticPart(path, text);
    sheet.offset = offset;
    entries.push(sheet);
    push(localHeader(sheet));
    deflate.on('data', (chunk: Buffer) => {
      sheet.compressed += chunk.length;
      offset += chunk.length;
    });
    // pipe() pauses the compressor while `out` is full; the compressor's own buffer then fills
    // and deflate.write() returns false, which is where addRow waits.
    deflate.pipe(out, { end: false });
    pending = SHEET_HEAD;
  }

  /** Hands the pending XML to the compressor; a promise when the compressor is full. */
  function flush(): Promise<void> | undefined {
    if (failure) throw failure;
    const data = Buffer.from(pending);
    pending = '';
    sheet.crc = zlib.crc32(data, sheet.crc);
    sheet.size += data.length;
    if (!zip64 && sheet.size >= U32) {
      throw new RangeError(`xlsx sheet passed 4 GiB (${sheet.size} bytes) without ZIP64; see needsZip64`);
    }
    if (deflate.write(data)) return undefined;
    return waitFor(deflate, 'drain', [out, deflate]);
  }

  function centralHeader(e: CentralEntry): Buffer {
    const big = [e.size, e.compressed, e.offset].map((n) => n >= U32);
    const extra = big.filter(Boolean).length * 8;
    const h = Buffer.alloc(46 + e.name.length + (extra ? 4 + extra : 0));
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(e.version, 4); // made by (MS-DOS attributes)
    h.writeUInt16LE(e.version, 6); // needed to extract
    h.writeUInt16LE(e.flags, 8);
    h.writeUInt16LE(8, 10);
    h.writeUInt16LE(time, 12);
    h.writeUInt16LE(date, 14);
    h.writeUInt32LE(e.crc >>> 0, 16);
    h.writeUInt32LE(big[1] ? U32 : e.compressed, 20);
    h.writeUInt32LE(big[0] ? U32 : e.size, 24);
    h.writeUInt16LE(e.name.length, 28);
    h.writeUInt16LE(extra ? 4 + extra : 0, 30);
    // comment length, disk number, internal and external attributes: 0
    h.writeUInt32LE(big[2] ? U32 : e.offset, 42);
    e.name.copy(h, 46);
    if (extra) {
      // ZIP64 extended information: the values that did not fit, in this order.
      let at = 46 + e.name.length;
      h.writeUInt16LE(0x0001, at);
      h.writeUInt16LE(extra, at + 2);
      at += 4;
      for (const [i, n] of [e.size, e.compressed, e.offset].entries()) {
        if (!big[i]) continue;
        h.writeBigUInt64LE(BigInt(n), at);
        at += 8;
      }
    }
    return h;
  }

  function trailer(): Buffer {
    const parts: Buffer[] = [];
    const cdOffset = offset;
    const central = Buffer.concat(entries.map(centralHeader));
    parts.push(central);
    const cdSize = central.length;
    const wide = cdOffset >= U32 || cdSize >= U32;
    if (wide && !zip64) throw new RangeError('xlsx archive passed 4 GiB without ZIP64; see needsZip64');
    if (wide) {
      // ZIP64 end of central directory record and its locator.
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(45, 12);
      record.writeUInt16LE(45, 14);
      record.writeBigUInt64LE(BigInt(entries.length), 24);
      record.writeBigUInt64LE(BigInt(entries.length), 32);
      record.writeBigUInt64LE(BigInt(cdSize), 40);
      record.writeBigUInt64LE(BigInt(cdOffset), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
      locator.writeUInt32LE(1, 16);
      parts.push(record, locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(wide ? U32 : cdSize, 12);
    end.writeUInt32LE(wide ? U32 : cdOffset, 16);
    parts.push(end);
    return Buffer.concat(parts);
  }

  return {
    addRow(values) {
      if (!started) start();
      const r = ++rowNo;
      let xml = `<row r="${r}">`;
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (v === null || v === undefined || v === '') continue;
        xml += cellXml((columns[i] ??= columnName(i)) + r, v);
      }
      pending += `${xml}</row>`;
      return pending.length >= CHUNK ? flush() : undefined;
    },
    async end() {
      if (!started) start();
      pending += SHEET_TAIL;
      await flush();
      const ended = waitFor(deflate, 'end', [out, deflate]);
      deflate.end();
      await ended;
      // Data descriptor: CRC and sizes, 8-byte sizes for a ZIP64 entry.
      const dd = Buffer.alloc(zip64 ? 24 : 16);
      dd.writeUInt32LE(0x08074b50, 0);
      dd.writeUInt32LE(sheet.crc >>> 0, 4);
      if (zip64) {
        dd.writeBigUInt64LE(BigInt(sheet.compressed), 8);
        dd.writeBigUInt64LE(BigInt(sheet.size), 16);
      } else {
        dd.writeUInt32LE(sheet.compressed, 8);
        dd.writeUInt32LE(sheet.size, 12);
      }
      push(dd);
      push(trailer());
      out.end();
    },
    destroy() {
      deflate.unpipe(out);
      deflate.destroy();
    },
    get bufferedChars() {
      return pending.length;
    },
  };
}
