// The embedded database in a thread of its own: PGlite behind a wire-protocol server on a private
// Unix socket. The main thread, which serves HTTP and the chargers' WebSockets, never runs a query:
// it speaks the PostgreSQL protocol through node-postgres, as it does with a PostgreSQL server
// (src/db/client.ts, openPglite). Plain JavaScript, not bundled: the server's build and its tests
// load this same file.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { copyDataDir } from './data-dir.mjs';

const { dataDir, template, loadDataDir, cacheMb, socketPath } = workerData;
// A first start: the build's migrated database, copied here while the main thread loads the server.
if (template) await copyDataDir(template, dataDir);
const db = await PGlite.create(dataDir, {
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  // PGlite's own start parameters, and the page cache's size (shared_buffers) instead of the data directory's 128 MB.
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${cacheMb}MB`],
});
const wire = serveWire(db);
await new Promise((resolve, reject) => wire.server.once('error', reject).listen(socketPath, resolve));

/**
 * PGlite's wire protocol, one connection at a time (PGlite is one session; node-postgres's pool
 * for it holds one). Everything complete that has arrived goes to PGlite in one call, and what it answers
 * is written at once: a batch of the chargers' writes is seven messages or more (Bind and Execute for each
 * statement, then Sync), and @electric-sql/pglite-socket, used before, handed PGlite each message alone,
 * through its queue and lock, and wrote each answer with a system call of its own (README "Benchmarks",
 * "PGlite's messages in one call": 28 % less of this thread per call flat out). PGlite, like a server
 * reading its socket, takes several messages in one input, skips to the Sync after an error, and keeps
 * the session's state between inputs. The first message of a connection has no type byte: an SSL request
 * is refused ('N'), a cancel request ignored (not supported), the startup message handed to PGlite.
 * A connection that closes inside a transaction leaves it rolled back, so the next one starts clean.
 */
function serveWire(db) {
  const SSL_REQUEST = 80877103;
  const CANCEL_REQUEST = 80877102;
  /** PGlite's work, connection after connection, in order. */
  let work = Promise.resolve();
  const serially = (fn) => (work = work.then(fn).catch(() => {}));
  const open = new Set();
  const server = net.createServer((socket) => {
    open.add(socket);
    let pending = Buffer.alloc(0);
    let started = false;
    const answer = (input) => {
      socket.cork();
      return db
        .runExclusive(() =>
          db.execProtocolRawStream(new Uint8Array(input.buffer, input.byteOffset, input.length), {
            onRawData: (out) => {
              if (out.length > 0 && !socket.destroyed) socket.write(Buffer.from(out));
            },
          }),
        )
        .finally(() => socket.uncork());
    };
    const take = async () => {
      while (!started && pending.length >= 8) {
        const length = pending.readInt32BE(0);
        if (length < 8) throw new Error(`malformed first message (length ${length})`);
        if (pending.length < length) return;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST) socket.write('N');
        else if (code !== CANCEL_REQUEST) {
          started = true;
          await answer(message);
        }
      }
      if (!started) return;
      let end = 0;
      while (pending.length - end >= 5) {
        const length = 1 + pending.readInt32BE(end + 1);
        if (length < 5) throw new Error(`malformed message (length ${length - 1})`);
        if (pending.length - end < length) break;
        end += length;
      }
      if (end === 0) return;
      const messages = pending.subarray(0, end);
      pending = pending.subarray(end);
      await answer(messages);
    };
    socket.on('data', (chunk) => {
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      serially(() => take().catch((err) => socket.destroy(err)));
    });
    socket.on('error', () => {
      /* its close follows */
    });
    socket.on('close', () => {
      open.delete(socket);
      serially(async () => {
        if (db.isInTransaction()) await db.exec('ROLLBACK');
      });
    });
  });
  server.maxConnections = 1;
  return {
    server,
    /** Stops listening, drops the connection and waits for PGlite's work under way. */
    async close() {
      const closed = new Promise((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
      await work;
    },
  };
}

parentPort.on('message', async (m) => {
  try {
    if (m.op === 'dump') {
      const value = await (await db.dumpDataDir('none')).arrayBuffer();
      parentPort.postMessage({ id: m.id, ok: true, value }, [value]);
    } else if (m.op === 'close') {
      await wire.close();
      await db.close();
      parentPort.postMessage({ id: m.id, ok: true });
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.stack : String(err) });
  }
});
parentPort.postMessage({ ready: true });
