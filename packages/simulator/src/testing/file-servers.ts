import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FtpSrv } from 'ftp-srv';

/**
 * The far ends of the simulator's file transfers in tests: a real HTTP server on 127.0.0.1
 * (files to GET, multipart POSTs to receive) and a real FTP server (ftp-srv) on a temporary
 * folder.
 */

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export interface HttpUpload {
  path: string;
  field: string;
  fileName: string;
  content: string;
}

export interface HttpFileServer {
  /** The URL of a path on this server. */
  url(path: string): string;
  /** Every request, as `METHOD /path`. */
  requests: string[];
  uploads: HttpUpload[];
  /** Resolves with the n-th upload (1-based) once it has arrived. */
  upload(n?: number): Promise<HttpUpload>;
  /** Resolves when the client has dropped the held download of `path` (see `hold`). */
  dropped(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `files`: what GET answers (404 for anything else). `hold`: paths whose download sends a first
 * chunk and then never ends, until the client gives up. A POST of multipart/form-data to
 * `/upload…` is stored (201); any other POST gets 500.
 */
export async function startHttpFileServer(files: Record<string, string | Buffer>, hold: string[] = []): Promise<HttpFileServer> {
  const requests: string[] = [];
  const uploads: HttpUpload[] = [];
  let waiters: (() => void)[] = [];
  const drops = new Map<string, Promise<void>>();
  const dropResolvers = new Map<string, () => void>();
  for (const path of hold) drops.set(path, new Promise<void>((resolve) => dropResolvers.set(path, resolve)));
  const changed = () => {
    const current = waiters;
    waiters = [];
    current.forEach((w) => w());
  };

  async function receive(req: IncomingMessage, res: ServerResponse, path: string) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!path.startsWith('/upload')) {
      res.writeHead(500).end('no uploads here');
      return;
    }
    const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    for (const [field, value] of form) {
      if (typeof value === 'string') continue;
      uploads.push({ path, field, fileName: value.name, content: await value.text() });
    }
    res.writeHead(201).end();
    changed();
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(`${req.method} ${path}`);
    changed();
    if (req.method === 'POST') {
      receive(req, res, path).catch(() => res.writeHead(400).end());
      return;
    }
    if (hold.includes(path)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('version: held\n');
      res.on('close', () => dropResolvers.get(path)?.());
      return;
    }
    const body = files[path];
    if (body === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    uploads,
    upload: (n = 1) =>
      new Promise((resolve) => {
        const check = () => (uploads.length >= n ? resolve(uploads[n - 1]!) : waiters.push(check));
        check();
      }),
    dropped: (path) => drops.get(path) ?? Promise.reject(new Error(`${path} is not held`)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface FtpFileServer {
  /** The folder the FTP user sees as `/`. */
  root: string;
  /** `ftp://user:password@127.0.0.1:port` + path. */
  url(path: string): string;
  close(): Promise<void>;
}

const quiet = () => undefined;
const log = { child: () => log, trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet, fatal: quiet };

/** A real FTP server (passive mode) for one user, `sim` with password `p@ss:word` (escaped in URLs). */
export async function startFtpFileServer(): Promise<FtpFileServer> {
  const root = await mkdtemp(join(tmpdir(), 'sim-ftp-'));
  const ftp = new FtpSrv({ url: 'ftp://127.0.0.1:0', pasv_url: '127.0.0.1', pasv_min: 49_152, pasv_max: 65_535, log });
  ftp.on('login', ({ username, password }, resolve, reject) => {
    if (username === 'sim' && password === 'p@ss:word') resolve({ root });
    else reject(new Error('wrong user or password'));
  });
  await ftp.listen();
  const { port } = (ftp as unknown as { server: Server }).server.address() as AddressInfo;
  return {
    root,
    url: (path) => `ftp://sim:${encodeURIComponent('p@ss:word')}@127.0.0.1:${port}${path}`,
    async close() {
      await ftp.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
