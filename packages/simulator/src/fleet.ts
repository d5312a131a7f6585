import { createChargePoint, type ChargePoint } from './charge-point.js';
import { systemClock, type Clock } from './clock.js';
import type { TrafficEvent } from './connection.js';
import { createRandom } from './random.js';
import { runScenario, type ChargeOptions, type DemoOptions, type ScenarioName } from './scenarios.js';
import { createScheduler } from './scheduler.js';
import { createHistogram, summarize, type ActionStats, type Histogram } from './stats.js';
import type { ChargePointOptions, ConnectGate, ConnectorSpec } from './types.js';

/**
 * N simulated charge points in one process, sharing one scheduler (one timer for all their
 * heartbeats, samples and scripts), with a limit on simultaneous connects and counters the
 * CLI and the benchmark read.
 */

export interface FleetOptions {
  /** Base URL, e.g. `ws://127.0.0.1:8080/ocpp`. */
  url: string;
  count: number;
  /** Serial numbers are `prefix` + a zero-padded index (default `SIM-`, 4 digits). */
  prefix?: string;
  /** First index (default 1). */
  startIndex?: number;
  /** Overrides the serial-number pattern. */
  serial?: (index: number) => string;
  /** One OCPP key for every point, or one per serial number. */
  key?: string;
  keys?: (serialNumber: string) => string | undefined;
  scenario?: ScenarioName;
  /** idTags the scripted drivers use (default DEMO-TAG-01 … 10). */
  idTags?: readonly string[];
  /** Connection attempts in flight at once (default 200). */
  concurrency?: number;
  connectors?: number | ConnectorSpec[];
  /** Options passed to every point (intervals, power, vendor, …). */
  point?: Omit<Partial<ChargePointOptions>, 'url' | 'serialNumber' | 'key' | 'clock' | 'scheduler' | 'connectGate'>;
  demo?: DemoOptions;
  charge?: ChargeOptions;
  /** Makes the scripts and meter jitter repeatable. */
  seed?: number;
  clock?: Clock;
}

export interface FleetStats {
  points: number;
  connected: number;
  /** Points whose current connection is registered (BootNotification accepted). */
  booted: number;
  /** Connectors with a transaction in progress. */
  charging: number;
  callsSent: number;
  /** CALLRESULTs received. */
  replies: number;
  /** CALLERRORs received and calls that timed out. */
  errors: number;
  timeouts: number;
  connectFailures: number;
  /** Calls from the CSMS answered. */
  commandsAnswered: number;
  /** Things a point could not do (a dropped message, a failed fire-and-forget call…). */
  warnings: number;
  /** Per action: answered calls with latency p50 / p99 (ms). */
  actions: Record<string, ActionStats>;
}

export interface Fleet {
  readonly points: readonly ChargePoint[];
  stats(): FleetStats;
  /** Resolves once every point has been accepted at least once (`count` of them, if given). */
  booted(count?: number): Promise<void>;
  stop(): Promise<void>;
}

/** A semaphore for connection attempts. */
export function createConnectGate(limit: number): ConnectGate {
  let active = 0;
  const waiting: (() => void)[] = [];
  const grant = (resolve: (release: () => void) => void) => {
    active += 1;
    let released = false;
    resolve(() => {
      if (released) return;
      released = true;
      active -= 1;
      waiting.shift()?.();
    });
  };
  return {
    acquire: () => new Promise((resolve) => (active < limit ? grant(resolve) : waiting.push(() => grant(resolve)))),
  };
}

export function runFleet(options: FleetOptions): Fleet {
  const clock = options.clock ?? systemClock;
  const scheduler = createScheduler(clock);
  const gate = createConnectGate(options.concurrency ?? 200);
  const random = createRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const idTags = options.idTags?.length
    ? options.idTags
    : Array.from({ length: 10 }, (_, i) => `DEMO-TAG-${String(i + 1).padStart(2, '0')}`);
  const prefix = options.prefix ?? 'SIM-';
  const serial = options.serial ?? ((i: number) => `${prefix}${String(i).padStart(4, '0')}`);
  const start = options.startIndex ?? 1;

  const connected = new Uint8Array(options.count);
  const booted = new Uint8Array(options.count);
  const everBooted = new Uint8Array(options.count);
  let connectedCount = 0;
  let bootedCount = 0;
  let everBootedCount = 0;
  let charging = 0;
  const counters = { callsSent: 0, replies: 0, errors: 0, timeouts: 0, connectFailures: 0, commandsAnswered: 0, warnings: 0 };
  const latency = new Map<string, { h: Histogram; errors: number; timeouts: number }>();
  let bootWaiters: { count: number; resolve: () => void }[] = [];

  const perAction = (action: string) => {
    let a = latency.get(action);
    if (!a) latency.set(action, (a = { h: createHistogram(), errors: 0, timeouts: 0 }));
    return a;
  };
  const onTraffic = (e: TrafficEvent) => {
    switch (e.type) {
      case 'callSent':
        counters.callsSent += 1;
        break;
      case 'callResult':
        counters.replies += 1;
        perAction(e.action).h.record(e.latencyMs);
        break;
      case 'callError': {
        counters.errors += 1;
        const a = perAction(e.action);
        a.h.record(e.latencyMs);
        a.errors += 1;
        break;
      }
      case 'callTimeout':
        counters.errors += 1;
        counters.timeouts += 1;
        perAction(e.action).timeouts += 1;
        break;
      case 'replySent':
      case 'errorSent':
        counters.commandsAnswered += 1;
        break;
      default:
        break;
    }
  };
  const checkBootWaiters = () => {
    bootWaiters = bootWaiters.filter((w) => (everBootedCount >= w.count ? (w.resolve(), false) : true));
  };

  const points: ChargePoint[] = [];
  const stopScripts: (() => void)[] = [];
  for (let i = 0; i < options.count; i++) {
    const serialNumber = serial(start + i);
    const key = options.keys?.(serialNumber) ?? options.key;
    const cp = createChargePoint({
      connectors: options.connectors ?? 2,
      random: createRandom(Math.floor(random() * 2 ** 32)),
      ...options.point,
      url: options.url,
      serialNumber,
      ...(key ? { key } : {}),
      clock,
      scheduler,
      connectGate: gate,
    });
    cp.on('traffic', onTraffic);
    cp.on('connection', ({ state, error }) => {
      const up = state === 'open' ? 1 : 0;
      if (state === 'offline' && error && !connected[i]) counters.connectFailures += 1;
      if (state === 'connecting') return;
      connectedCount += up - connected[i]!;
      connected[i] = up;
      if (!up && booted[i]) {
        booted[i] = 0;
        bootedCount -= 1;
      }
    });
    cp.on('registration', ({ status }) => {
      const ok = status === 'Accepted' ? 1 : 0;
      bootedCount += ok - booted[i]!;
      booted[i] = ok;
      if (ok && !everBooted[i]) {
        everBooted[i] = 1;
        everBootedCount += 1;
        checkBootWaiters();
      }
    });
    cp.on('transaction', ({ type }) => {
      if (type === 'started') charging += 1;
      else if (type === 'stopped') charging -= 1;
    });
    cp.on('warning', () => (counters.warnings += 1));
    points.push(cp);
    // Drivers turn up once the point is in service, i.e. after its first accepted boot.
    const scriptRandom = createRandom(Math.floor(random() * 2 ** 32));
    let stopScript: (() => void) | undefined;
    const offBoot = cp.on('registration', ({ status }) => {
      if (status !== 'Accepted' || stopScript) return;
      offBoot();
      stopScript = runScenario(cp, options.scenario ?? 'idle', {
        scheduler,
        random: scriptRandom,
        idTags,
        demo: options.demo,
        charge: options.charge,
      });
    });
    stopScripts.push(() => {
      offBoot();
      stopScript?.();
    });
    cp.start();
  }

  return {
    points,
    stats: () => ({
      points: points.length,
      connected: connectedCount,
      booted: bootedCount,
      charging,
      ...counters,
      actions: Object.fromEntries(
        [...latency].sort(([a], [b]) => a.localeCompare(b)).map(([action, a]) => [action, summarize(a.h, a.errors, a.timeouts)]),
      ),
    }),
    booted: (count = options.count) =>
      everBootedCount >= count ? Promise.resolve() : new Promise((resolve) => bootWaiters.push({ count, resolve })),
    async stop() {
      for (const s of stopScripts) s();
      await Promise.all(points.map((p) => p.stop()));
      scheduler.clear();
    },
  };
}
