import type { Clock } from './clock.js';
import type { Configuration } from './configuration.js';
import { createLink, type Link, type Reply, type TlsOptions, type TrafficEvent } from './connection.js';
import { OfflineError, type Payload, type RegistrationStatus } from './ocpp.js';
import type { WireTranslator } from './ocpp201.js';
import type { Scheduler, Task } from './scheduler.js';
import type { ChargePointEvents, ConnectGate, ConnectionState } from './types.js';

/**
 * A point's life on the network: connecting (through the fleet's gate), BootNotification and
 * its retries, heartbeats, and reconnecting with exponential backoff and jitter.
 */

export interface SessionOptions {
  /** Where to connect; `attempt` counts the failed attempts since it was last accepted (a charger falls back to its next profile). */
  url: string | ((attempt: number) => string);
  /** The subprotocol (default `ocpp1.6`); with `ocpp2.0.1`, `translator` speaks it. */
  protocol?: string;
  translator?: WireTranslator;
  /** Read at every connection attempt: the password changes when the CSMS sends a new one. */
  headers?: () => Record<string, string> | undefined;
  tls?: TlsOptions;
  scheduler: Scheduler;
  clock: Clock;
  random: () => number;
  config: Configuration;
  reconnect: { minMs: number; maxMs: number };
  callTimeoutMs: number;
  bootRetryMs: number;
  bootOnReconnect: boolean;
  connectGate?: ConnectGate;
  /** Read at every boot: the firmware version changes after an update. */
  bootPayload(): Payload;
  emit: <K extends keyof ChargePointEvents>(event: K, payload: ChargePointEvents[K]) => void;
  onCall(action: string, payload: Payload, translated: boolean): Reply | undefined;
  /** Registered (again): report statuses, send what waits. */
  onAccepted(): void;
  onClosed(): void;
}

export interface Session {
  readonly link: Link;
  connection(): ConnectionState;
  registration(): RegistrationStatus | 'None';
  /** Open and registered. */
  ready(): boolean;
  start(): void;
  /** Resolves at the next accepted boot (at once if registered). */
  whenReady(): Promise<void>;
  stop(): Promise<void>;
  /** Closes (gracefully or not) and stays offline for `offlineMs` (or the backoff delay). */
  goOffline(offlineMs: number | undefined, graceful: boolean): void;
  /** Connects now if offline. */
  connect(): void;
  boot(): void;
  /** The next connection must boot, whatever `bootOnReconnect` says (after a reset). */
  forgetRegistration(): void;
  scheduleHeartbeat(): void;
  heartbeat(): void;
  /** Fire-and-forget call: failures become warnings. */
  notify(action: string, payload: Payload): void;
}

export function createSession(o: SessionOptions): Session {
  const { scheduler, clock, config } = o;
  let running = false;
  let connection: ConnectionState = 'offline';
  let registration: RegistrationStatus | 'None' = 'None';
  let everAccepted = false;
  let attempts = 0;
  let holdUntil = 0;
  let reconnectTask: Task | undefined;
  let heartbeatTask: Task | undefined;
  let bootTask: Task | undefined;
  let releaseGate: (() => void) | undefined;
  let readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] | undefined;
  let closed: (() => void) | undefined;

  const ready = () => connection === 'open' && registration === 'Accepted';
  const warn = (message: string, error?: unknown) => o.emit('warning', { message, error });
  const release = () => {
    releaseGate?.();
    releaseGate = undefined;
  };

  function notify(action: string, payload: Payload) {
    if (connection !== 'open') return;
    link.call(action, payload).catch((err: unknown) => {
      if (!(err instanceof OfflineError)) warn(`${action} failed`, err);
    });
  }

  function heartbeat() {
    if (ready()) notify('Heartbeat', {});
  }

  function scheduleHeartbeat() {
    heartbeatTask?.cancel();
    heartbeatTask = undefined;
    const ms = config.int('HeartbeatInterval') * 1000;
    if (ms > 0 && ready())
      heartbeatTask = scheduler.after(ms, () => {
        heartbeatTask = undefined;
        heartbeat();
        scheduleHeartbeat();
      });
  }

  function accepted() {
    everAccepted = true;
    attempts = 0;
    scheduleHeartbeat();
    o.onAccepted();
    const waiters = readyWaiters;
    readyWaiters = undefined;
    waiters?.forEach((w) => w.resolve());
  }

  function boot() {
    bootTask?.cancel();
    bootTask = undefined;
    if (connection !== 'open') return;
    link.call('BootNotification', o.bootPayload()).then(
      (res) => {
        const status = res.status as RegistrationStatus;
        const interval = Number(res.interval) || 0;
        registration = status;
        o.emit('registration', { status, interval });
        if (status === 'Accepted') {
          if (interval > 0) config.set('HeartbeatInterval', String(interval));
          return accepted();
        }
        heartbeatTask?.cancel();
        bootTask = scheduler.after(interval > 0 ? interval * 1000 : o.bootRetryMs, boot);
      },
      (err: unknown) => {
        if (err instanceof OfflineError) return;
        warn('BootNotification failed', err);
        bootTask = scheduler.after(o.bootRetryMs, boot);
      },
    );
  }

  async function openSocket() {
    if (!running || connection !== 'offline') return;
    connection = 'connecting';
    o.emit('connection', { state: 'connecting' });
    if (o.connectGate) {
      const releaseThis = await o.connectGate.acquire();
      if (!running || connection !== 'connecting') return releaseThis();
      releaseGate = releaseThis;
    }
    link.open({
      url: typeof o.url === 'string' ? o.url : o.url(attempts),
      protocol: o.protocol ?? 'ocpp1.6',
      headers: o.headers?.(),
      handshakeTimeoutMs: o.callTimeoutMs,
      tls: o.tls,
    });
  }

  function scheduleReconnect() {
    reconnectTask?.cancel();
    const base = Math.min(o.reconnect.maxMs, o.reconnect.minMs * 2 ** Math.min(attempts, 30));
    attempts += 1;
    const delay = Math.max(holdUntil - clock.now(), base / 2 + (o.random() * base) / 2);
    reconnectTask = scheduler.after(delay, () => {
      reconnectTask = undefined;
      void openSocket();
    });
  }

  const link = createLink({
    ...(o.translator ? { translator: o.translator } : {}),
    scheduler,
    callTimeoutMs: o.callTimeoutMs,
    // A rejected point answers nothing until its next boot (OCPP 1.6 §4.2.1).
    onCall: (action, payload, translated) => (registration === 'Rejected' ? undefined : o.onCall(action, payload, translated)),
    onOpen() {
      release();
      connection = 'open';
      o.emit('connection', { state: 'open' });
      if (!o.bootOnReconnect && everAccepted) {
        registration = 'Accepted';
        accepted();
      } else boot();
    },
    onClose({ code, reason, error }) {
      release();
      connection = 'offline';
      registration = 'None';
      heartbeatTask?.cancel();
      bootTask?.cancel();
      o.onClosed();
      o.emit('connection', { state: 'offline', code, reason, ...(error ? { error } : {}) });
      if (running) scheduleReconnect();
      closed?.();
    },
    onTraffic: (event: TrafficEvent) => o.emit('traffic', event),
  });

  return {
    link,
    connection: () => connection,
    registration: () => registration,
    ready,
    start() {
      if (running) return;
      running = true;
      void openSocket();
    },
    whenReady: () => (ready() ? Promise.resolve() : new Promise((resolve, reject) => (readyWaiters ??= []).push({ resolve, reject }))),
    async stop() {
      running = false;
      reconnectTask?.cancel();
      heartbeatTask?.cancel();
      bootTask?.cancel();
      const waiters = readyWaiters;
      readyWaiters = undefined;
      waiters?.forEach((w) => w.reject(new Error('stopped before the CSMS accepted it')));
      if (connection === 'offline') return;
      if (!link.hasSocket) {
        connection = 'offline'; // still waiting at the connect gate
        return;
      }
      const done = new Promise<void>((resolve) => (closed = resolve));
      if (link.isOpen) link.close(1000, 'stopped');
      else link.terminate();
      await done;
    },
    goOffline(offlineMs, graceful) {
      holdUntil = offlineMs === undefined ? 0 : clock.now() + offlineMs;
      if (connection === 'offline') {
        if (running && reconnectTask) scheduleReconnect();
        return;
      }
      if (graceful) link.close(1000, 'reboot');
      else link.terminate();
    },
    connect() {
      holdUntil = 0;
      reconnectTask?.cancel();
      reconnectTask = undefined;
      void openSocket();
    },
    boot,
    forgetRegistration: () => void (everAccepted = false),
    scheduleHeartbeat,
    heartbeat,
    notify,
  };
}
