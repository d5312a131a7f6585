import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnName, createXlsxWriter, needsZip64, sheetName, type XlsxValue, type XlsxWriterOptions } from './xlsx-writer.js';
import { exportRowLimit } from './export.js';

/** A destination that keeps what it is given; `stalled` holds its write callbacks (a client that stops reading). */
function sink(highWaterMark = 16 * 1024) {
  const chunks: Buffer[] = [];
  const held: (() => void)[] = [];
  const state = { stalled: false };
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      if (state.stalled) held.push(() => cb());
      else cb();
    },
  });
  const release = () => {
    state.stalled = false;
    for (const cb of held.splice(0)) cb();
  };
  return { stream, chunks, held, state, release, bytes: () => Buffer.concat(chunks) };
}

async function xlsx(rows: XlsxValue[][], options: Partial<XlsxWriterOptions> = {}) {
  const out = sink();
  const finished = new Promise((r) => out.stream.on('finish', r));
  const w = createXlsxWriter(out.stream, { sheetName: 'Sheet', ...options });
  for (const row of rows) await w.addRow(row);
  await w.end();
  await finished;
  return out.bytes();
}

interface ZipEntry {
  name: string;
  version: number;
  flags: number;
  localVersion: number;
  localExtra: number;
  descriptor: number;
  data: Buffer;
}

/**
 * A second, strict reader of our own: walks the central directory, checks every local header,
 * the deflated data against CRC and sizes, the data descriptor, and that the entries sit end to
 * end up to the central directory.
 */
function readZip(buf: Buffer): ZipEntry[] {
  const eocd = buf.length - 22;
  expect(buf.readUInt32LE(eocd)).toBe(0x06054b50);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  expect(cdOffset + cdSize).toBe(eocd);
  const entries: ZipEntry[] = [];
  let at = cdOffset;
  let expectedLocal = 0;
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(at)).toBe(0x02014b50);
    const version = buf.readUInt16LE(at + 6);
    const flags = buf.readUInt16LE(at + 8);
    expect(buf.readUInt16LE(at + 10)).toBe(8);
    const crc = buf.readUInt32LE(at + 16);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;

    expect(local).toBe(expectedLocal);
    expect(buf.readUInt32LE(local)).toBe(0x04034b50);
    const localVersion = buf.readUInt16LE(local + 4);
    expect(buf.readUInt16LE(local + 6)).toBe(flags);
    expect(buf.toString('utf8', local + 30, local + 30 + buf.readUInt16LE(local + 26))).toBe(name);
    const localExtra = buf.readUInt16LE(local + 28);
    const start = local + 30 + nameLength + localExtra;
    const data = zlib.inflateRawSync(buf.subarray(start, start + compressed));
    expect(data.length).toBe(size);
    expect(zlib.crc32(data)).toBe(crc);
    let descriptor = 0;
    if (flags & 0x08) {
      // Sizes are 8 bytes when the entry was written as ZIP64 (version 4.5).
      const wide = localVersion >= 45;
      const d = start + compressed;
      expect(buf.readUInt32LE(d)).toBe(0x08074b50);
      expect(buf.readUInt32LE(d + 4)).toBe(crc);
      expect(Number(wide ? buf.readBigUInt64LE(d + 8) : buf.readUInt32LE(d + 8))).toBe(compressed);
      expect(Number(wide ? buf.readBigUInt64LE(d + 16) : buf.readUInt32LE(d + 12))).toBe(size);
      descriptor = wide ? 24 : 16;
    } else {
      expect(buf.readUInt32LE(local + 14)).toBe(crc);
      expect(buf.readUInt32LE(local + 18)).toBe(compressed);
      expect(buf.readUInt32LE(local + 22)).toBe(size);
    }
    expectedLocal = start + compressed + descriptor;
    entries.push({ name, version, flags, localVersion, localExtra, descriptor, data });
  }
  expect(expectedLocal).toBe(cdOffset);
  return entries;
}

const sheetXml = (buf: Buffer) =>
  readZip(buf)
    .find((e) => e.name === 'xl/worksheets/sheet1.xml')!
    .data.toString('utf8');

function unzipAvailable() {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `unzip -t` on the bytes: Info-ZIP's own check of every entry. */
function unzipTest(buf: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-writer-'));
  try {
    const file = path.join(dir, 'test.xlsx');
    fs.writeFileSync(file, buf);
    return execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// 30 columns, so past Z (AA…AD); what goes in, and what a reader must get back.
const header = Array.from({ length: 30 }, (_, i) => `col ${columnName(i)}`);
const mixed: { in: XlsxValue; out: unknown }[] = [
  { in: 'plain', out: 'plain' },
  { in: '中文：充电桩 №7，电价 ¥1.2/kWh', out: '中文：充电桩 №7，电价 ¥1.2/kWh' },
  { in: 'emoji 🔌⚡ and é', out: 'emoji 🔌⚡ and é' },
  { in: 0, out: 0 },
  { in: 42, out: 42 },
  { in: -17.25, out: -17.25 },
  { in: 0.1 + 0.2, out: 0.1 + 0.2 },
  { in: 1e21, out: 1e21 },
  { in: -1.5e-7, out: -1.5e-7 },
  { in: true, out: true },
  { in: false, out: false },
  { in: null, out: null },
  { in: undefined, out: null },
  { in: '', out: null },
  { in: `<b>Tom & "Jerry"</b> it's > all`, out: `<b>Tom & "Jerry"</b> it's > all` },
  { in: ']]> <![CDATA[ x', out: ']]> <![CDATA[ x' },
  { in: 'ctl\u0000\u0001\u0008\u000B\u000C\u000E\u001F\uFFFE\uFFFF|end', out: 'ctl|end' },
  { in: 'lone \uD800 and \uDC00 surrogates', out: 'lone  and  surrogates' },
  { in: 'tab\there', out: 'tab\there' },
  { in: 'two\nlines', out: 'two\nlines' },
  { in: 'crlf\r\nkept', out: 'crlf\r\nkept' },
  { in: '  padded  ', out: '  padded  ' },
  { in: '=1+2', out: '=1+2' },
  { in: '007', out: '007' },
  { in: NaN, out: 'NaN' },
  { in: Infinity, out: 'Infinity' },
  { in: 'x'.repeat(70_000), out: 'x'.repeat(32_767) }, // longer than one chunk; Excel's limit a cell
  { in: '🔌'.repeat(20_000), out: '🔌'.repeat(16_383) }, // the limit falls inside a surrogate pair
  { in: 2026, out: 2026 },
  { in: 'last, AD', out: 'last, AD' },
];

describe('xlsx writer', () => {
  it('names columns past Z', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16_383].map(columnName)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
  });

  it('makes sheet names valid for Excel', () => {
    expect(sheetName('charge_record')).toBe('charge_record');
    expect(sheetName('a/b\\c[d]:e*f?g')).toBe('a_b_c_d__e_f_g');
    expect(sheetName("'quoted'")).toBe('quoted');
    expect(sheetName('x'.repeat(40))).toBe('x'.repeat(31));
    expect(sheetName(`${'x'.repeat(30)}'yz`)).toBe('x'.repeat(30));
    expect(sheetName(`${'充'.repeat(30)}🔌🔌`)).toBe(`${'充'.repeat(30)}🔌`);
    expect(sheetName('')).toBe('Sheet1');
    expect(sheetName("''")).toBe('Sheet1');
    expect(sheetName('History')).toBe('History_');
    expect(sheetName('bad\u0001name')).toBe('badname');
  });

  it('needs ZIP64 only above 256 bytes a cell of 4 GiB', () => {
    expect(needsZip64(16_777_215)).toBe(false);
    expect(needsZip64(16_777_216)).toBe(true);
    expect(needsZip64(200_001 * 25)).toBe(false);
    expect(needsZip64(1_000_001 * 25)).toBe(true);
  });

  for (const zip64 of [false, true]) {
    it(`writes values a spreadsheet reader gets back exactly (${zip64 ? 'ZIP64' : 'plain ZIP'})`, async () => {
      const rows = [header, mixed.map((c) => c.in), mixed.map((c) => c.in).reverse()];
      const buf = await xlsx(rows, { sheetName: 'Records: 2026/01 [east]', zip64 });

      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(buf as never);
      const ws = wb.worksheets[0]!;
      expect(ws.name).toBe('Records_ 2026_01 _east_');
      expect(ws.actualRowCount).toBe(3);
      expect(ws.getRow(1).values).toEqual([undefined, ...header]);
      mixed.forEach((c, i) => {
        expect(ws.getRow(2).getCell(i + 1).value, `${columnName(i)}2`).toEqual(c.out);
        expect(ws.getRow(3).getCell(30 - i).value, `${columnName(29 - i)}3`).toEqual(c.out);
      });

      const entries = readZip(buf);
      expect(entries.map((e) => e.name)).toEqual([
        '[Content_Types].xml',
        '_rels/.rels',
        'xl/workbook.xml',
        'xl/_rels/workbook.xml.rels',
        'xl/styles.xml',
        'xl/sharedStrings.xml',
        'xl/worksheets/sheet1.xml',
      ]);
      const sheet = entries.at(-1)!;
      // Streamed: data descriptor; no ZIP64 extra field in the local header (Excel refuses one there).
      expect(sheet.flags & 0x08).toBe(8);
      expect(sheet.localExtra).toBe(0);
      expect([sheet.version, sheet.localVersion, sheet.descriptor]).toEqual(zip64 ? [45, 45, 24] : [20, 20, 16]);
      const xml = sheet.data.toString('utf8');
      expect(xml).toContain('<c r="AA1" t="inlineStr"><is><t>col AA</t></is></c>');
      expect(xml).toContain('<c r="AD2" t="inlineStr"><is><t>last, AD</t></is></c>');
      expect(xml).toContain('<c r="J2" t="b"><v>1</v></c>');
      expect(xml).toContain('<c r="F2"><v>-17.25</v></c>');
      expect(xml).not.toContain('r="L2"'); // null
      expect(xml).toContain('<t>&lt;b&gt;Tom &amp; "Jerry"&lt;/b&gt; it\'s &gt; all</t>');
      expect(xml).toContain('<t xml:space="preserve">  padded  </t>');
      expect(xml).toContain('<t xml:space="preserve">crlf&#13;\nkept</t>');
    });
  }

  it('reads back through a streaming (local-header) reader too', async () => {
    const buf = await xlsx([header, mixed.map((c) => c.in)]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.read(Readable.from([buf]));
    const ws = wb.worksheets[0]!;
    mixed.forEach((c, i) => expect(ws.getRow(2).getCell(i + 1).value, columnName(i)).toEqual(c.out));
  });

  it.runIf(unzipAvailable())('passes unzip -t, plain and ZIP64', async () => {
    for (const zip64 of [false, true]) {
      const report = unzipTest(await xlsx([header, mixed.map((c) => c.in)], { zip64 }));
      expect(report).toContain('testing: xl/worksheets/sheet1.xml   OK');
      expect(report).toContain('No errors detected');
    }
  });

  it("protects a literal _xHHHH_ from Excel's escape decoding", async () => {
    const xml = sheetXml(await xlsx([['a_x0041_b', '_x00e9_']]));
    expect(xml).toContain('<t>a_x005F_x0041_b</t>');
    expect(xml).toContain('<t>_x005F_x00e9_</t>');
  });

  it('writes an empty sheet as a valid workbook', async () => {
    const buf = await xlsx([]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as never);
    expect(wb.worksheets[0]!.actualRowCount).toBe(0);
  });

  // Random hex compresses about 2:1, so what the writer lets through shows in the destination.
  let seed = 7;
  const hex = () => {
    let s = '';
    for (let i = 0; i < 4; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      s += seed.toString(16).padStart(8, '0');
    }
    return s;
  };
  const row = (i: number) => [i, ...Array.from({ length: 10 }, hex)]; // about 550 bytes of XML
  const settlesWithin = (p: Promise<void>, ms: number) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  /** Adds rows until the writer makes us wait for longer than a moment; at most `max`. */
  async function fillUntilBlocked(w: ReturnType<typeof createXlsxWriter>, max: number) {
    for (let i = 0; i < max; i++) {
      const p = w.addRow(row(i));
      expect(w.bufferedChars).toBeLessThan(64 * 1024 + 1024);
      if (p && !(await settlesWithin(p, 300))) return { accepted: i + 1, blocked: p };
    }
    return { accepted: max, blocked: undefined };
  }

  it('stops taking rows while the destination does not drain, in bounded memory, and resumes', async () => {
    const out = sink();
    const finished = new Promise((r) => out.stream.on('finish', r));
    const w = createXlsxWriter(out.stream, { sheetName: 'Sheet' });
    out.state.stalled = true;
    // 100,000 rows would be about 55 MB of XML: a writer without back-pressure takes them all.
    const { accepted, blocked } = await fillUntilBlocked(w, 100_000);
    expect(blocked).toBeDefined();
    expect(accepted).toBeLessThan(4_000); // ≈ 2 MB of XML; in practice a few hundred rows
    expect(out.held.length).toBeGreaterThan(0);
    expect(out.stream.writableLength).toBeLessThan(256 * 1024);

    out.release();
    await blocked;
    for (let i = accepted; i < 20_000; i++) {
      const p = w.addRow(row(i));
      if (p) await p;
    }
    await w.end();
    await finished;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes() as never);
    const ws = wb.worksheets[0]!;
    expect(ws.actualRowCount).toBe(20_000);
    expect(ws.getRow(20_000).getCell(1).value).toBe(19_999);
  });

  it('fails instead of waiting forever when the destination is destroyed (client gone)', async () => {
    const out = sink();
    out.stream.on('error', () => {});
    const w = createXlsxWriter(out.stream, { sheetName: 'Sheet' });
    out.state.stalled = true;
    const { blocked } = await fillUntilBlocked(w, 100_000);
    expect(blocked).toBeDefined();
    out.stream.destroy();
    await expect(blocked).rejects.toThrow(/closed/);
    await expect(w.end()).rejects.toThrow(/closed/);
    w.destroy();
  });
});

describe('export row limit', () => {
  it('keeps xlsx within one worksheet, header included, and leaves CSV to the configured limit', () => {
    expect(exportRowLimit('xlsx', 200_000)).toBe(200_000);
    expect(exportRowLimit('xlsx', 5_000_000)).toBe(1_048_575);
    expect(exportRowLimit('csv', 5_000_000)).toBe(5_000_000);
  });
});
