import fs from 'node:fs';
import path from 'node:path';
import { Negotiator } from '@fastify/accept-negotiator';
import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';

/** Build files are named by their content's hash: a browser may keep one as long as it likes. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The console's build files (`<dist>/assets`: scripts and stylesheets named by their content's hash,
 * each beside the brotli and gzip copies the web build writes), served from memory.
 *
 * Each is read once, at its first request, and kept: the directory is the build's and does not change
 * while the server runs (a new build is a new server), at most the size of the build (about 8 MB).
 * A cold console route fetches about a hundred of them; served from disk by `@fastify/static` each
 * cost 1.6–2.1 ms of server CPU on the 2-core development machine (a stat, an open, reads and a
 * close on libuv's thread pool, each of which the event loop pays for), against 0.4–0.7 ms from
 * memory (README, "Console weight"). The copy sent is the one the browser accepts, brotli first;
 * the answer varies by Accept-Encoding and the browser keeps it a year without asking again.
 */
export function consoleAssets(server: FastifyInstance, { dir }: { dir: string }) {
  const names = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  // No cache of answers by header: a client choosing its headers would grow it without end.
  const encodings = new Negotiator({ supportedValues: ['br', 'gzip', 'identity'] });
  const suffix = { br: '.br', gzip: '.gz', identity: '' } as const;
  const files = new Map<string, Promise<Buffer>>();
  const read = (name: string) => {
    let file = files.get(name);
    if (!file) {
      file = fs.promises.readFile(path.join(dir, name));
      files.set(name, file);
      // A failed read (the file removed under the server) is not remembered.
      file.catch(() => files.delete(name));
    }
    return file;
  };

  server.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const { name } = req.params;
    // Only the build's own files by their own names: the compressed copies are a choice of encoding.
    if (!names.has(name) || name.endsWith('.br') || name.endsWith('.gz')) return reply.callNotFound();
    const accepted = encodings.negotiate(req.headers['accept-encoding'] ?? 'identity') ?? 'identity';
    const encoding = accepted !== 'identity' && names.has(name + suffix[accepted]) ? accepted : 'identity';
    const body = await read(name + suffix[encoding]);
    const type = send.mime.getType(name) ?? 'application/octet-stream';
    reply
      .header('content-type', type.startsWith('text/') || type.endsWith('javascript') ? `${type}; charset=utf-8` : type)
      .header('cache-control', ASSET_CACHE_CONTROL)
      .header('vary', 'accept-encoding');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(body);
  });
}
