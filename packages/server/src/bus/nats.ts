import type * as NatsClient from 'nats';
import type { NatsConnection, Subscription } from 'nats';
import type { ChargerBus, ChargerCommand, ChargerReply, CommandHandler } from './bus.js';
import type { Fanout } from './fanout.js';

/*
 * The bus over NATS, for several nodes behind one load balancer (DESIGN.md §1). A charger's
 * commands are requests on its own subject, served by the node that holds its socket; NATS's
 * "no responders" means no node does (offline). Fan-out topics reach every node, this one too.
 */

/** The NATS client's package: loaded by the first connection, not by a server without NATS_URL (≈ 55 ms of its start). */
type Nats = typeof NatsClient;

/** Serial numbers may hold characters NATS subjects cannot ('.', '*', '>', spaces): base64url keeps them apart. */
const chargerSubject = (prefix: string, serialNumber: string, verb: 'cmd' | 'here') =>
  `${prefix}.charger.${Buffer.from(serialNumber, 'utf8').toString('base64url') || '_'}.${verb}`;

/** How the nodes reach each other: over NATS (here), or over the IPC channels of one machine's workers (ipc.ts). */
export interface Cluster {
  bus: ChargerBus;
  fanout: Fanout;
  close(): Promise<void>;
}

/**
 * The servers and the credentials of `NATS_URL`: `nats://user:password@host:4222` signs in with a user
 * and password, `nats://token@host:4222` with a token; the address itself is passed on without them.
 * Anything that can publish on the deployment's subjects can command its chargers, so a NATS reachable
 * beyond the CSMS's own nodes needs one of these (README, "Scaling out").
 */
export function natsAuth(url: string): { servers: string; user?: string; pass?: string; token?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { servers: url };
  }
  if (!u.username) return { servers: url };
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  const servers = u.toString().replace(/\/$/, '');
  return pass ? { servers, user, pass } : { servers, token: user };
}

/**
 * Connects to NATS. `commandTimeoutMs` is how long a charger may take to answer a command that
 * names no timeout of its own; the request waits that long plus a margin for the hop.
 */
export async function connectNats(opts: {
  url: string;
  nodeId: string;
  commandTimeoutMs: number;
  /** First token of every subject. */
  prefix: string;
}): Promise<Cluster> {
  const nats = await import('nats');
  const auth = natsAuth(opts.url);
  const nc = await nats.connect({ ...auth, name: `csms ${opts.nodeId}`, maxReconnectAttempts: -1 }).catch((err: unknown) => {
    // Only the first connection must succeed: once up, the client reconnects on its own whatever happens.
    throw new Error(`NATS_URL ${auth.servers}: cannot connect (${(err as { code?: string }).code ?? String(err)})`, { cause: err });
  });
  return {
    bus: natsBus(nats, nc, opts.prefix, opts.commandTimeoutMs),
    fanout: natsFanout(nats, nc, opts.prefix, opts.nodeId),
    close: () => nc.drain(),
  };
}

function natsBus({ ErrorCode, JSONCodec }: Nats, nc: NatsConnection, prefix: string, commandTimeoutMs: number): ChargerBus {
  const codec = JSONCodec<unknown>();
  const failed = (err: unknown): ChargerReply => {
    const code = (err as { code?: string }).code;
    if (code === ErrorCode.NoResponders) return { kind: 'offline' };
    if (code === ErrorCode.Timeout) return { kind: 'timeout' };
    throw err;
  };
  return {
    serve(serialNumber: string, handler: CommandHandler) {
      const commands = nc.subscribe(chargerSubject(prefix, serialNumber, 'cmd'), {
        callback: (err, msg) => {
          if (err) return;
          void handler(codec.decode(msg.data) as ChargerCommand)
            .catch((e: unknown): ChargerReply => ({ kind: 'error', code: 'InternalError', description: String(e) }))
            .then((reply) => msg.respond(codec.encode(reply)));
        },
      });
      const here = nc.subscribe(chargerSubject(prefix, serialNumber, 'here'), {
        callback: (err, msg) => {
          if (!err) msg.respond(codec.encode(true));
        },
      });
      return () => {
        commands.unsubscribe();
        here.unsubscribe();
      };
    },
    async request(serialNumber, command) {
      const timeout = (command.timeoutMs ?? commandTimeoutMs) + 5_000;
      try {
        const msg = await nc.request(chargerSubject(prefix, serialNumber, 'cmd'), codec.encode(command), { timeout });
        return codec.decode(msg.data) as ChargerReply;
      } catch (err) {
        return failed(err);
      }
    },
    async isServed(serialNumber) {
      try {
        await nc.request(chargerSubject(prefix, serialNumber, 'here'), codec.encode(null), { timeout: 2_000 });
        return true;
      } catch (err) {
        failed(err);
        return false;
      }
    },
    async close() {
      await nc.flush();
    },
  };
}

function natsFanout({ JSONCodec }: Nats, nc: NatsConnection, prefix: string, nodeId: string): Fanout {
  const codec = JSONCodec<unknown>();
  const subs = new Set<Subscription>();
  return {
    nodeId,
    publish(topic, message) {
      nc.publish(`${prefix}.fanout.${topic}`, codec.encode({ from: nodeId, message }));
    },
    subscribe(topic, fn) {
      const sub = nc.subscribe(`${prefix}.fanout.${topic}`, {
        callback: (err, msg) => {
          if (err) return;
          const { from, message } = codec.decode(msg.data) as { from: string; message: never };
          fn(message, from === nodeId);
        },
      });
      subs.add(sub);
      return () => {
        subs.delete(sub);
        sub.unsubscribe();
      };
    },
    flush: () => nc.flush(),
  };
}
