import cluster from 'node:cluster';
import { loadConfig } from './config.js';
import { startPgliteIn, pgliteDir } from './db/pglite-thread.js';
import type { AppModule } from './start.js';
import { runPrimary, workerNode } from './workers.js';

/*
 * Only the settings and PGlite's thread load before the database is asked for: the thread copies a
 * first start's template and opens the database while the rest of the server loads. The app (its
 * modules and their packages: most of the server's code) is a chunk of its own (esbuild --splitting),
 * and so is the start (src/start.ts: the database client, the seed); the contract's settings part is
 * its own entry (`@csms/contract/settings`), so that zod and the endpoints' schemas load during the
 * database's start too (bench/startup.mjs). The workers' primary never loads the app.
 */
const loadApp = (): Promise<AppModule> => import('./app.js');

const config = loadConfig();

if (config.workers > 1 && cluster.isPrimary) {
  const { prepare } = await import('./start.js');
  await runPrimary(config, prepare);
} else if (cluster.isWorker && process.env.CSMS_WORKER_INDEX) {
  // One of ours (workers.ts sets the index); a worker of another cluster manager runs as a whole server.
  const { index, nodeId, transport } = workerNode(config);
  const { serve } = await import('./start.js');
  await serve({ ...config, nodeId }, { app: loadApp(), transport, demo: config.demo && index === 1 });
} else {
  const thread = config.databaseUrl ? undefined : startPgliteIn(pgliteDir(config.dataDir), { cacheMb: config.pgliteCacheMb });
  const app = loadApp();
  const { beginPrepared, serve } = await import('./start.js');
  await serve(config, { opening: beginPrepared(config, thread), app, demo: config.demo });
}
