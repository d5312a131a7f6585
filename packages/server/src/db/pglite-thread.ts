import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { serverRoot } from '../config.js';
import { DEFAULT_PGLITE_CACHE_MB } from './pglite-cache.js';
import { templatePath } from './pglite-template.js';

/**
 * PGlite's thread (src/db/pglite-worker.mjs) as it starts: on its way as soon as it is asked for, so
 * that the server's own modules load while it copies a first start's template and opens the
 * database (`src/main.ts` asks for it before it loads them). Only node's own modules here.
 */
export interface PgliteThread {
  worker: Worker;
  /** The private directory of its Unix socket. */
  socketDir: string;
  /** Settles when the database is open and the socket listens; rejects when the thread fails first. */
  started: Promise<void>;
  /** The thread copies the build's template into the data directory first (a first start). */
  fromTemplate: boolean;
}

export function startPgliteThread(opts: {
  dataDir?: string;
  /** Copied into `dataDir` by the thread before it opens it: the data directory must be absent or empty. */
  template?: string;
  loadDataDir?: ArrayBuffer;
  cacheMb?: number;
  /** The private directory of its socket; a new one when absent. */
  socketDir?: string;
}): PgliteThread {
  if (opts.dataDir && !opts.template) fs.mkdirSync(opts.dataDir, { recursive: true });
  const socketDir = opts.socketDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'csms-pglite-'));
  const worker = new Worker(path.join(serverRoot, 'src/db/pglite-worker.mjs'), {
    workerData: {
      dataDir: opts.dataDir,
      template: opts.template,
      loadDataDir: opts.loadDataDir,
      cacheMb: opts.cacheMb ?? DEFAULT_PGLITE_CACHE_MB,
      socketPath: path.join(socketDir, '.s.PGSQL.5432'),
    },
    transferList: opts.loadDataDir ? [opts.loadDataDir] : [],
  });
  const started = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PGlite thread ended during start-up (exit ${code})`)));
    worker.once('message', () => resolve());
  });
  // Whoever connects awaits it; a failure before then is theirs to see, not an unhandled rejection.
  started.catch(() => {});
  return { worker, socketDir, started, fromTemplate: !!opts.template };
}

/** Where PGlite keeps its data directory in the server's `dataDir`. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

/**
 * PGlite's thread on the data directory `dataDir`; on a first start (the directory absent or empty) it
 * copies the build's migrated template there first (scripts/pglite-template.ts), when there is one.
 */
export function startPgliteIn(dataDir: string, opts: { template?: string; cacheMb?: number } = {}): PgliteThread {
  const template = opts.template ?? templatePath();
  const fresh = !fs.existsSync(dataDir) || fs.readdirSync(dataDir).length === 0;
  return startPgliteThread({ dataDir, cacheMb: opts.cacheMb, template: fresh && fs.existsSync(template) ? template : undefined });
}
