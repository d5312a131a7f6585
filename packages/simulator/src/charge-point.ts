import { createAuthorization } from './authorization.js';
import { systemClock } from './clock.js';
import { handleCommand } from './commands.js';
import { createConfiguration, type Configuration } from './configuration.js';
import { connectorStatus, connectorView, makeConnector, pointStatus } from './connectors.js';
import { createDiagnostics } from './diagnostics.js';
import { createEmitter, type Emitter } from './emitter.js';
import { createFirmware, type FirmwareOptions } from './firmware.js';
import { advance } from './meter.js';
import type { IdTagInfo, Payload, StopReason } from './ocpp.js';
import { createWireTranslator } from './ocpp201.js';
import { createReservations } from './reservations.js';
import { createScheduler } from './scheduler.js';
import { createSession } from './session.js';
import { createSmartCharging } from './smart-charging.js';
import { createTransactions } from './transactions.js';
import type {
  ChargePointEvents,
  ChargePointOptions,
  ChargePointState,
  ConnectorSpec,
  ConnectorView,
  PointInternals,
  StartResult,
  StopResult,
  NetworkProfile,
} from './types.js';

/** A simulated OCPP 1.6J charge point, driven by its owner (test, CLI, fleet script) and by the CSMS. */
export interface ChargePoint extends Pick<Emitter<ChargePointEvents>, 'on' | 'next'> {
  readonly serialNumber: string;
  readonly configuration: Configuration;
  /** Connects and keeps connecting (with backoff) until `stop()`. */
  start(): void;
  /** Resolves when the CSMS has accepted a BootNotification (at once if it has on this connection). */
  ready(): Promise<void>;
  /** Closes the socket for good and cancels every timer. */
  stop(): Promise<void>;
  /** Drops the socket as a network failure would; reconnects after `offlineMs` (or the backoff delay). */
  disconnect(offlineMs?: number): void;
  /** Reconnects now if offline. */
  connect(): void;
  /** A card swiped at the reader: Authorize (or the local list / cache when offline). */
  swipe(idTag: string): Promise<IdTagInfo>;
  plugIn(connectorId: number): void;
  /** The EV's cable is pulled: ends a transaction (EVDisconnected) when configured to. */
  unplug(connectorId: number): Promise<void>;
  /** Authorize if needed, then StartTransaction; resolves once answered (or queued when offline). */
  startCharging(connectorId: number, idTag: string): Promise<StartResult>;
  /** StopTransaction with the final register and transactionData; resolves once answered (or queued). */
  stopCharging(connectorId: number, reason?: StopReason): Promise<StopResult>;
  /** Connector 0 faults the whole point. A transaction on a faulted connector ends (reason Other). */
  fault(connectorId: number, errorCode?: string, info?: string): void;
  clearFault(connectorId: number): void;
  /** A local reboot, as a Reset from the CSMS does. */
  reset(type?: 'Soft' | 'Hard'): void;
  /** How the next firmware installs go (replaces the `firmware` option): a checksum to expect, or failing on purpose. */
  configureFirmware(options: FirmwareOptions): void;
  /** Sends any call as is (answers resolve, CALLERRORs reject). */
  send(action: string, payload: Payload): Promise<Payload>;
  /** Resolves when no transaction message waits to be sent. */
  drained(): Promise<void>;
  state(): ChargePointState;
  /** One connector's state (0 is the point itself). */
  connector(connectorId: number): ConnectorView;
}

const DEFAULT_ERROR_CODE = 'OtherError';

export function createChargePoint(options: ChargePointOptions): ChargePoint {
  const { serialNumber } = options;
  const clock = options.clock ?? options.scheduler?.clock ?? systemClock;
  const scheduler = options.scheduler ?? createScheduler(clock);
  const random = options.random ?? Math.random;
  const vendor = options.vendor ?? 'CSMS Simulator';
  const model = options.model ?? 'SIM-AC22';
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  const specs: ConnectorSpec[] =
    typeof options.connectors === 'object' ? options.connectors : Array.from({ length: options.connectors ?? 2 }, () => ({}));
  const connectors = specs.map((s, i) => makeConnector(i + 1, s, options.powerW ?? 22_000));
  const config = createConfiguration(
    {
      NumberOfConnectors: String(connectors.length),
      MeterValueSampleInterval: String(options.meterValueSampleInterval ?? 60),
      ClockAlignedDataInterval: String(options.clockAlignedDataInterval ?? 900),
      HeartbeatInterval: String(options.heartbeatInterval ?? 300),
      ...options.configuration,
    },
    {
      // 2.0.1's AuthCtrlr.MasterPassGroupId (C16): a token of that group stops every transaction and starts none. Unset: none.
      ...(options.ocppVersion === '2.0.1' ? { MasterPassGroupId: { value: '', kind: 'string' as const } } : {}),
      ...options.configurationKeys,
    },
  );
  const auth = createAuthorization();
  const networkProfiles = new Map<number, NetworkProfile>();
  const events = createEmitter<ChargePointEvents>();
  const point: PointInternals['point'] = { operative: true, status: 'Available', errorCode: 'NoError' };

  const iso = (ms = clock.now()) => new Date(ms).toISOString();
  const connector = (id: number) => connectors[id - 1];
  const must = (id: number) => {
    const c = connector(id);
    if (!c) throw new Error(`${serialNumber} has no connector ${id}`);
    return c;
  };

  const session = createSession({
    // The first slot of its priority that has a profile (2.0.1 SetNetworkProfile), else the URL it was started with;
    // after three failed attempts with one, the next (OCPP 2.0.1 B10).
    url: (attempt) => {
      const order = config.list('NetworkConfigurationPriority').map(Number);
      const slot = order.length ? order[Math.floor(attempt / 3) % order.length]! : 1;
      const base = networkProfiles.get(slot)?.url ?? options.url;
      return `${base.replace(/\/+$/, '')}/${encodeURIComponent(serialNumber)}`;
    },
    ...(options.ocppVersion === '2.0.1'
      ? {
          protocol: 'ocpp2.0.1',
          translator: createWireTranslator(() => ({
            vendor,
            model,
            evses: connectors.map((c) => ({
              id: c.id,
              current: c.spec.current,
              phases: c.spec.phases,
              maxPowerW: c.spec.maxPowerW,
              available: c.operative,
            })),
          })),
        }
      : {}),
    // The key the CSMS sent last (AuthorizationKey), else the configured one.
    headers: () => {
      const key = config.get('AuthorizationKey') || options.key;
      return key ? { authorization: `Basic ${Buffer.from(`${serialNumber}:${key}`).toString('base64')}` } : undefined;
    },
    ...(options.tls ? { tls: options.tls } : {}),
    scheduler,
    clock,
    random,
    config,
    reconnect: options.reconnect ?? { minMs: 1000, maxMs: 60_000 },
    callTimeoutMs,
    bootRetryMs: options.bootRetryMs ?? 30_000,
    bootOnReconnect: options.bootOnReconnect ?? true,
    ...(options.connectGate ? { connectGate: options.connectGate } : {}),
    bootPayload: () => ({
      chargePointVendor: vendor,
      chargePointModel: model,
      chargePointSerialNumber: serialNumber,
      firmwareVersion: firmware.version(),
      meterType: 'SIM-METER',
    }),
    emit: events.emit,
    onCall: (action, payload, translated) => handleCommand(internals, action, payload, translated),
    onAccepted() {
      sendAllStatuses();
      tx.pump();
    },
    onClosed: () => tx.abandonWaiters(),
  });

  const sendStatus = (id: number) => {
    const s = id === 0 ? point : connector(id);
    if (s && session.ready())
      session.notify('StatusNotification', { connectorId: id, errorCode: s.errorCode, status: s.status, timestamp: iso() });
  };
  const sendAllStatuses = () => {
    for (let id = 0; id <= connectors.length; id++) sendStatus(id);
  };

  /** Recomputes a connector's status; a change is announced (and sent when registered). */
  function refresh(id: number) {
    update(id);
    // Reservations of any connector keep the last free ones Reserved: which ones can move.
    if (id !== 0 && reservations.anyConnector() > 0) for (const c of connectors) if (c.id !== id) update(c.id);
  }

  function update(id: number) {
    const c = connector(id);
    const target = id === 0 ? point : c;
    if (!target) return;
    const fault = c ? c.fault : point.fault;
    const status = c ? connectorStatus(c, reservations.holds(c)) : pointStatus(point);
    const errorCode = fault?.errorCode ?? 'NoError';
    if (status === target.status && errorCode === target.errorCode) return;
    target.status = status;
    target.errorCode = errorCode;
    events.emit('status', { connectorId: id, status, errorCode, ...(fault?.info ? { info: fault.info } : {}) });
    sendStatus(id);
  }

  function reboot(type: 'Soft' | 'Hard') {
    events.emit('reset', { type });
    const reason = type === 'Soft' ? 'SoftReset' : 'HardReset';
    const stopAll = () => connectors.forEach((c) => c.tx && void tx.stop(c, reason));
    const down = () => session.goOffline(options.rebootDelayMs ?? 2000, true);
    session.forgetRegistration();
    if (type === 'Hard' || !session.ready()) {
      // Power cut: the StopTransactions wait in the queue for the next boot.
      down();
      return stopAll();
    }
    // A soft reset finishes its transactions before going down (within the call timeout).
    stopAll();
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      timeout.cancel();
      down();
    };
    const timeout = scheduler.after(callTimeoutMs, once);
    void tx.drained().then(once);
  }

  const deps = { config, connectors, connector, point, scheduler, now: () => clock.now(), refresh, emit: events.emit };
  const reservations = createReservations(deps);
  const smartCharging = createSmartCharging(deps);
  const view = (id: number) => {
    const c = id === 0 ? undefined : must(id);
    return connectorView(point, c, c && reservations.of(c)?.reservationId);
  };
  const transferDeps = {
    serialNumber,
    scheduler,
    now: () => clock.now(),
    iso,
    online: () => session.connection() === 'open',
    call: (action: string, payload: Payload) => session.link.call(action, payload),
    emit: events.emit,
    reboot,
  };
  const firmware = createFirmware(transferDeps, options.firmwareVersion ?? '1.0.0', options.firmware);
  const diagnostics = createDiagnostics(transferDeps, () => ({
    vendor,
    model,
    firmwareVersion: firmware.version(),
    firmwareStatus: firmware.status(),
    state: state(),
    configuration: config.read().configurationKey,
  }));
  const state = (): ChargePointState => ({
    serialNumber,
    connection: session.connection(),
    registration: session.registration(),
    heartbeatIntervalS: config.int('HeartbeatInterval'),
    connectors: [point, ...connectors].map((_, id) => view(id)),
    queuedMessages: tx.queued(),
    pendingCalls: session.link.pendingCalls(),
    localListVersion: auth.listVersion(),
    firmware: { version: firmware.version(), status: firmware.status() },
    diagnosticsStatus: diagnostics.status(),
  });

  const internals: PointInternals = {
    serialNumber,
    networkProfiles,
    vendor,
    dataTransferVendors: options.dataTransferVendors ?? [vendor],
    config,
    auth,
    reservations,
    smartCharging,
    firmware,
    diagnostics,
    scheduler,
    random,
    connectors,
    point,
    registration: () => session.registration(),
    online: () => session.connection() === 'open',
    connector,
    now: () => clock.now(),
    iso,
    call: (action, payload) => session.link.call(action, payload),
    notify: session.notify,
    refresh,
    sendStatus,
    sendAllStatuses,
    boot: session.boot,
    heartbeat: session.heartbeat,
    startTransaction: (c, idTag, opts) => tx.start(c, idTag, opts),
    stopTransaction: (c, reason) => tx.stop(c, reason),
    meterValues: (c, context) => tx.meterValues(c, context),
    queuedMessages: (transactionId) => (transactionId === undefined ? tx.queued() : tx.queuedOf(transactionId)),
    reboot,
    applyConfiguration(key) {
      if (key === 'HeartbeatInterval') session.scheduleHeartbeat();
      else if (key === 'MeterValueSampleInterval') tx.rescheduleSampling();
      else if (key === 'ClockAlignedDataInterval') tx.rescheduleAligned();
      // A new password: reconnect with it at once (the answer has gone out), as OCPP 2.0.1 A01 has it.
      else if (key === 'AuthorizationKey') session.goOffline(0, true);
    },
    emit: events.emit,
  };
  const tx = createTransactions(internals, options.maxQueuedMessages ?? 1000, options.alignedWhenIdle ?? false);

  return {
    serialNumber,
    configuration: config,
    on: events.on,
    next: events.next,
    start() {
      tx.rescheduleAligned();
      session.start();
    },
    ready: session.whenReady,
    async stop() {
      tx.halt();
      reservations.halt();
      smartCharging.halt();
      firmware.halt();
      diagnostics.halt();
      await session.stop();
    },
    disconnect: (offlineMs) => session.goOffline(offlineMs, false),
    connect: session.connect,
    swipe: (idTag) => tx.authorize(idTag),
    plugIn(id) {
      const c = must(id);
      c.plugged = true;
      if (c.tx) {
        advance(c.meter, c.spec, clock.now());
        c.meter.active = true;
        smartCharging.apply(); // one more EV shares the point's limit
      }
      refresh(id);
    },
    async unplug(id) {
      const c = must(id);
      c.plugged = false;
      c.finishing = false;
      if (c.tx && config.bool('StopTransactionOnEVSideDisconnect')) await tx.stop(c, 'EVDisconnected');
      else if (c.tx) {
        advance(c.meter, c.spec, clock.now());
        c.meter.active = false;
        c.meter.powerW = 0;
        smartCharging.apply();
      }
      refresh(id);
    },
    startCharging(id, idTag) {
      const c = must(id);
      if (c.tx) return Promise.reject(new Error(`${serialNumber} connector ${id} is already charging`));
      if (c.fault || point.fault || !c.operative) return Promise.reject(new Error(`${serialNumber} connector ${id} is ${c.status}`));
      return tx.start(c, idTag);
    },
    stopCharging(id, reason = 'Local') {
      const c = must(id);
      if (!c.tx) return Promise.reject(new Error(`${serialNumber} connector ${id} has no transaction`));
      return tx.stop(c, reason);
    },
    fault(id, errorCode = DEFAULT_ERROR_CODE, info) {
      const fault = { errorCode, ...(info ? { info } : {}) };
      if (id === 0) point.fault = fault;
      else must(id).fault = fault;
      for (const c of connectors) if (c.tx && (id === 0 || c.id === id)) void tx.stop(c, 'Other');
      refresh(id);
    },
    clearFault(id) {
      if (id === 0) point.fault = undefined;
      else must(id).fault = undefined;
      refresh(id);
    },
    reset: (type = 'Soft') => reboot(type),
    configureFirmware: (o) => firmware.configure(o),
    send: (action, payload) => session.link.call(action, payload),
    drained: () => tx.drained(),
    state,
    connector: view,
  };
}
