// The embedded database in a thread of its own: PGlite behind its wire-protocol server
// (@electric-sql/pglite-socket) on a private Unix socket. The main thread, which serves HTTP and
// the chargers' WebSockets, never runs a query: it speaks the PostgreSQL protocol through
// node-postgres, as it does with a PostgreSQL server (src/db/client.ts, openPglite).
// Plain JavaScript, not bundled: the server's build and its tests load this same file.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { copyDataDir } from './data-dir.mjs';

const { dataDir, template, loadDataDir, cacheMb, socketPath } = workerData;
// A first start: the build's migrated database, copied here while the main thread loads the server.
if (template) await copyDataDir(template, dataDir);
const db = await PGlite.create(dataDir, {
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  // PGlite's own start parameters, and the page cache's size (shared_buffers) instead of the data directory's 128 MB.
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${cacheMb}MB`],
});
// One connection: PGlite is one session, and the server interleaves the messages of several.
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
await server.start();
// pglite-socket writes the answer to each protocol message as a write of its own (a statement with
// parameters is five messages: ParseComplete, BindComplete, rows, CommandComplete, ReadyForQuery), a
// system call each: 16 % of this thread's time under chargers' load (bench/ocpp.mjs --profile). What
// one batch of messages answers is written at once instead: the socket is corked from its first write
// until the messages that came with it are done (they are handled without leaving the event loop's turn).
// Its net.Server is not part of pglite-socket's typed interface; without it the answers go out as before.
const listening = server.server;
if (listening && typeof listening.on === 'function') {
  listening.on('connection', (socket) => {
    const write = socket.write;
    let corked = false;
    socket.write = function (...args) {
      if (!corked) {
        corked = true;
        socket.cork();
        setImmediate(() => {
          corked = false;
          socket.uncork();
        });
      }
      return write.apply(this, args);
    };
  });
}

parentPort.on('message', async (m) => {
  try {
    if (m.op === 'dump') {
      const value = await (await db.dumpDataDir('none')).arrayBuffer();
      parentPort.postMessage({ id: m.id, ok: true, value }, [value]);
    } else if (m.op === 'close') {
      await server.stop();
      await db.close();
      parentPort.postMessage({ id: m.id, ok: true });
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.stack : String(err) });
  }
});
parentPort.postMessage({ ready: true });
