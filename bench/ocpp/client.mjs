// One client process of the OCPP benchmark (bench/ocpp.mjs forks several). It runs simulated
// charge points of @csms/simulator (`runFleet`, idle scenario) on its slice of the serial numbers
// and drives the load phases the parent asks for over IPC; every answer carries what the phase
// measured here: per-action latency histograms, errors, this process's CPU time and event-loop delay.
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createHistogram, runFleet } from '../../packages/simulator/dist/index.js';

const CONNECTORS = 2;

/** @type {{ url: string, serials: string[], secret: string }} */
let setup;
/** Fleets started so far, each over a range of this client's serials. */
const fleets = [];
/** Every point connected so far, in serial order. */
const points = [];
/** Energy register per point (Wh), so meter values only grow. */
const energy = new Map();
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

/** What the current phase records; traffic events of every point land here. */
let phase = newPhase();

function newPhase() {
  loop.reset();
  return { actions: new Map(), errors: {}, timeouts: 0, offline: 0, cpu: process.cpuUsage(), startedAt: Date.now() };
}

function histogramOf(action) {
  let h = phase.actions.get(action);
  if (!h) phase.actions.set(action, (h = createHistogram()));
  return h;
}

/** The phase's figures, in a form that crosses IPC. */
function phaseReport() {
  const cpu = process.cpuUsage(phase.cpu);
  const report = {
    actions: Object.fromEntries(
      [...phase.actions].map(([action, h]) => [action, { buckets: Array.from(h.buckets), count: h.count, max: h.max() }]),
    ),
    errors: phase.errors,
    timeouts: phase.timeouts,
    offline: phase.offline,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: Date.now() - phase.startedAt,
    // Node records whole intervals between the monitor's 10 ms ticks: the delay is the excess.
    loopP99Ms: loop.count ? Math.max(0, loop.percentile(99) / 1e6 - 10) : 0,
    rssBytes: process.memoryUsage().rss,
  };
  return report;
}

const keyOf = (serial) => createHash('sha256').update(`${setup.secret}:${serial}`).digest('hex').slice(0, 40);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failed call: CALLERRORs and timeouts are already counted from the traffic events. */
function countError(err) {
  const name = err?.name ?? 'Error';
  if (name === 'OcppError' || name === 'CallTimeoutError') return;
  if (name === 'OfflineError') phase.offline += 1;
  else phase.errors[name] = (phase.errors[name] ?? 0) + 1;
}

/**
 * Starts the points `from`…`to` of this client's slice; resolves once each has been accepted and
 * has had every StatusNotification (point and connectors) answered (done) or refused or timed
 * out (failed), or at `timeoutMs`.
 */
function connect({ from, to, concurrency, timeoutMs }) {
  const serials = setup.serials.slice(from, to);
  if (serials.length === 0)
    return Promise.resolve({ startedAt: Date.now(), lastStatusAt: null, done: 0, failed: 0, wanted: 0, connectFailures: 0 });
  const startedAt = Date.now();
  const fleet = runFleet({
    url: setup.url,
    count: serials.length,
    serial: (i) => serials[i - 1],
    keys: keyOf,
    scenario: 'idle',
    concurrency,
    connectors: CONNECTORS,
    ...(setup.ocpp === '2.0.1' ? { point: { ocppVersion: '2.0.1' } } : {}),
  });
  fleets.push(fleet);
  let done = 0;
  let failed = 0;
  let lastStatusAt = null;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  for (const cp of fleet.points) {
    points.push(cp);
    // StatusNotifications of the current registration: answered, and settled (answered, refused or timed out).
    let answered = 0;
    let settled = 0;
    let complete = false;
    const settle = (ok) => {
      if (complete) return;
      settled += 1;
      if (ok) answered += 1;
      if (settled < CONNECTORS + 1) return;
      complete = true;
      if (answered === CONNECTORS + 1) {
        done += 1;
        lastStatusAt = Date.now();
      } else failed += 1;
      if (done + failed === serials.length) finish();
    };
    cp.on('registration', ({ status }) => {
      if (status === 'Accepted') answered = settled = 0;
    });
    cp.on('traffic', (e) => {
      // On the 2.0.1 wire, by the 1.6 call it stands for (TransactionEvent Started as StartTransaction…), so the tables read alike.
      const action = e.of ?? e.action;
      if (e.type === 'callResult') {
        histogramOf(action).record(e.latencyMs);
        if (action === 'StatusNotification') settle(true);
      } else if (e.type === 'callError') {
        histogramOf(action).record(e.latencyMs);
        phase.errors[e.code] = (phase.errors[e.code] ?? 0) + 1;
        if (action === 'StatusNotification') settle(false);
      } else if (e.type === 'callTimeout') {
        phase.timeouts += 1;
        if (action === 'StatusNotification') settle(false);
      }
    });
  }
  const timer = setTimeout(finish, timeoutMs);
  return finished.then(() => {
    clearTimeout(timer);
    return { startedAt, lastStatusAt, done, failed, wanted: serials.length, connectFailures: fleet.stats().connectFailures };
  });
}

function held() {
  let connected = 0;
  let booted = 0;
  let connectFailures = 0;
  for (const f of fleets) {
    const s = f.stats();
    connected += s.connected;
    booted += s.booted;
    connectFailures += s.connectFailures;
  }
  return { connected, booted, connectFailures, rssBytes: process.memoryUsage().rss };
}

const ready = () => points.filter((cp) => cp.state().registration === 'Accepted');

function nextEnergy(cp, step) {
  const e = (energy.get(cp) ?? 0) + step;
  energy.set(cp, e);
  return e;
}

/** A persisted call (MeterValues or StatusNotification, alternately) for `cp`. */
let flip = 0;
function persistedCall(cp) {
  const at = new Date().toISOString();
  flip += 1;
  if (flip % 2 === 0) {
    return cp.send('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: flip % 4 === 0 ? 'Available' : 'Preparing',
      timestamp: at,
    });
  }
  const wh = nextEnergy(cp, 10);
  return cp.send('MeterValues', {
    connectorId: 1,
    meterValue: [
      {
        timestamp: at,
        sampledValue: [
          { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh', context: 'Sample.Periodic' },
          { value: '7200', measurand: 'Power.Active.Import', unit: 'W', context: 'Sample.Periodic' },
        ],
      },
    ],
  });
}

/** Closed loop: `inflight` workers, each sending its next call as soon as the last is answered. */
async function flat({ windowMs, inflight }) {
  const pool = ready();
  const busy = new Set();
  let cursor = 0;
  let replies = 0;
  let total = 0;
  const end = Date.now() + windowMs;
  const pick = () => {
    for (let i = 0; i < pool.length; i++) {
      const cp = pool[cursor++ % pool.length];
      if (!busy.has(cp)) return cp;
    }
    return undefined;
  };
  const worker = async () => {
    while (Date.now() < end) {
      const cp = pick();
      if (!cp) return;
      busy.add(cp);
      try {
        await persistedCall(cp);
        total += 1;
        if (Date.now() <= end) replies += 1;
      } catch (err) {
        countError(err);
        await sleep(50);
      } finally {
        busy.delete(cp);
      }
    }
  };
  const workers = Math.min(inflight, pool.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return { replies, total, windowMs, workers, points: pool.length };
}

/** Open loop at a fixed rate, spread over the points (a point with a call in flight is skipped). */
async function rate({ windowMs, perSecond }) {
  const pool = ready();
  const busy = new Set();
  let cursor = 0;
  let sent = 0;
  let replies = 0;
  let skipped = 0;
  const started = performance.now();
  const inFlight = new Set();
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const elapsed = performance.now() - started;
      if (elapsed >= windowMs) {
        clearInterval(tick);
        return resolve();
      }
      const due = Math.floor((elapsed / 1000) * perSecond) - sent;
      for (let n = 0; n < due; n++) {
        let cp;
        for (let i = 0; i < pool.length && !cp; i++) {
          const c = pool[cursor++ % pool.length];
          if (!busy.has(c)) cp = c;
        }
        sent += 1;
        if (!cp) {
          skipped += 1;
          continue;
        }
        busy.add(cp);
        const p = persistedCall(cp).then(
          () => void (replies += 1),
          (err) => countError(err),
        );
        inFlight.add(p);
        void p.finally(() => {
          busy.delete(cp);
          inFlight.delete(p);
        });
      }
    }, 5);
  });
  await Promise.race([Promise.allSettled([...inFlight]), sleep(35_000)]);
  return { sent, replies, skipped, windowMs };
}

/** The serial numbers of the points that will run transactions (the parent issues each a card). */
function txPool({ inflight }) {
  return ready()
    .slice(0, inflight)
    .map((cp) => cp.serialNumber);
}

/**
 * Transactions flat out: the points of `tags` (one loop each, connector 1, each with its own card's
 * idTag) run Start, `meters` MeterValues and Stop over and over until the window ends; every
 * transaction id answered is returned, with whether its Stop was answered, for the parent to
 * compare with the database.
 */
async function transactions({ windowMs, inflight, meters, tags }) {
  const tagOf = new Map(tags);
  const pool = ready()
    .filter((cp) => tagOf.has(cp.serialNumber))
    .slice(0, inflight);
  const end = Date.now() + windowMs;
  const acks = []; // [transactionId, serial, startedAtIso, stopAcked]
  let pairs = 0;
  let pairsInWindow = 0;
  const lastTs = new Map();
  const stamp = (cp) => {
    const t = Math.max(Date.now(), (lastTs.get(cp) ?? 0) + 1);
    lastTs.set(cp, t);
    return new Date(t).toISOString();
  };
  const worker = async (cp) => {
    const idTag = tagOf.get(cp.serialNumber);
    while (Date.now() < end) {
      let ack;
      try {
        const meterStart = nextEnergy(cp, 0);
        const startedAt = stamp(cp);
        const res = await cp.send('StartTransaction', { connectorId: 1, idTag, meterStart, timestamp: startedAt });
        const id = res.transactionId;
        ack = [id, cp.serialNumber, startedAt, 0];
        acks.push(ack);
        for (let m = 0; m < meters; m++) {
          await cp.send('MeterValues', {
            connectorId: 1,
            transactionId: id,
            meterValue: [
              {
                timestamp: stamp(cp),
                sampledValue: [
                  { value: String(nextEnergy(cp, 50)), measurand: 'Energy.Active.Import.Register', unit: 'Wh', context: 'Sample.Periodic' },
                ],
              },
            ],
          });
        }
        await cp.send('StopTransaction', {
          transactionId: id,
          idTag,
          meterStop: nextEnergy(cp, 50),
          timestamp: stamp(cp),
          reason: 'Local',
        });
        ack[3] = 1;
        pairs += 1;
        if (Date.now() <= end) pairsInWindow += 1;
      } catch (err) {
        countError(err);
        await sleep(50);
      }
    }
  };
  await Promise.all(pool.map(worker));
  return { pairs, pairsInWindow, windowMs, points: pool.length, acks };
}

async function stopAll() {
  await Promise.all(fleets.splice(0).map((f) => f.stop()));
  points.length = 0;
}

const commands = {
  init: async (msg) => {
    setup = msg;
    return { pid: process.pid };
  },
  connect,
  held: async () => held(),
  flat,
  rate,
  txPool: async (args) => txPool(args),
  transactions,
  stop: stopAll,
};

/** Commands that are measured phases: each starts a fresh record and returns it. */
const PHASES = new Set(['connect', 'flat', 'rate', 'transactions']);

process.on('message', async (msg) => {
  const { id, cmd, args } = msg;
  try {
    const measured = PHASES.has(cmd);
    if (measured) phase = newPhase();
    const result = await commands[cmd](args);
    process.send({ id, ok: true, result, ...(measured ? { phase: phaseReport() } : {}) });
  } catch (err) {
    process.send({ id, ok: false, error: String(err?.stack ?? err) });
  }
});
// The parent is gone (Ctrl-C, crash): nothing to report to any more.
process.on('disconnect', () => process.exit(0));
