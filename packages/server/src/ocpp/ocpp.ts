import fs from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ChargerBus } from '../bus/bus.js';
import { everywhere, type Fanout } from '../bus/fanout.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { chargePoint, chargingTransaction } from '../db/schema.js';
import type { AuditLog } from '../http/audit.js';
import type { EventHub } from '../lib/events.js';
import { createStormCompactor } from '../lib/heap-compaction.js';
import type { AuthorizationService } from '../modules/cards/authorize.js';
import { createIdTagIndex, emit, type IdTagIndex, type OcppCore } from './core.js';
import { pointHandlers } from './handlers.js';
import { createLastSeen, pointIdIn, SEEN_EVERY_MS } from './last-seen.js';
import { clientAddress, trustFunction } from '../lib/trust-proxy.js';
import { createOcppLogWriter } from './log-writer.js';
import { createConnectLimiter } from './attempts.js';
import { chooseSubprotocol, createAdmission, identityOf, offeredVersion, refuse, type Refusal } from './admission.js';
import { createPointLoader, type PointState } from './registry.js';
import { ocpp201Code } from './rpc.js';
import { ChargerSession, type ActionHandler, type OcppVersion, type SessionDeps } from './session.js';
import { transactionKit } from './transactions.js';
import { v16Command } from './v16-commands.js';
import { v201Command } from './v201-commands.js';
import { v201Handlers } from './v201.js';
import { slicedRounds } from './rounds.js';
import { ocpp16Validator, ocpp201Validator } from './validator.js';
import { createVendorRegistry } from './vendors.js';
import { createBatchWriter } from './writer.js';

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface OcppDeps {
  /** The HTTP server the console is served from; OCPP upgrades on the same port. */
  server: Server;
  db: Db;
  /**
   * One session (PGlite): the OCPP log's rows ride in the batch writer's messages, since a flush of
   * its own would hold the session while the meter values queued behind it wait. On PostgreSQL the log
   * flushes on a connection of its own, beside the batches, and carrying its rows only made each
   * batch's commit (and the answers waiting on it) later: MeterValues p50 3.2 → 4.5 ms (bench/ocpp.mjs).
   */
  oneSession?: boolean;
  config: Pick<Config, 'host' | 'ocpp' | 'timeZone' | 'nodeId'> & Partial<Pick<Config, 'trustProxy'>>;
  bus: ChargerBus;
  /** Several nodes (NATS): running idTags are shared, and each node marks offline only the chargers it held. */
  fanout?: Fanout;
  events: EventHub;
  authorization: Pick<AuthorizationService, 'authorize' | 'forget'>;
  /** Billing inside a Stop's transaction (`OcppCore.settleStop`). */
  settleStop?: OcppCore['settleStop'];
  audit?: AuditLog;
  logger: Logger;
}

/**
 * On PGlite (one session) the first persisted call to reach an idle batch writer waits this long for
 * others: at 1,000 calls/s its thread spends about a third less per call, for a few milliseconds more
 * before each answer (README "Benchmarks", "Gathering a batch on PGlite").
 */
const PGLITE_GATHER_MS = 8;

/**
 * The OCPP 1.6J central system (DESIGN.md §6): WebSocket upgrades of `/ocpp/{serialNumber}` on
 * the console's port (and on a TLS port for security profile 2), HTTP Basic with the point's
 * key, the ten charge-point messages, operator commands served over the bus, the OCPP log,
 * live events and offline detection.
 */
export function createOcpp(deps: OcppDeps) {
  const { db, bus, events, logger } = deps;
  const config = deps.config.ocpp;
  const validator = ocpp16Validator();
  const log = createOcppLogWriter({ db, log: logger });
  const writer = createBatchWriter({
    db,
    ...(deps.oneSession ? { passengers: (max: number) => log.board(max), gatherMs: PGLITE_GATHER_MS } : {}),
  });
  const loadPoint = createPointLoader(db);
  const limiter = createConnectLimiter({ db, limits: config, logger });
  const admit = createAdmission({ db, config, timeZone: deps.config.timeZone, loadPoint, audit: deps.audit, logger });
  const vendors = createVendorRegistry();
  const { nodeId } = deps.config;
  // The charger's address as the connection limits count it, trusted as the console's requests are.
  const trustProxy = trustFunction(deps.config.trustProxy ?? false);
  const localIdTags = createIdTagIndex();
  const idTags = sharedIdTags(localIdTags, deps.fanout);
  const sessions = new Map<string, ChargerSession>();
  const compactor = createStormCompactor({
    minConnections: config.compactAfterConnections,
    settleMs: config.compactSettleMs,
    held: () => sessions.size,
    logger,
  });
  const unserve = new WeakMap<ChargerSession, () => void>();
  const stoppedListeners = new Set<(transactionId: number, settled: boolean) => void | Promise<void>>();
  const bootListeners = new Set<(point: { id: number; serialNumber: string; firmwareVersion: string | null }) => void | Promise<void>>();
  type StatusListener = (point: { id: number; serialNumber: string }, status: string) => void | Promise<void>;
  const firmwareListeners = new Set<StatusListener>();
  const diagnosticsListeners = new Set<StatusListener>();
  /** After the reply, like the boot listeners. */
  const tellStatus = (listeners: Set<StatusListener>, point: { id: number; serialNumber: string }, status: string) => {
    const { id, serialNumber } = point;
    setImmediate(() => {
      for (const fn of listeners) {
        Promise.resolve()
          .then(() => fn({ id, serialNumber }, status))
          .catch((err: unknown) => logger.error({ err, serialNumber }, 'ocpp: status listener failed'));
      }
    });
  };
  const wss = new WebSocketServer({
    noServer: true,
    // Our session map tracks sockets; ws's own set would be a second reference per charger.
    clientTracking: false,
    perMessageDeflate: false,
    // Frames up to 4× the limit are read, so an oversized CALL can still be answered with its id; larger ones close with 1009.
    maxPayload: config.maxFrameBytes * 4,
    handleProtocols: (protocols) => chooseSubprotocol(protocols) ?? false,
  });
  const intervalMs = config.heartbeatIntervalSec * 1000;
  let closing = false;
  let pinger: NodeJS.Timeout | undefined;
  let staleTimer: NodeJS.Timeout | undefined;
  let tlsServer: https.Server | undefined;

  const lastSeen = createLastSeen({ db, everyMs: Math.min(SEEN_EVERY_MS, intervalMs / 2), logger });

  const core: OcppCore = {
    db,
    config,
    events,
    authorization: deps.authorization,
    vendors,
    idTags,
    writer,
    logger,
    ...(deps.audit ? { audit: deps.audit } : {}),
    touch: (pointId) => lastSeen.touch(pointId),
    ...(deps.settleStop ? { settleStop: deps.settleStop } : {}),
    transactionStopped(transactionId, idTag, settled = false) {
      deps.authorization.forget(idTag);
      // After the reply has gone out: the session sends it as soon as the handler resolves.
      setImmediate(() => {
        const done = [...stoppedListeners].map((fn) =>
          Promise.resolve()
            .then(() => fn(transactionId, settled))
            .catch((err: unknown) => logger.error({ err, transactionId }, 'ocpp: transaction-stopped listener failed')),
        );
        // Settlement moved the balance: what was cached before it is stale.
        void Promise.all(done).then(() => deps.authorization.forget(idTag));
      });
    },
    firmwareStatus: (point, status) => tellStatus(firmwareListeners, point, status),
    diagnosticsStatus: (point, status) => tellStatus(diagnosticsListeners, point, status),
    booted(point, firmwareVersion) {
      const { id, serialNumber } = point;
      // After the reply has gone out, so that what the listeners send follows the BootNotification.conf.
      setImmediate(() => {
        for (const fn of bootListeners) {
          Promise.resolve()
            .then(() => fn({ id, serialNumber, firmwareVersion }))
            .catch((err: unknown) => logger.error({ err, serialNumber }, 'ocpp: boot listener failed'));
        }
      });
    },
  };

  const touching = (own: Record<string, ActionHandler>) => {
    const out: Record<string, ActionHandler> = {};
    for (const [action, handler] of Object.entries(own)) {
      out[action] = (session, payload, receivedAt) => {
        core.touch(session.point.id);
        return handler(session, payload, receivedAt);
      };
    }
    return out;
  };
  const kit = transactionKit(core);
  const own16 = { ...pointHandlers(core), ...kit.handlers };
  const handlers = touching(own16);
  // OCPP 2.0.1 on the same model: its messages translated onto the 1.6 handlers and transaction pieces.
  const handlers201 = touching(v201Handlers(core, own16, kit));

  const sessionDeps: SessionDeps = {
    version: '1.6',
    validator,
    log,
    handlers,
    maxFrameBytes: config.maxFrameBytes,
    defaultTimeoutMs: config.callTimeoutSec * 1000,
    logger,
    onCallResult(session, action, request, conf) {
      if (action === 'RemoteStartTransaction' && conf.status === 'Accepted') {
        const list = (session.point.remoteStarts ??= []);
        list.push({ idTag: String(request.idTag), connectorId: request.connectorId as number | undefined, at: Date.now() });
        if (list.length > 10) list.shift();
      }
    },
    onClose(session) {
      unserve.get(session)?.();
      if (sessions.get(session.serialNumber) !== session) return;
      sessions.delete(session.serialNumber);
      if (session.replaced) return;
      void setOnline(session.point, false);
    },
  };

  const sessionDeps201: SessionDeps = {
    ...sessionDeps,
    version: '2.0.1',
    validator: ocpp201Validator(),
    wireCode: ocpp201Code,
    handlers: handlers201,
    onCallResult: undefined,
  };

  async function setOnline(point: PointState, online: boolean): Promise<void> {
    const now = new Date();
    // Coming online writes last_seen_at too (writer.ts, POINT_ONLINE).
    if (online) lastSeen.written(point.id, now.getTime());
    else lastSeen.forget(point.id);
    try {
      await writer.write({ online: { id: point.id, online, at: now, node: nodeId } });
    } catch (err) {
      logger.warn({ err, serialNumber: point.serialNumber }, 'ocpp: online flag update failed');
    }
    emit(events, 'point.online', point, { online, at: now.toISOString() });
  }

  function logRefusal(identity: string, refusal: Refusal, req: IncomingMessage) {
    const { point } = refusal;
    log.write({
      providerId: point?.providerId ?? null,
      chargePointId: point?.id ?? null,
      serialNumber: identity.slice(0, 64),
      direction: 'refused',
      messageType: null,
      action: null,
      messageId: null,
      payload: {
        reason: refusal.reason,
        httpStatus: refusal.status,
        remoteAddress: req.socket.remoteAddress ?? null,
        path: (req.url ?? '').slice(0, 200),
      },
    });
  }

  /**
   * A refused upgrade. The charger's doing (4xx): counted against its identity and address (a lockout once
   * either reaches its limit) and added to the identity's summary row of the OCPP log. Ours (503: shutting
   * down, a database failure): one row each, as before, and never counted against the charger.
   */
  async function recordRefusal(identity: string, refusal: Refusal, req: IncomingMessage, address: string): Promise<void> {
    if (refusal.status === 503) return logRefusal(identity, refusal, req);
    const attempt = {
      identity: identity.slice(0, 64),
      address,
      reason: refusal.reason,
      httpStatus: refusal.status,
      path: (req.url ?? '').slice(0, 200),
      point: refusal.point,
    };
    if (refusal.status === 429) return limiter.lockedOut(attempt);
    try {
      await limiter.failed(attempt);
    } catch (err) {
      logger.warn({ err, identity }, 'ocpp: failed connection could not be counted');
    }
  }

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => {
      /* the client went away during the handshake */
    });
    const identity = identityOf(req.url);
    if (identity === undefined) {
      // Not ours: leave it to another upgrade listener, if any.
      if (deps.server.listenerCount('upgrade') <= 1) refuse(socket, { status: 404, reason: 'notOcpp' });
      return;
    }
    const name = identity ?? (req.url ?? '').slice(6);
    const address = clientAddress(req, trustProxy).slice(0, 64);
    let point: PointState | undefined;
    let version: OcppVersion | undefined;
    let refusal: Refusal | undefined;
    try {
      // A locked identity or address is refused before anything is looked up.
      const locked = closing ? 0 : limiter.lockedFor(name.slice(0, 64), address);
      if (closing) refusal = { status: 503, reason: 'shuttingDown' };
      else if (locked > 0) refusal = { status: 429, reason: 'locked', retryAfter: locked };
      else if (identity === null) refusal = { status: 400, reason: 'badPath' };
      else if (!(version = offeredVersion(req))) refusal = { status: 400, reason: 'subprotocol' };
      else {
        const r = await admit(identity, req);
        if ('reason' in r) refusal = r;
        else {
          // Right credentials, but another node may have locked the identity or the address.
          const left = await limiter.admitted(identity.slice(0, 64), address);
          if (left > 0) refusal = { status: 429, reason: 'locked', retryAfter: left, point: { id: r.id, providerId: r.providerId } };
          else point = r;
        }
      }
    } catch (err) {
      logger.error({ err, identity }, 'ocpp: admission failed');
      refusal = { status: 503, reason: 'serverError' };
    }
    if (refusal || !point) {
      const r = refusal ?? { status: 503, reason: 'serverError' };
      // Counted before the answer, so that the next attempt already sees a lock this one caused.
      await recordRefusal(name, r, req, address);
      refuse(socket, r);
      return;
    }
    if (socket.destroyed) return;
    const admitted = point;
    const spoken = version ?? '1.6';
    wss.handleUpgrade(req, socket, head, (ws) => connected(ws, admitted, spoken));
  }

  function connected(ws: WebSocket, point: PointState, version: OcppVersion): void {
    const previous = sessions.get(point.serialNumber);
    const session = new ChargerSession(ws, point, Date.now(), version === '2.0.1' ? sessionDeps201 : sessionDeps);
    // Not placed yet: nothing but a boot is taken, even from a charger that does not boot on reconnecting.
    if (point.needsPlacement && config.pendingUntilPlaced) session.registration = 'Pending';
    if (point.ocppVersion !== version) {
      // Written when it changes only (a charger reconnecting with the same version costs nothing).
      point.ocppVersion = version;
      void db
        .update(chargePoint)
        .set({ ocppVersion: version })
        .where(eq(chargePoint.id, point.id))
        .catch((err: unknown) => logger.warn({ err, serialNumber: point.serialNumber }, 'ocpp: version update failed'));
    }
    sessions.set(point.serialNumber, session);
    compactor.connected();
    if (previous) {
      // The newer connection wins (a charger that reconnected before we saw the old one drop).
      previous.replaced = true;
      unserve.get(previous)?.();
      previous.close(1000, 'replaced by a new connection');
    }
    unserve.set(
      session,
      bus.serve(point.serialNumber, (command) =>
        version === '2.0.1'
          ? v201Command(session, command.action, command.payload, command.timeoutMs)
          : v16Command(session, command.action, command.payload, command.timeoutMs),
      ),
    );
    void setOnline(point, true);
  }

  const upgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head);
  deps.server.on('upgrade', upgradeListener);

  /**
   * WebSocket pings, each socket once per heartbeat interval; a charger silent for twice that is
   * dropped (and so marked offline). The sockets are visited a slice a second, not all at once: a
   * ping is a socket write, and writing 19,500 of them in one turn held the event loop for 1.3 s
   * (bench/ocpp.mjs, the stall test).
   */
  const sweepTickMs = Math.min(1000, intervalMs);
  const sweepSlice = slicedRounds(sessions, intervalMs / sweepTickMs);
  function sweep(): void {
    const now = Date.now();
    for (const s of sweepSlice()) {
      if (now - s.lastActivity > 2 * intervalMs) s.ws.terminate();
      else if (s.ws.readyState === s.ws.OPEN) {
        s.ws.ping();
        // A socket still answering counts as seen even if the charger sends nothing else (see dropStale).
        if (now - s.lastActivity <= intervalMs) core.touch(s.point.id);
      }
    }
  }

  /**
   * Several nodes: chargers a node held when it died for good stay marked online under its name. Any
   * node marks offline a point not seen for three intervals (a live one is seen at least every interval).
   */
  async function dropStale(): Promise<void> {
    try {
      const gone = await db
        .update(chargePoint)
        .set({ online: false, connectedNode: null })
        .where(
          and(eq(chargePoint.online, true), sql`${chargePoint.lastSeenAt} < now() - make_interval(secs => ${(3 * intervalMs) / 1000})`),
        )
        .returning({
          id: chargePoint.id,
          serialNumber: chargePoint.serialNumber,
          providerId: chargePoint.providerId,
          stationId: chargePoint.stationId,
        });
      const at = new Date().toISOString();
      for (const p of gone) emit(events, 'point.online', p, { online: false, at });
    } catch (err) {
      logger.warn({ err }, 'ocpp: stale online sweep failed');
    }
  }

  return {
    vendors,
    /** Number of open charger connections on this node. */
    get connections() {
      return sessions.size;
    },
    /** Rows of the OCPP log this node has not yet written (see `createOcppLogWriter`'s `backlog`). */
    get logBacklog() {
      return log.backlog;
    },
    /** The compacting collections run after connect storms on this node. */
    get compactions() {
      return compactor.stats;
    },
    /** The TLS listener's port (security profile 2), when configured. */
    get tlsPort(): number | undefined {
      const a = tlsServer?.address();
      return a && typeof a === 'object' ? (a as AddressInfo).port : undefined;
    },

    /**
     * Start-up: this node holds no sockets yet, so the points it held are offline (alone: every
     * point; with several nodes: those under its name); running authorized transactions are
     * loaded for ConcurrentTx.
     */
    async start(): Promise<void> {
      const mine = deps.fanout ? sql`(${chargePoint.connectedNode} = ${nodeId} or ${chargePoint.connectedNode} is null)` : undefined;
      await db
        .update(chargePoint)
        .set({ online: false, connectedNode: null })
        .where(and(eq(chargePoint.online, true), mine));
      const running = await db
        .select({ idTag: chargingTransaction.idTag })
        .from(chargingTransaction)
        .where(and(sql`${chargingTransaction.stoppedAt} is null`, eq(chargingTransaction.authStatus, 'Accepted')));
      // Loaded here only: every node loads its own from the database, so nothing is sent to the others.
      localIdTags.clear();
      for (const r of running) localIdTags.add(r.idTag);
      pinger = setInterval(sweep, sweepTickMs);
      pinger.unref();
      if (deps.fanout) {
        staleTimer = setInterval(() => void dropStale(), intervalMs);
        staleTimer.unref();
      }
      if (config.tlsCert && config.tlsKey) {
        const tls = https.createServer({ cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey) }, (_req, res) => {
          res.writeHead(404).end();
        });
        tls.on('upgrade', upgradeListener);
        await new Promise<void>((resolve, reject) => {
          tls.once('error', reject);
          tls.listen(config.tlsPort, deps.config.host, () => {
            tls.off('error', reject);
            resolve();
          });
        });
        tlsServer = tls;
        logger.info({ port: this.tlsPort }, 'ocpp: TLS listener (security profile 2) started');
      }
    },

    /**
     * Drops cached state of these points after an operator changed them (station, key, enabled,
     * connectors). A connected point is reloaded; a disabled or removed one is disconnected.
     */
    async invalidate(serialNumbers: readonly string[]): Promise<void> {
      for (const serial of serialNumbers) {
        const session = sessions.get(serial);
        if (!session) continue;
        const fresh = await loadPoint(serial);
        if (!fresh || !fresh.enabled) {
          session.close(1008, fresh ? 'point disabled' : 'point removed');
          continue;
        }
        // Keep what only this node knows (accepted remote starts); the rest comes from the database.
        if (session.point.remoteStarts) fresh.remoteStarts = session.point.remoteStarts;
        session.point = fresh;
      }
    },

    /** Listeners told (after the reply) that a StopTransaction was committed (`settled`: its bill with it), e.g. billing. */
    onTransactionStopped(fn: (transactionId: number, settled: boolean) => void | Promise<void>): () => void {
      stoppedListeners.add(fn);
      return () => stoppedListeners.delete(fn);
    },

    /** Whether this node holds the point's socket (work for a charger is done where it is connected). */
    holds(serialNumber: string): boolean {
      return sessions.has(serialNumber);
    },

    /** Listeners told (after the reply) that a point's BootNotification was accepted and stored. */
    onBooted(fn: (point: { id: number; serialNumber: string; firmwareVersion: string | null }) => void | Promise<void>): () => void {
      bootListeners.add(fn);
      return () => bootListeners.delete(fn);
    },

    /** Listeners told (after the reply) of each FirmwareStatusNotification a point sent, once stored. */
    onFirmwareStatus(fn: StatusListener): () => void {
      firmwareListeners.add(fn);
      return () => firmwareListeners.delete(fn);
    },

    /** Listeners told (after the reply) of each DiagnosticsStatusNotification a point sent, once stored. */
    onDiagnosticsStatus(fn: StatusListener): () => void {
      diagnosticsListeners.add(fn);
      return () => diagnosticsListeners.delete(fn);
    },

    /** Writes buffered log rows and last-seen times. */
    async flush(): Promise<void> {
      await lastSeen.flush();
      await limiter.flush();
      await log.flush();
    },

    /** Graceful shutdown: refuse new chargers, close sockets with 1001, finish handling, flush the log. */
    async close(): Promise<void> {
      closing = true;
      compactor.stop();
      clearInterval(pinger);
      clearInterval(staleTimer);
      deps.server.off('upgrade', upgradeListener);
      const open = [...sessions.values()];
      const closed = open.map((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.ws.once('close', () => resolve()))));
      for (const s of open) s.close(1001, 'server shutting down');
      const grace = setTimeout(() => open.forEach((s) => s.ws.terminate()), 3000);
      await Promise.all(closed);
      clearTimeout(grace);
      await Promise.allSettled(open.map((s) => s.chain));
      await writer.drain();
      // Marked offline here too: close handlers run, but their writes are not awaited.
      const ids = open.map((s) => s.point.id);
      if (ids.length > 0)
        await db
          .update(chargePoint)
          .set({ online: false, connectedNode: null })
          .where(and(pointIdIn(ids), eq(chargePoint.connectedNode, nodeId)))
          .catch(() => {});
      wss.close();
      if (tlsServer) {
        const t = tlsServer;
        await new Promise<void>((resolve) => t.close(() => resolve()));
        tlsServer = undefined;
      }
      await lastSeen.flush();
      await limiter.flush();
      await log.flush();
    },
  };
}

export type Ocpp = ReturnType<typeof createOcpp>;

/**
 * With several nodes a card may be swiped on one node's charger while it charges on another's: each
 * node's index follows the others' starts and stops over the fan-out (loaded from the database at start).
 */
function sharedIdTags(index: IdTagIndex, fanout: Fanout | undefined): IdTagIndex {
  if (!fanout) return index;
  const change = everywhere(fanout, 'idTags', (m: { idTag: string; running: boolean }) =>
    m.running ? index.add(m.idTag) : index.remove(m.idTag),
  );
  return {
    ...index,
    add: (idTag) => change({ idTag, running: true }),
    remove: (idTag) => change({ idTag, running: false }),
  };
}
