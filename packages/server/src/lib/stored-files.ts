import fs from 'node:fs';

/**
 * Uploads are judged by their bytes (file-type), not their name: each extension a widget allows
 * names the formats its bytes may be. The legacy Office formats are all a compound file (CFB) to
 * file-type; an installer is one too and is told apart by its root CLSID. Plain text has no
 * signature and gets a rule of its own (textCharset). SVG and HTML are never images.
 */
const SIGNATURES: Record<string, readonly string[]> = {
  png: ['png'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  pdf: ['pdf'],
  docx: ['docx'],
  xlsx: ['xlsx'],
  pptx: ['pptx'],
  doc: ['cfb'],
  xls: ['cfb'],
  ppt: ['cfb'],
};

/** The type a stored file is served with, by the extension the server gave it (which its bytes matched). */
const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
};

/** Images a browser may show inline; everything else is downloaded. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif']);

// Root CLSIDs of Windows Installer packages, patches and transforms, as stored (first three fields little-endian).
const INSTALLER_CLSIDS = new Set([
  '84100c0000000000c000000000000046',
  '86100c0000000000c000000000000046',
  '82100c0000000000c000000000000046',
]);

async function isInstaller(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const header = Buffer.alloc(512);
    await handle.read(header, 0, 512, 0);
    const sectorSize = 2 ** header.readUInt16LE(0x1e);
    const firstDirectorySector = header.readUInt32LE(0x30);
    const clsid = Buffer.alloc(16);
    const { bytesRead } = await handle.read(clsid, 0, 16, (firstDirectorySector + 1) * sectorSize + 0x50);
    return bytesRead === 16 && INSTALLER_CLSIDS.has(clsid.toString('hex'));
  } finally {
    await handle.close();
  }
}

const MARKUP = /^\s*<(?:!doctype\s+html|html|head|body|script|iframe|svg|\?xml|!--|style|title|div|table|font|a|b|p|br|h1)[\s>/]/i;

/**
 * The charset of a plain-text file, or null when it is not one: UTF-8 (BOM or not), UTF-16 with a
 * BOM, or GB18030 (what Chinese editors save); no control characters but tab, line breaks and form
 * feed; and not markup that a browser would take for HTML or SVG.
 */
export function textCharset(bytes: Buffer): string | null {
  const candidates =
    bytes[0] === 0xff && bytes[1] === 0xfe ? ['utf-16le'] : bytes[0] === 0xfe && bytes[1] === 0xff ? ['utf-16be'] : ['utf-8', 'gb18030'];
  for (const charset of candidates) {
    let text: string;
    try {
      text = new TextDecoder(charset, { fatal: true }).decode(bytes);
    } catch {
      continue;
    }
    if (/(?![\t\n\r\f])\p{Cc}/u.test(text) || MARKUP.test(text)) return null;
    return charset;
  }
  return null;
}

/**
 * The type of an uploaded file if its bytes are what its extension says (one the widget allows),
 * else null. Reads only the file on disk.
 */
export async function sniffUpload(file: string, ext: string): Promise<string | null> {
  // Loaded with the first upload rather than with the server (≈ 35 ms of a start).
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(file);
  if (ext === 'txt') {
    if (detected) return null;
    const charset = textCharset(await fs.promises.readFile(file));
    return charset ? `text/plain; charset=${charset}` : null;
  }
  if (!detected || !SIGNATURES[ext]?.includes(detected.ext)) return null;
  if (detected.ext === 'cfb' && (await isInstaller(file))) return null;
  return MIME[ext] ?? null;
}

/** RFC 6266 with an ASCII fallback and the UTF-8 name (RFC 8187), so that every browser keeps a Chinese file name. */
export function contentDisposition(name: string, type: 'inline' | 'attachment'): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The type a stored file's bytes were found to be; a file stored before uploads were sniffed has
 * its extension's (its recorded type was the browser's claim).
 */
export function storedType(file: { fileName: string; mime: string | null }): string {
  const byExt = MIME[file.fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
  return file.mime && file.mime.split(';')[0] === byExt ? file.mime : byExt;
}

/**
 * Response headers of a stored file: its stored type, never sniffed again by the browser, shown
 * inline only when an image, and a document that can run nothing.
 */
export function fileHeaders(file: { fileName: string; originalName: string; mime: string | null }): Record<string, string> {
  const type = storedType(file);
  return {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': contentDisposition(file.originalName, IMAGE_TYPES.has(type) ? 'inline' : 'attachment'),
    'cache-control': 'private, no-cache',
    'download-filename': encodeURIComponent(file.originalName),
    'access-control-expose-headers': 'download-filename',
  };
}
