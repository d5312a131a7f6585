import zlib from 'node:zlib';

/** Bytes of real files, and of the disguised ones an attacker uploads, for the upload tests. */

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 PNG; `padBytes` adds a text chunk of that size, to make it as large as a test needs. */
export function png(padBytes = 0): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const idat = zlib.deflateSync(Buffer.from([0, 0x44, 0xa3, 0x72, 0xff]));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    ...(padBytes > 0 ? [chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padBytes, 'x')]))] : []),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const jpeg = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
export const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A Windows executable's header (what an `.exe` renamed to `.png` starts with). */
export const exe = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64),
  Buffer.from('PE\0\0'),
]);
export const svgWithScript = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert(1)</script></svg>',
);
export const html = Buffer.from('<!DOCTYPE html><html><body><script>fetch("/prod-api/web/info")</script></body></html>');

/** A compound file (the legacy Office container) whose root entry carries `clsid` (16 bytes as stored). */
export function compoundFile(clsid: Buffer): Buffer {
  const sector = 512;
  const header = Buffer.alloc(sector);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e); // 512-byte sectors
  header.writeUInt32LE(0, 0x30); // the directory starts in sector 0
  const directory = Buffer.alloc(sector);
  Buffer.from('Root Entry\0', 'utf16le').copy(directory, 0);
  directory.writeUInt16LE(22, 0x40);
  directory[0x42] = 5; // root storage
  clsid.copy(directory, 0x50);
  return Buffer.concat([header, directory]);
}
/** Root CLSIDs as stored: a Word 97 document and a Windows Installer package. */
export const WORD_CLSID = Buffer.from('0609020000000000c000000000000046', 'hex');
export const MSI_CLSID = Buffer.from('84100c0000000000c000000000000046', 'hex');

/** Upload bytes as `name` through the console's endpoint; the reply as the widgets get it. */
export async function uploadAs(url: string, token: string, name: string, bytes: Buffer, kind: 'image' | 'file' | 'scan' = 'image') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${url}/prod-api/common/upload?kind=${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await res.json()) as { code: number; msg: string; fileName: string; url: string };
}
