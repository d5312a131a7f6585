import cluster, { type Worker } from 'node:cluster';
import type { Cluster } from './bus/nats.js';
import { createIpcNode, createIpcRouter, type IpcChannel } from './bus/ipc.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';

/*
 * CSMS_WORKERS=N: N server processes on one machine sharing the HTTP and OCPP ports (Node's
 * cluster module hands connections round), each a node of the multi-node design (DESIGN.md §1).
 * Commands and fan-out travel over NATS when NATS_URL is set, else over the processes' own IPC
 * channels through this primary. PGlite is opened by one process only, so several workers need
 * DATABASE_URL.
 */

const RESTART_DELAY_MS = 1_000;

/** The primary: prepares the database once, starts the workers, restarts one that dies, and stops them all on a signal. */
export async function runPrimary(config: Config, prepare: (config: Config) => Promise<Database>): Promise<void> {
  if (!config.databaseUrl) {
    console.error(
      `csms: cannot start: CSMS_WORKERS=${config.workers} needs DATABASE_URL (a PostgreSQL server): the embedded PGlite is opened by one process only`,
    );
    process.exit(1);
  }
  // Before any worker starts: several would race for the migrations' lock and the first administrator.
  await (await prepare(config)).close();

  const router = config.natsUrl ? undefined : createIpcRouter();
  const running = new Map<number, Worker>();
  let closing = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ CSMS_WORKER_INDEX: String(index) });
    running.set(index, worker);
    router?.attach(worker.id, primaryEnd(worker));
    worker.on('exit', (code, signal) => {
      router?.detach(worker.id);
      running.delete(index);
      if (closing) {
        if (running.size === 0) process.exit(0);
        return;
      }
      console.error(`csms: worker ${index} ended (${signal ?? `exit ${code}`}); starting it again`);
      setTimeout(() => !closing && fork(index), RESTART_DELAY_MS);
    });
  };
  for (let i = 1; i <= config.workers; i++) fork(i);

  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    if (running.size === 0) process.exit(0);
    for (const w of running.values()) w.process.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** In a worker: its index, its node id (the configured one with the index), and the IPC transport unless NATS carries it. */
export function workerNode(config: Config): { index: number; nodeId: string; transport?: Cluster } {
  const index = Number(process.env.CSMS_WORKER_INDEX ?? '1');
  const nodeId = `${config.nodeId}/${index}`;
  if (config.natsUrl) return { index, nodeId };
  const channel: IpcChannel = {
    send: (m) => void process.send?.(m),
    onMessage: (fn) => {
      process.on('message', fn);
      return () => process.off('message', fn);
    },
  };
  return { index, nodeId, transport: createIpcNode(channel, { nodeId, commandTimeoutMs: config.ocpp.callTimeoutSec * 1000 }) };
}

function primaryEnd(worker: Worker): IpcChannel {
  return {
    send: (m) => {
      if (worker.isConnected()) worker.send(m);
    },
    onMessage: (fn) => {
      worker.on('message', fn);
      return () => worker.off('message', fn);
    },
  };
}
