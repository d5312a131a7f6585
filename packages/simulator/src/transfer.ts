import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { Client } from 'basic-ftp';

/**
 * Real file transfers for UpdateFirmware and GetDiagnostics: http(s) through `fetch`, ftp(s)
 * through basic-ftp (user and password from the URL, passive mode: basic-ftp has no other).
 * A download streams through a SHA-256 and a byte count and keeps only the file's first bytes,
 * never the whole file. `ftps:` is explicit FTPS (AUTH TLS on the URL's port, 21 by default).
 * FTP paths are relative to the login directory, as RFC 1738 reads them (`ftp://h//abs` for an
 * absolute one).
 */

export interface Downloaded {
  bytes: number;
  /** Lower-case hex. */
  sha256: string;
  /** The file's first bytes (at most HEAD_BYTES), enough to read a version line. */
  head: Buffer;
}

const HEAD_BYTES = 256;
const FTP_TIMEOUT_MS = 30_000;

export class TransferError extends Error {
  override name = 'TransferError';
}

function parse(location: string): URL {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new TransferError(`not a URL: ${location}`);
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol)) throw new TransferError(`unsupported scheme ${url.protocol}`);
  return url;
}

/** Hashes, counts and keeps the head of what passes through. */
function digest() {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let bytes = 0;
  let kept = 0;
  return {
    add(chunk: Uint8Array) {
      hash.update(chunk);
      bytes += chunk.byteLength;
      if (kept < HEAD_BYTES) {
        const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - kept));
        head.push(part);
        kept += part.byteLength;
      }
    },
    done: (): Downloaded => ({ bytes, sha256: hash.digest('hex'), head: Buffer.concat(head) }),
  };
}

async function withFtp<T>(url: URL, signal: AbortSignal, fn: (client: Client, path: string) => Promise<T>): Promise<T> {
  signal.throwIfAborted();
  const client = new Client(FTP_TIMEOUT_MS);
  const abort = () => client.close();
  signal.addEventListener('abort', abort, { once: true });
  try {
    await client.access({
      host: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      user: url.username ? decodeURIComponent(url.username) : 'anonymous',
      password: url.password ? decodeURIComponent(url.password) : 'anonymous@',
      secure: url.protocol === 'ftps:',
    });
    return await fn(client, decodeURIComponent(url.pathname).replace(/^\//, ''));
  } finally {
    signal.removeEventListener('abort', abort);
    client.close();
    signal.throwIfAborted();
  }
}

/** Downloads `location`; rejects on a bad URL, an HTTP status ≥ 400, a network or FTP error, or `signal`. */
export async function download(location: string, signal: AbortSignal): Promise<Downloaded> {
  const url = parse(location);
  const d = digest();
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const res = await fetch(url, { signal });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new TransferError(`GET ${location}: HTTP ${res.status}`);
    }
    // A reader, not `for await`: the console's type-check (DOM library) sees this file too, where a web stream is not iterable.
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) d.add(r.value);
    return d.done();
  }
  await withFtp(url, signal, (client, path) => {
    if (!path || path.endsWith('/')) throw new TransferError(`no file name in ${location}`);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        d.add(chunk);
        callback();
      },
    });
    return client.downloadTo(sink, path);
  });
  return d.done();
}

/**
 * Uploads a file to `location`. http(s): one POST of `multipart/form-data` to exactly
 * `location`, the file in the field `file` under `fileName` (the CSMS's upload endpoint names
 * its own path). ftp(s): the URL's path is a directory (trailing slash or not) and the file is
 * stored there as `fileName`.
 */
export async function upload(location: string, fileName: string, content: string, signal: AbortSignal): Promise<void> {
  const url = parse(location);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/plain' }), fileName);
    const res = await fetch(url, { method: 'POST', body: form, signal });
    await res.body?.cancel();
    if (!res.ok) throw new TransferError(`POST ${location}: HTTP ${res.status}`);
    return;
  }
  await withFtp(url, signal, async (client, path) => {
    const dir = path.replace(/\/+$/, '');
    if (dir) await client.cd(dir);
    await client.uploadFrom(Readable.from([Buffer.from(content)]), fileName);
  });
}
