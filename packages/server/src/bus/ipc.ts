import type { ChargerBus, ChargerCommand, ChargerReply, CommandHandler } from './bus.js';
import type { Fanout } from './fanout.js';
import type { Cluster } from './nats.js';

/*
 * The bus and fan-out between the server processes of one machine (CSMS_WORKERS without NATS_URL):
 * each worker is a node of the multi-node design, and the primary process routes between them over
 * Node's IPC channels. A charger's commands go to the worker that serves its serial number (the
 * last to say so); none means offline. Fan-out messages reach every worker, the sender too.
 */

/** One end of an IPC channel (a worker's `process`, or the primary's `cluster.Worker`). */
export interface IpcChannel {
  send(message: IpcMessage): void;
  onMessage(fn: (message: unknown) => void): () => void;
}

export type IpcMessage = { csms: 1 } & (
  | { t: 'serve' | 'unserve'; serial: string }
  | { t: 'request'; id: number; serial: string; command: ChargerCommand }
  | { t: 'reply'; id: number; reply: ChargerReply }
  | { t: 'here'; id: number; serial: string }
  | { t: 'served'; id: number; served: boolean }
  | { t: 'publish'; topic: string; message: unknown; from: string }
);

const isIpc = (m: unknown): m is IpcMessage => typeof m === 'object' && m !== null && (m as { csms?: unknown }).csms === 1;

/** A worker's node: its chargers' commands served here, the others' asked of the primary. */
export function createIpcNode(channel: IpcChannel, opts: { nodeId: string; commandTimeoutMs: number }): Cluster {
  const handlers = new Map<string, CommandHandler>();
  const waiting = new Map<number, (value: ChargerReply | boolean) => void>();
  const topics = new Map<string, Set<(message: never, own: boolean) => void>>();
  let nextId = 1;
  const ask = <T extends ChargerReply | boolean>(message: IpcMessage & { id: number }, timeoutMs: number, onTimeout: T) =>
    new Promise<T>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(message.id);
        resolve(onTimeout);
      }, timeoutMs);
      waiting.set(message.id, (value) => {
        clearTimeout(timer);
        resolve(value as T);
      });
      channel.send(message);
    });
  const serveHere = async (serial: string, command: ChargerCommand): Promise<ChargerReply> => {
    const handler = handlers.get(serial);
    if (!handler) return { kind: 'offline' };
    return handler(command).catch((e: unknown): ChargerReply => ({ kind: 'error', code: 'InternalError', description: String(e) }));
  };

  const stop = channel.onMessage((m) => {
    if (!isIpc(m)) return;
    if (m.t === 'request') void serveHere(m.serial, m.command).then((reply) => channel.send({ csms: 1, t: 'reply', id: m.id, reply }));
    else if (m.t === 'here') channel.send({ csms: 1, t: 'served', id: m.id, served: handlers.has(m.serial) });
    else if (m.t === 'reply') waiting.get(m.id)?.(m.reply);
    else if (m.t === 'served') waiting.get(m.id)?.(m.served);
    else if (m.t === 'publish') for (const fn of topics.get(m.topic) ?? []) fn(m.message as never, m.from === opts.nodeId);
  });

  const bus: ChargerBus = {
    serve(serial, handler) {
      handlers.set(serial, handler);
      channel.send({ csms: 1, t: 'serve', serial });
      return () => {
        if (handlers.get(serial) !== handler) return;
        handlers.delete(serial);
        channel.send({ csms: 1, t: 'unserve', serial });
      };
    },
    async request(serial, command) {
      if (handlers.has(serial)) return serveHere(serial, command);
      // The charger's own timeout plus a margin for the hops, as over NATS.
      const timeoutMs = (command.timeoutMs ?? opts.commandTimeoutMs) + 5_000;
      return ask<ChargerReply>({ csms: 1, t: 'request', id: nextId++, serial, command }, timeoutMs, { kind: 'timeout' });
    },
    async isServed(serial) {
      if (handlers.has(serial)) return true;
      return ask<boolean>({ csms: 1, t: 'here', id: nextId++, serial }, 2_000, false);
    },
    async close() {
      stop();
    },
  };
  const fanout: Fanout = {
    nodeId: opts.nodeId,
    publish(topic, message) {
      channel.send({ csms: 1, t: 'publish', topic, message, from: opts.nodeId });
    },
    subscribe(topic, fn) {
      const set = topics.get(topic) ?? new Set();
      topics.set(topic, set);
      set.add(fn);
      return () => set.delete(fn);
    },
    // Sent messages are queued by the channel in order; nothing is held back here.
    flush: async () => {},
  };
  return { bus, fanout, close: async () => stop() };
}

/**
 * The primary's router: which worker serves which charger, requests forwarded there and replies
 * back, fan-out to every worker. A worker that leaves takes its chargers with it (offline until
 * they reconnect to another), and what it was asked is answered offline.
 */
export function createIpcRouter() {
  const workers = new Map<number, { channel: IpcChannel; stop: () => void }>();
  const owner = new Map<string, number>();
  /** Requests forwarded to a worker: its id → who asked and with which id. */
  const forwarded = new Map<number, { to: number; asker: number; askerId: number; kind: 'request' | 'here' }>();
  let nextId = 1;

  const route = (from: number, m: IpcMessage) => {
    if (m.t === 'serve') owner.set(m.serial, from);
    else if (m.t === 'unserve') {
      if (owner.get(m.serial) === from) owner.delete(m.serial);
    } else if (m.t === 'publish') for (const w of workers.values()) w.channel.send(m);
    else if (m.t === 'request' || m.t === 'here') {
      const target = owner.get(m.serial);
      const asker = workers.get(from);
      if (target === undefined || !workers.has(target)) {
        if (m.t === 'request') asker?.channel.send({ csms: 1, t: 'reply', id: m.id, reply: { kind: 'offline' } });
        else asker?.channel.send({ csms: 1, t: 'served', id: m.id, served: false });
        return;
      }
      const id = nextId++;
      forwarded.set(id, { to: target, asker: from, askerId: m.id, kind: m.t });
      workers.get(target)!.channel.send({ ...m, id });
    } else if (m.t === 'reply' || m.t === 'served') {
      const f = forwarded.get(m.id);
      if (!f) return;
      forwarded.delete(m.id);
      workers.get(f.asker)?.channel.send({ ...m, id: f.askerId });
    }
  };

  return {
    attach(workerId: number, channel: IpcChannel) {
      const stop = channel.onMessage((m) => isIpc(m) && route(workerId, m));
      workers.set(workerId, { channel, stop });
    },
    detach(workerId: number) {
      workers.get(workerId)?.stop();
      workers.delete(workerId);
      for (const [serial, w] of owner) if (w === workerId) owner.delete(serial);
      for (const [id, f] of forwarded) {
        if (f.to !== workerId) continue;
        forwarded.delete(id);
        const asker = workers.get(f.asker)?.channel;
        if (f.kind === 'request') asker?.send({ csms: 1, t: 'reply', id: f.askerId, reply: { kind: 'offline' } });
        else asker?.send({ csms: 1, t: 'served', id: f.askerId, served: false });
      }
    },
  };
}
