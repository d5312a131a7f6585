import type { Cluster } from './bus/nats.js';
import type { Config } from './config.js';
import { beginDatabase, opened, waitingFor, type Database, type Opening } from './db/client.js';
import type { PgliteThread } from './db/pglite-thread.js';
import { seed } from './db/seed.js';
import { createPasswordRule } from './lib/password-rule.js';
import type * as App from './app.js';
import type { Demo } from './demo/demo.js';

/*
 * A node's start once its settings are read (src/main.ts): the database prepared, the app built while
 * it opens, the ports open. A chunk of its own, loaded while PGlite's thread starts.
 */
export type AppModule = typeof App;

const databaseOptions = (config: Config) => ({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  pgliteCacheMb: config.pgliteCacheMb,
  namedStatements: config.namedStatements,
});

/** Migrate, seed the first administrator, end the demo's orphaned sessions: once, before any node serves. */
export const prepare = (config: Config, thread?: PgliteThread): Promise<Database> => opened(beginPrepared(config, thread));

/** The database as `prepare` leaves it, opening: `ready` settles once it is prepared. */
export function beginPrepared(config: Config, thread?: PgliteThread): Opening {
  const opening = beginDatabase({ ...databaseOptions(config), thread });
  return { database: opening.database, ready: opening.ready.then(() => firstWork(config, opening.database)) };
}

async function firstWork(config: Config, database: Database): Promise<void> {
  const seeded = await seed(database.db, { adminPassword: config.adminPassword, passwordPolicy: config.passwordPolicy });
  // Taken as given (it may be what a deployment script signs in with), but said once so that it gets changed.
  const weak =
    seeded.created &&
    config.adminPassword &&
    createPasswordRule(config.passwordPolicy).problem('en', 'auth', 'password', config.adminPassword);
  if (weak) console.warn(`csms: CSMS_ADMIN_PASSWORD does not meet the password policy (${weak}); change it after signing in`);
  // Before the app loads running transactions and settles finished ones: the demo's own chargers restart empty.
  if (config.demo) await (await import('./demo/demo.js')).endOrphanedDemoSessions(database.db);
  if (seeded.generatedPassword) {
    // Printed once, on the start that created the account; it is not stored anywhere readable.
    console.log(
      `\n  First administrator created.  username: admin   password: ${seeded.generatedPassword}\n  Change it after signing in.\n`,
    );
  }
}

/**
 * One node: the console, the API and the OCPP endpoint on the configured ports (shared with the other
 * workers). The app is built while the database opens (`opening`, else this node opens it): building
 * it is the main thread's work, opening PGlite its thread's, and the app's statements wait until the
 * database is ready (`waitingFor`).
 */
export async function serve(config: Config, opts: { opening?: Opening; app: Promise<AppModule>; transport?: Cluster; demo: boolean }) {
  const { database, ready } = opts.opening ?? beginDatabase(databaseOptions(config));
  // Its failure is met below, once the app has loaded.
  ready.catch(() => {});
  const { buildApp } = await opts.app;
  const built = buildApp({ config, database: waitingFor(database, ready), cluster: opts.transport });
  const [{ server, balancer }] = await Promise.all([built, ready]).catch(async (err: unknown) => {
    // A database that cannot be opened, a setting that cannot work (NATS unreachable, a TLS file
    // missing, …): say which, and leave the database closed.
    console.error(`csms: cannot start: ${err instanceof Error ? err.message : String(err)}`);
    await database.close().catch(() => {});
    process.exit(1);
  });

  let demo: Demo | undefined;
  let closing = false;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await demo?.stop();
      await server.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Benchmarks measure memory after a full collection (issue 14 item 4): only a process started
  // with node's --expose-gc has gc(), and only then does SIGUSR2 run it.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) process.on('SIGUSR2', () => gc());

  await server.listen({ port: config.port, host: config.host });
  if (opts.demo) {
    const { startDemo } = await import('./demo/demo.js');
    demo = await startDemo({ db: database.db, config, port: config.port });
    // The demo's local controller may have just been created: the balancer reads its points again.
    await balancer.changed([]);
    server.log.info('demo: simulated chargers DEMO-0001 … DEMO-0009 are connecting (CSMS_DEMO=false turns them off)');
  }
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/pglite`;
  const node = config.workers > 1 ? `, node ${config.nodeId}` : '';
  server.log.info(`CSMS console on http://localhost:${config.port}  (database: ${where}${node})`);
}
