// OCPP load benchmark (issue 5 item 9, DESIGN.md §8): K simulated chargers in client processes
// against ONE server process (`node packages/server/dist/main.js`), on PGlite and on PostgreSQL.
// Prints one table per database with the machine, the commit and, for each target, "met" or
// "not met (why)", the why being what was measured to saturate (server thread, machine CPU,
// clients). Loopback only; bounded in count and time; everything it starts or creates (server,
// clients, temporary directory, database) is removed at the end, on errors and on Ctrl-C.
//
// Per database: (1) a first server auto-registers the K chargers (each presents its own key once,
// trust on first use), then stops; (2) a fresh server on that database: idle memory, and the storm's
// chargers against a bare ws server (bench/ocpp/floor-server.mjs: the transport floor); (3) reconnect
// storm: N chargers connect, boot and report their statuses at once, timed from the first connect
// to the last StatusNotification answer; (4) the other K − N connect, all K are held, memory
// again; (5) MeterValues/StatusNotification flat out, then a wait until the server has written the
// OCPP log rows the window left it (timed: a row of its own); (6) the same at a fixed rate R with latency
// per action and the server's event-loop delay (its health endpoint); (7) Start, meter values and
// Stop flat out, billed (the admin first gives the chargers' station a price and each charger running
// transactions a card of its own, through the server's API), then the server is SIGKILLed, every
// answered transaction is looked up in the database and the stopped ones' bills counted. CPU of the server (health endpoint), the clients (their own accounting), PostgreSQL
// and the whole machine (/proc) is taken over every window: that is where the "why" comes from.
//
//   npm run bench -- --quick                      # smoke run: 500 chargers, short windows
//   npm run bench                                 # 19,500 chargers, 4 client processes
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench   # PGlite, then PostgreSQL
//   npm run bench -- --db postgres --chargers 10000 --storm 5000 --rate 1000
//   npm run bench -- --help
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createHistogram } from '../packages/simulator/dist/index.js';
import { ensureBuilt, root } from '../scripts/lib.mjs';

const HELP = `npm run bench -- [options]
  --chargers K       chargers to connect and hold (default 19500; --quick 500)
  --clients P        client processes running the simulated chargers (default 4)
  --storm N          chargers in the reconnect storm (default 10000; --quick 500)
  --rate R           calls per second of the fixed-rate latency test (default 2000)
  --db D             pglite | postgres | both (default both when DATABASE_URL is set, else pglite)
  --window S         seconds of each measured window: throughput, rate, transactions (default 20; --quick 5)
  --inflight C       calls in flight at once in the throughput test, all clients together (default 1000)
  --tx-inflight T    chargers running transactions at once (default 500; --quick 100)
  --concurrency G    connection attempts in flight per client process (default 250)
  --stall S          seconds of the stall test: persisted calls at --stall-rate with every charger held,
                     the server's event-loop histogram and GC pauses read every 10 s (default 300; --quick 15)
  --stall-rate Q     calls per second of the stall test (default 1000)
  --quick            small smoke run
  --profile          write CPU profiles of the server (node --cpu-prof) into a temporary directory (kept)
  --node-flags F     node or V8 flags for the server process, for experiments (--node-flags=--max-semi-space-size=64)
  --no-build         do not rebuild stale packages first
  --ocpp V           the OCPP version the simulated chargers speak: 1.6 or 2.0.1 (default 1.6)`;

const { values: opt } = parseArgs({
  options: {
    chargers: { type: 'string' },
    clients: { type: 'string' },
    storm: { type: 'string' },
    rate: { type: 'string' },
    db: { type: 'string' },
    window: { type: 'string' },
    inflight: { type: 'string' },
    'tx-inflight': { type: 'string' },
    concurrency: { type: 'string' },
    stall: { type: 'string' },
    'stall-rate': { type: 'string' },
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
    'no-build': { type: 'boolean', default: false },
    ocpp: { type: 'string', default: '1.6' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  console.log(HELP);
  process.exit(0);
}

const int = (v, dflt, name) => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer`);
    process.exit(2);
  }
  return n;
};
if (opt.ocpp !== '1.6' && opt.ocpp !== '2.0.1') {
  console.error('--ocpp must be 1.6 or 2.0.1');
  process.exit(2);
}
const OCPP = opt.ocpp;
const quick = opt.quick;
const K = int(opt.chargers, quick ? 500 : 19_500, 'chargers');
const P = Math.min(int(opt.clients, 4, 'clients'), K);
const N = Math.min(int(opt.storm, quick ? 500 : 10_000, 'storm'), K);
const R = int(opt.rate, 2_000, 'rate');
const WINDOW_MS = int(opt.window, quick ? 5 : 20, 'window') * 1000;
const INFLIGHT = int(opt.inflight, 1_000, 'inflight');
const TX_INFLIGHT = Math.min(int(opt['tx-inflight'], quick ? 100 : 500, 'tx-inflight'), K);
const CONCURRENCY = int(opt.concurrency, 250, 'concurrency');
const STALL_MS = int(opt.stall, quick ? 15 : 300, 'stall') * 1000;
const STALL_RATE = int(opt['stall-rate'], 1_000, 'stall-rate');
/** The stall test reads the server's event-loop and GC windows this often. */
const STALL_SAMPLE_MS = 10_000;
const METERS_PER_TX = 3;
const databaseUrl = process.env.DATABASE_URL;
const dbChoice = opt.db ?? (databaseUrl ? 'both' : 'pglite');
const dbs = dbChoice === 'both' ? ['pglite', 'postgres'] : [dbChoice];
for (const d of dbs) {
  if (d !== 'pglite' && d !== 'postgres') {
    console.error('--db must be pglite, postgres or both');
    process.exit(2);
  }
  if (d === 'postgres' && !databaseUrl) {
    console.error('--db postgres needs DATABASE_URL (a PostgreSQL server the benchmark may create a database on)');
    process.exit(2);
  }
}

/** The targets of issue 5 item 9. */
const GOAL = {
  held: K,
  memoryPerChargerKb: 10,
  stormS: 10,
  stormN: 10_000,
  callsPerS: 5_000,
  p99Ms: 20,
  rate: 2_000,
  loopP99Ms: 20,
  // Issue 14.
  stallLoopP99Ms: 10,
  stallLoopMaxMs: 100,
  stallMeterP99Ms: 20,
  stallChargers: 5_000,
  stallRate: 1_000,
  stallS: 300,
  pgliteMainCallUs: 100,
  pgliteCallsPerS: 5_000,
  pgliteChargersPerS: 300,
  pgCallUs: 60,
  pgChargerUs: 350,
  pgTxUs: 2_500,
  pgTxCommits: 3,
};

// ---------------------------------------------------------------------------------------------
// Clean-up: whatever is started or created registers how to undo it; Ctrl-C runs it all.

const cleanups = [];
let aborting = false;
async function cleanAll() {
  while (cleanups.length > 0) {
    const fn = cleanups.pop();
    await Promise.resolve()
      .then(fn)
      .catch((err) => console.error(`clean-up: ${err?.message ?? err}`));
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (aborting) process.exit(130);
    aborting = true;
    console.error(`\n${signal}: stopping and cleaning up (again to force)…`);
    void cleanAll().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
const mb = (b) => fmt(b / 1024 / 1024);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const t0 = Date.now();
const progress = (tag, msg) => console.error(`[${fmt((Date.now() - t0) / 1000, 1).padStart(6)} s] ${tag}: ${msg}`);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Busy and total jiffies of all cores (Linux); null elsewhere. */
function machineCpu() {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3] + (v[4] ?? 0);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    return { idle, total };
  } catch {
    return null;
  }
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (ms) of each process named `postgres` (the PostgreSQL server's backends) by pid; Linux only. */
function postgresCpuMs() {
  const byPid = new Map();
  try {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
        const fields = stat.slice(close + 2).split(' ');
        byPid.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK); // utime, stime
      } catch {
        /* the process ended meanwhile */
      }
    }
  } catch {
    return null;
  }
  return byPid;
}

/**
 * PostgreSQL's CPU over a window: read every second, so that a backend that ends within the window
 * (the server's pool closes idle ones) still counts up to its last reading; a backend that starts
 * within it counts whole. (Two readings summed over the processes alive at each went negative when
 * a busy backend ended in between.)
 */
function postgresCpuMeter() {
  const first = postgresCpuMs();
  if (!first) return { stop: () => NaN };
  const last = new Map(first);
  const read = () => {
    for (const [pid, ms] of postgresCpuMs() ?? []) last.set(pid, ms);
  };
  const timer = setInterval(read, 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      read();
      let ms = 0;
      for (const [pid, now] of last) ms += Math.max(0, now - (first.get(pid) ?? 0));
      return ms;
    },
  };
}

function machine() {
  const cpus = os.cpus();
  const commit = (() => {
    try {
      const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
      const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
      return dirty ? `${sha} + uncommitted changes` : sha;
    } catch {
      return 'unknown';
    }
  })();
  const fdLimit = (() => {
    try {
      return Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
    } catch {
      return NaN;
    }
  })();
  return {
    cpu: `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores`,
    cores: cpus.length,
    ram: `${fmt(os.totalmem() / 1024 ** 3, 1)} GB RAM`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    commit,
    fdLimit,
  };
}

// ---------------------------------------------------------------------------------------------
// Database: a temporary PGlite directory, or a throw-away database on the PostgreSQL server

async function createDatabase(kind) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-bench-ocpp-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  // The admin is created with it on the database's first start; the bench signs in with it to seed prices and cards.
  const adminPassword = randomBytes(12).toString('hex');
  if (kind === 'pglite')
    return { kind, label: "PGlite (the server process's database thread)", dir, adminPassword, env: { CSMS_DATA_DIR: dir } };
  const { default: pg } = await import('pg');
  const name = `bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const version = (await admin.query('show server_version')).rows[0].server_version;
  cleanups.push(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  /** Commits and rows written so far in the benchmark's database (PostgreSQL's statistics, flushed about every second). */
  const stats = async () => {
    const { rows } = await admin.query(
      'select xact_commit::float8 as commits, (tup_inserted + tup_updated + tup_deleted)::float8 as written from pg_stat_database where datname = $1',
      [name],
    );
    return rows[0] ?? { commits: NaN, written: NaN };
  };
  const u = new URL(databaseUrl);
  u.pathname = `/${name}`;
  return {
    kind,
    label: `PostgreSQL ${version} (${u.host}, separate processes)`,
    dir,
    url: u.toString(),
    stats,
    adminPassword,
    env: { CSMS_DATA_DIR: dir, DATABASE_URL: u.toString() },
  };
}

/** Transactions as stored: id, serial number, start time, stopped or not, and what billing made of them. */
async function storedTransactions(db) {
  const query = `select t.id, p.serial_number as serial, t.started_at as started, t.stopped_at is not null as stopped,
      t.auth_status as "authStatus", t.billed_at is not null as billed, t.billing_note as note, t.valid,
      coalesce(t.total_cents, 0)::int as cents
    from charging_transaction t join charge_point p on p.id = t.charge_point_id`;
  if (db.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query(query)).rows;
    } finally {
      await c.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const pgl = await PGlite.create(path.join(db.dir, 'pglite'));
  try {
    return (await pgl.query(query)).rows;
  } finally {
    await pgl.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The server process

async function startServer(db, tag, extraEnv = {}) {
  const port = await freePort();
  const logFile = path.join(db.dir, `server-${tag}.log`);
  const out = fs.openSync(logFile, 'a');
  const env = { ...process.env };
  delete env.DATABASE_URL;
  Object.assign(env, db.env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    CSMS_OCPP_AUTO_REGISTER: 'true',
    // The chargers stay in the "Unassigned" station they register into and run sessions there (nobody places them).
    CSMS_OCPP_PENDING_UNTIL_PLACED: 'false',
    CSMS_CAPTCHA: 'false',
    CSMS_LOG_LEVEL: 'warn',
    CSMS_DEMO: 'false',
    CSMS_ADMIN_PASSWORD: db.adminPassword,
    ...extraEnv,
  });
  const profileDir = path.join(os.tmpdir(), `csms-ocpp-profile-${process.pid}`);
  if (opt.profile) {
    fs.mkdirSync(profileDir, { recursive: true });
    progress('profile', `the server writes its CPU profile (${tag}) into ${profileDir} when it exits`);
  }
  // --expose-gc: SIGUSR2 then runs a full collection in the server (main.ts), before memory is read.
  const args = [
    '--expose-gc',
    ...opt['node-flags'].split(' ').filter(Boolean),
    ...(opt.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    path.join(root, 'packages/server/dist/main.js'),
  ];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => ((exited = true), resolve({ code, signal }))));
  const kill = async (signal = 'SIGKILL', graceMs = 20_000) => {
    if (exited) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exit;
    clearTimeout(timer);
  };
  cleanups.push(() => kill('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  const health = async () => {
    const res = await fetch(`${base}/prod-api/health`);
    const body = await res.json();
    if (body.code !== 200) throw new Error(`health: ${JSON.stringify(body)}`);
    return body.data;
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited || Date.now() > deadline) {
      const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
      throw new Error(`the server did not start (${exited ? 'it exited' : 'timeout'}); its log:\n${tail}`);
    }
    try {
      await health();
      break;
    } catch {
      await sleep(250);
    }
  }
  const limits = (() => {
    try {
      return /Max open files\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/limits`, 'utf8'))?.[1];
    } catch {
      return undefined;
    }
  })();
  /** A full collection in the server (SIGUSR2 under --expose-gc), seen done when the GC window counts a major pause. */
  const collect = async () => {
    await health(); // a new GC window
    child.kill('SIGUSR2');
    for (let i = 0; i < 50; i++) {
      await sleep(200);
      if ((await health()).gc.majorCount > 0) return true;
    }
    return false;
  };
  return { child, port, wsUrl: `ws://127.0.0.1:${port}/ocpp`, health, collect, kill, logFile, fdLimit: limits ? Number(limits) : NaN };
}

/** The server's compacting collections after the connect storm, as its health endpoint reports them. */
function compactNote(c) {
  if (!c?.count) return 'no compaction after the storm';
  return `${c.count === 1 ? 'one compacting collection' : `${fmt(c.count)} compacting collections`} after the storm: ${fmt(c.lastPauseMs, 0)} ms pause, ${mb(c.lastFreedBytes)} MB of V8 heap given back`;
}

/** Memory of the idle or loaded server after a full collection: median of a few reads a second apart. */
async function settledMemory(server, reads = 3) {
  const collected = await server.collect();
  const rss = [];
  const heap = [];
  const committed = [];
  const young = [];
  const external = [];
  for (let i = 0; i < reads; i++) {
    if (i > 0) await sleep(1000);
    const h = await server.health();
    rss.push(h.memory.rssBytes);
    heap.push(h.memory.heapUsedBytes);
    committed.push(h.memory.heapTotalBytes);
    young.push(h.memory.youngGenerationBytes);
    external.push(h.memory.externalBytes);
  }
  return {
    rss: median(rss),
    heap: median(heap),
    committed: median(committed),
    young: median(young),
    external: median(external),
    collected,
  };
}

// ---------------------------------------------------------------------------------------------
// Client processes

function startClients(count) {
  const clients = [];
  for (let c = 0; c < count; c++) {
    const child = fork(path.join(root, 'bench/ocpp/client.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const waiting = new Map();
    let seq = 0;
    let exited = false;
    child.on('message', (m) => {
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.ok) w.resolve(m);
      else w.reject(new Error(`client ${c}: ${m.error}`));
    });
    child.once('exit', (code, signal) => {
      exited = true;
      for (const w of waiting.values()) w.reject(new Error(`client ${c} exited (${signal ?? code})`));
      waiting.clear();
    });
    const call = (cmd, args, timeoutMs = 900_000) =>
      new Promise((resolve, reject) => {
        if (exited) return reject(new Error(`client ${c} is not running`));
        const id = ++seq;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`client ${c}: ${cmd} took longer than ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (m) => (clearTimeout(timer), resolve(m)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        child.send({ id, cmd, args });
      });
    const stop = async () => {
      if (exited) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => (exited ? resolve() : child.once('exit', resolve)));
    };
    cleanups.push(stop);
    clients.push({ call, stop, pid: child.pid });
  }
  return clients;
}

/** Merges the clients' phase records: per-action histograms, errors, CPU, event-loop delay. */
function mergePhases(replies) {
  const actions = new Map();
  const errors = {};
  let timeouts = 0;
  let offline = 0;
  let cpuMs = 0;
  let loopP99Ms = 0;
  for (const { phase } of replies) {
    for (const [action, raw] of Object.entries(phase.actions)) {
      let h = actions.get(action);
      if (!h) actions.set(action, (h = createHistogram()));
      h.merge({ buckets: raw.buckets, count: raw.count, max: () => raw.max });
    }
    for (const [k, v] of Object.entries(phase.errors)) errors[k] = (errors[k] ?? 0) + v;
    timeouts += phase.timeouts;
    offline += phase.offline;
    cpuMs += phase.cpuMs;
    loopP99Ms = Math.max(loopP99Ms, phase.loopP99Ms);
  }
  return { actions, errors, timeouts, offline, cpuMs, loopP99Ms };
}

const all = (clients, cmd, args) => Promise.all(clients.map((c, i) => c.call(cmd, typeof args === 'function' ? args(i) : args)));

/**
 * CPU per charger of a bare `ws` server (bench/ocpp/floor-server.mjs: no database, no validation, no
 * log) while the clients connect the storm's chargers to it and each gets its Boot and StatusNotifications
 * answered: what the transport alone costs on this machine, beside the real server's storm.
 */
async function transportFloor(clients, setupOf, connectOf) {
  const child = fork(path.join(root, 'bench/ocpp/floor-server.mjs'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  cleanups.push(() => child.kill('SIGKILL'));
  const next = () => new Promise((resolve) => child.once('message', resolve));
  const { port } = await next();
  const cpuMs = async () => {
    child.send('cpu');
    return (await next()).cpuMs;
  };
  await all(clients, 'init', (c) => setupOf(c, `ws://127.0.0.1:${port}/ocpp`));
  const cpu0 = await cpuMs();
  const started = performance.now();
  const replies = await all(clients, 'connect', connectOf);
  const used = (await cpuMs()) - cpu0;
  const wallMs = performance.now() - started;
  await all(clients, 'stop');
  child.kill('SIGKILL');
  const done = replies.reduce((a, x) => a + x.result.done, 0);
  return { done, wallMs, cpuUs: (used * 1000) / Math.max(1, done) };
}

/** How long the benchmark waits at most for the OCPP log's backlog after the flat-out window. */
const LOG_DRAIN_MAX_MS = 120_000;

/** Waits until the server has written the OCPP log rows it holds (health's `ocppLogBacklog`). */
async function logDrained(server) {
  const started = performance.now();
  const rows = (await server.health()).ocppLogBacklog;
  let left = rows;
  while (left > 0 && performance.now() - started < LOG_DRAIN_MAX_MS) {
    await sleep(100);
    left = (await server.health()).ocppLogBacklog;
  }
  // Read every 100 ms: the time is that close.
  return { rows, left, ms: performance.now() - started };
}

/**
 * A measured window: server CPU (from its health endpoint), clients' CPU (their own
 * accounting), the machine's CPU (/proc/stat, every process, other users' included), and the
 * server's event-loop delay over exactly this window.
 */
async function measured(server, db, fn) {
  const { kind } = db;
  const stats0 = await db.stats?.();
  const before = await server.health(); // also opens a new event-loop window
  const cpu0 = machineCpu();
  const pg = kind === 'postgres' ? postgresCpuMeter() : null;
  const started = performance.now();
  const out = await fn();
  const wallMs = performance.now() - started;
  const after = await server.health();
  const cpu1 = machineCpu();
  const pgCpuMs = pg ? pg.stop() : NaN;
  // PostgreSQL publishes a backend's statistics within about a second.
  const stats1 = db.stats ? await sleep(1500).then(db.stats) : undefined;
  const processCpuMs = after.cpu.userMs + after.cpu.systemMs - before.cpu.userMs - before.cpu.systemMs;
  // The server's main thread (HTTP, OCPP) apart from its other threads, PGlite's above all.
  const mainKnown = after.cpu.mainThreadMs != null && before.cpu.mainThreadMs != null;
  const serverCpuMs = mainKnown ? after.cpu.mainThreadMs - before.cpu.mainThreadMs : processCpuMs;
  const otherThreadsMs = mainKnown ? Math.max(0, processCpuMs - serverCpuMs) : NaN;
  const cores = os.cpus().length;
  const machineBusy = cpu0 && cpu1 ? 1 - (cpu1.idle - cpu0.idle) / Math.max(1, cpu1.total - cpu0.total) : NaN;
  const merged = out.replies ? mergePhases(out.replies) : undefined;
  return {
    ...out,
    merged,
    wallMs,
    serverCpuPct: (100 * serverCpuMs) / wallMs,
    /** The server process's other threads: on PGlite its database thread (and Node's helpers). */
    threadsCpuPct: (100 * otherThreadsMs) / wallMs,
    clientCpuPct: merged ? (100 * merged.cpuMs) / wallMs : NaN,
    postgresCpuPct: (100 * pgCpuMs) / wallMs,
    commitsPerS: stats1 ? ((stats1.commits - stats0.commits) * 1000) / wallMs : NaN,
    writtenPerS: stats1 ? ((stats1.written - stats0.written) * 1000) / wallMs : NaN,
    machineBusyPct: 100 * machineBusy * cores,
    machinePct: 100 * cores,
    kind,
    serverLoop: after.eventLoop,
    serverGc: after.gc,
    connections: after.ocppConnections,
    /** PGlite's vacuum and analyze in this window (null on PostgreSQL). */
    vacuum:
      after.vacuum && before.vacuum
        ? {
            statements: after.vacuum.statements - before.vacuum.statements,
            ms: after.vacuum.totalMs - before.vacuum.totalMs,
            waitedTicks: after.vacuum.waitedTicks - before.vacuum.waitedTicks,
          }
        : null,
  };
}

/**
 * CPU per unit of work (call, charger, transaction) and what that allows: the server's one thread
 * caps it at 1 s / its share; the machine at its cores / everyone's share (clients included, as here).
 */
function perUnit(w, n, name) {
  if (!(n > 0)) return '';
  const us = (pct) => (Number.isFinite(pct) ? (pct / 100) * w.wallMs * 1000 : 0) / n;
  const server = us(w.serverCpuPct);
  const clients = us(w.clientCpuPct);
  const pg = us(w.postgresCpuPct);
  const threads = us(w.threadsCpuPct);
  const t = (x) => (x >= 1000 ? `${fmt(x / 1000, 1)} ms` : `${fmt(x)} µs`);
  // The main thread caps the rate, and so does PGlite's thread (one core each).
  const dbThread = w.kind === 'pglite' ? threads : 0;
  const thread = 1e6 / Math.max(server, dbThread);
  const machineCap = ((w.machinePct / 100) * 1e6) / (server + threads + clients + pg);
  const threadName = dbThread > server ? 'the PGlite thread' : "the server's main thread";
  return (
    `CPU per ${name}: server main thread ${t(server)}` +
    (threads ? `, ${w.kind === 'pglite' ? 'PGlite thread' : 'other server threads'} ${t(threads)}` : '') +
    `, clients ${t(clients)}${pg ? `, PostgreSQL ${t(pg)}` : ''}` +
    ` → without other load at most ≈ ${fmt(Math.min(thread, machineCap))} ${name}s/s here` +
    ` (${thread <= machineCap ? threadName : 'the machine'} is the limit)`
  );
}

/**
 * The server's threads at a fixed rate, busy share and CPU per answered call: what a call costs when
 * batches are small (flat out they are large, and the per-statement cost is shared by many calls).
 */
function atRate(w) {
  const per = (pct) => `${fmt(((pct / 100) * w.wallMs * 1000) / Math.max(1, w.answered))} µs`;
  const other = w.kind === 'pglite' ? 'PGlite thread' : 'other server threads';
  return (
    `server main thread ${fmt(w.serverCpuPct)} % busy (${per(w.serverCpuPct)} per call)` +
    (Number.isFinite(w.threadsCpuPct) ? `, ${other} ${fmt(w.threadsCpuPct)} % (${per(w.threadsCpuPct)})` : '') +
    (Number.isFinite(w.postgresCpuPct) ? `, PostgreSQL ${fmt(w.postgresCpuPct)} % (${per(w.postgresCpuPct)})` : '') +
    vacuumText(w)
  );
}

/** PGlite's vacuum statements in the window, which every charger's statement waited behind. */
const vacuumText = (w) =>
  w.vacuum
    ? `; PGlite's vacuum ${fmt(w.vacuum.statements)} statements, ${fmt(w.vacuum.ms)} ms (${fmt(w.vacuum.waitedTicks)} ticks waited for a quieter one)`
    : '';

/** Why a window was slower than its goal: the resource measured to saturate. */
function why(w, unit) {
  const parts = [];
  const pgPct = Number.isFinite(w.postgresCpuPct) ? w.postgresCpuPct : 0;
  const threadsPct = Number.isFinite(w.threadsCpuPct) ? w.threadsCpuPct : 0;
  const other = w.machineBusyPct - w.serverCpuPct - threadsPct - (Number.isFinite(w.clientCpuPct) ? w.clientCpuPct : 0) - pgPct;
  const cpus = [
    `server main thread ${fmt(w.serverCpuPct)} %`,
    ...(Number.isFinite(w.threadsCpuPct) ? [`${w.kind === 'pglite' ? 'PGlite thread' : 'other server threads'} ${fmt(threadsPct)} %`] : []),
    `clients ${fmt(w.clientCpuPct)} %`,
    ...(Number.isFinite(w.postgresCpuPct) ? [`PostgreSQL ${fmt(pgPct)} %`] : []),
    `other processes ${fmt(Math.max(0, other))} %`,
  ].join(', ');
  const of = `of ${fmt(w.machinePct)} %`;
  if (w.serverCpuPct >= 85) parts.push(`server main thread CPU-bound (${cpus} ${of})`);
  else if (w.kind === 'pglite' && threadsPct >= 85) parts.push(`PGlite thread CPU-bound (${cpus} ${of})`);
  else if (w.machineBusyPct >= 0.9 * w.machinePct) parts.push(`machine CPU saturated (${cpus} ${of})`);
  else parts.push(`no CPU saturated (${cpus} ${of}): waiting on ${w.kind === 'postgres' ? 'PostgreSQL commits' : 'the database'}`);
  if (unit) parts.push(perUnit(w, unit.n, unit.name));
  if (Number.isFinite(w.commitsPerS)) parts.push(`PostgreSQL ${fmt(w.commitsPerS)} commits/s, ${fmt(w.writtenPerS)} rows written/s`);
  if (w.merged?.loopP99Ms > 20) parts.push(`client event-loop p99 ${fmt(w.merged.loopP99Ms)} ms`);
  const errs = errorText(w.merged);
  if (errs) parts.push(errs);
  return parts.join('; ');
}

function errorText(m) {
  if (!m) return '';
  const list = Object.entries(m.errors).map(([k, v]) => `${fmt(v)} ${k}`);
  if (m.timeouts) list.push(`${fmt(m.timeouts)} timeouts`);
  if (m.offline) list.push(`${fmt(m.offline)} offline`);
  return list.length ? `errors: ${list.join(', ')}` : '';
}

// ---------------------------------------------------------------------------------------------
// What a real network has before its chargers bill anything: a price at the chargers' station and a
// card per driver, entered by the admin through the server's own HTTP API (DESIGN.md §4).

/** Unit prices of the bench's price (1/10,000 of the currency per kWh): 1.00 electricity + 0.50 service. */
const BENCH_PRICE = { elec: 10_000, service: 5_000 };
/** Each card's prepaid balance (cents): far more than a window of transactions can spend. */
const BENCH_BALANCE_CENTS = 10_000_000;
/** The idTag of the card issued for a charger (OCPP's IdToken: at most 20 characters). */
const tagOf = (serial) => `BT-${serial}`;

async function seedBilling(server, db, serials, log) {
  const base = `http://127.0.0.1:${server.port}/prod-api`;
  const call = async (method, route, body, token) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const reply = await res.json();
    if (reply.code !== 200) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(reply).slice(0, 300)}`);
    return reply.data;
  };
  // The bench server runs with CSMS_CAPTCHA=false: no captcha to solve.
  const { token } = await call('POST', '/web/login', { username: 'admin', password: db.adminPassword, code: '', uuid: '' });
  const api = (method, route, body) => call(method, route, body, token);

  // Auto-registration puts a charger into its provider's "Unassigned" station: find each one's station and provider.
  const wanted = new Set(serials);
  const where = new Map();
  for (let page = 1; where.size < wanted.size; page++) {
    const { list } = await api('GET', `/web/point/list?serialNumber=BENCH-&page=${page}&limit=300`);
    for (const p of list) if (wanted.has(p.serialNumber)) where.set(p.serialNumber, { stationId: p.stationId, providerId: p.providerId });
    if (list.length < 300) break;
  }
  if (where.size < wanted.size) throw new Error(`${wanted.size - where.size} of the transaction chargers are not in the point list`);

  const stations = [...new Set([...where.values()].map((w) => w.stationId))];
  const fees = Object.fromEntries(
    ['sharp', 'peak', 'flat', 'valley'].flatMap((tier) => [
      [`${tier}Elec`, BENCH_PRICE.elec],
      [`${tier}Service`, BENCH_PRICE.service],
    ]),
  );
  for (const stationId of stations) {
    await api('POST', '/web/price/add', { stationId, ...fees, reserveFeeCents: 0, slots: Array(48).fill('flat') });
  }

  const expireTime = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const todo = [...where];
  const worker = async () => {
    for (let next = todo.shift(); next; next = todo.shift()) {
      const [serial, { providerId }] = next;
      // Each card a charge user's, as in a network whose drivers sign up: its settlement runs the discounts and the
      // membership's recompute too (issue 19), with nothing configured to grant.
      const user = await api('POST', '/web/chargeUser/add', { account: `BU-${serial}`, providerId, userType: 'card' });
      await api('POST', '/web/card/add', {
        cardNumber: `BENCH-CARD-${serial}`,
        physicalId: tagOf(serial),
        providerId,
        chargeUserId: user.id,
        expireTime,
        prepaidCents: BENCH_BALANCE_CENTS,
        email: 'bench@example.com',
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  log(
    `billing: a price at ${stations.length} station(s), ${fmt(where.size)} charge users with a card of ${fmt(BENCH_BALANCE_CENTS / 100)} each`,
  );
  return { stations: stations.length, cards: where.size };
}

/**
 * What billing made of the stored transactions that were stopped: billed (settled, bill written),
 * not billed (a note says why: unauthorized, noPrice, noAccount, badSamples; or flagged invalid), or
 * not settled yet (its settlement runs after the Stop's answer, and the SIGKILL can come first; the
 * next start settles it).
 */
function billingOf(rows) {
  const stopped = rows.filter((row) => row.stopped);
  const notBilled = {};
  let billed = 0;
  let cents = 0;
  let pending = 0;
  for (const row of stopped) {
    if (row.billed) {
      billed += 1;
      cents += Number(row.cents);
      continue;
    }
    const why = row.note ?? (row.valid === false ? 'invalid' : row.authStatus !== 'Accepted' ? `start ${row.authStatus}` : null);
    if (why) notBilled[why] = (notBilled[why] ?? 0) + 1;
    else pending += 1;
  }
  return {
    stopped: stopped.length,
    billed,
    cents,
    notBilled,
    notBilledCount: Object.values(notBilled).reduce((a, n) => a + n, 0),
    pending,
    refused: rows.filter((row) => row.authStatus !== 'Accepted').length,
  };
}

// ---------------------------------------------------------------------------------------------
// One run on one database

async function runOne(kind, info) {
  const tag = kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const log = (msg) => progress(tag, msg);
  const cleanMark = cleanups.length;
  const db = await createDatabase(kind);
  const secret = randomBytes(16).toString('hex');
  const serials = Array.from({ length: K }, (_, i) => `BENCH-${String(i + 1).padStart(5, '0')}`);
  const slices = Array.from({ length: P }, (_, c) => serials.slice(Math.floor((c * K) / P), Math.floor(((c + 1) * K) / P)));
  const stormOf = (c) => Math.min(slices[c].length, Math.floor(N / P) + (c < N % P ? 1 : 0));
  const r = { db: db.label, kind, loadavg: os.loadavg() };

  // 1. Registration: every charger presents its own key once (auto-registration, trust on first use).
  log(`registering ${fmt(K)} chargers (auto-registration) from ${P} client processes…`);
  let server = await startServer(db, 'register');
  let clients = startClients(P);
  await all(clients, 'init', (c) => ({ url: server.wsUrl, serials: slices[c], secret, ocpp: OCPP }));
  const ticker = (label) =>
    setInterval(() => {
      void all(clients, 'held')
        .then((rs) => log(`${label}: ${fmt(rs.reduce((a, x) => a + x.result.booted, 0))} booted`))
        .catch(() => {});
    }, 10_000);
  let tick = ticker('registration');
  const regStart = performance.now();
  const reg = await all(clients, 'connect', (c) => ({ from: 0, to: slices[c].length, concurrency: CONCURRENCY, timeoutMs: 600_000 }));
  clearInterval(tick);
  r.registered = reg.reduce((a, x) => a + x.result.done, 0);
  r.registerFailed = reg.reduce((a, x) => a + x.result.failed, 0);
  r.registerErrors = errorText(mergePhases(reg));
  r.registerS = (performance.now() - regStart) / 1000;
  log(
    `${fmt(r.registered)} registered in ${fmt(r.registerS, 1)} s${r.registerErrors ? ` (${r.registerErrors})` : ''}; restarting the server`,
  );
  await all(clients, 'stop');
  await server.kill('SIGTERM');

  // 2. A fresh server process on the registered database: its idle memory.
  server = await startServer(db, 'run');
  r.serverFdLimit = server.fdLimit;
  await all(clients, 'init', (c) => ({ url: server.wsUrl, serials: slices[c], secret, ocpp: OCPP }));
  await server.health();
  await sleep(5000);
  r.idle = await settledMemory(server);
  log(`idle server: RSS ${mb(r.idle.rss)} MB, heap ${mb(r.idle.heap)} MB`);

  // 2b. The transport floor: the storm's chargers against a bare WebSocket server, then back to ours.
  log(`transport floor: ${fmt(N)} chargers against a bare WebSocket server…`);
  r.floor = await transportFloor(
    clients,
    (c, url) => ({ url, serials: slices[c], secret, ocpp: OCPP }),
    (c) => ({ from: 0, to: stormOf(c), concurrency: CONCURRENCY, timeoutMs: 300_000 }),
  );
  log(`floor: ${fmt(r.floor.done)} chargers, ${fmt(r.floor.cpuUs)} µs of its CPU each`);
  await all(clients, 'init', (c) => ({ url: server.wsUrl, serials: slices[c], secret, ocpp: OCPP }));

  // 3. Reconnect storm: N registered chargers connect, boot and report their statuses at once.
  log(`reconnect storm: ${fmt(N)} chargers…`);
  const storm = await measured(server, db, async () => {
    const replies = await all(clients, 'connect', (c) => ({ from: 0, to: stormOf(c), concurrency: CONCURRENCY, timeoutMs: 300_000 }));
    return { replies };
  });
  const starts = storm.replies.map((x) => x.result.startedAt);
  const ends = storm.replies.map((x) => x.result.lastStatusAt).filter((t) => t !== null);
  r.storm = {
    ...storm,
    done: storm.replies.reduce((a, x) => a + x.result.done, 0),
    failed: storm.replies.reduce((a, x) => a + x.result.failed, 0),
    seconds: ends.length ? (Math.max(...ends) - Math.min(...starts)) / 1000 : NaN,
  };
  log(`storm: ${fmt(r.storm.done)} of ${fmt(N)} done in ${fmt(r.storm.seconds, 2)} s`);

  // 4. The rest, then hold all K.
  log(`connecting the other ${fmt(K - N)}…`);
  tick = ticker('connecting');
  const rest = await all(clients, 'connect', (c) => ({
    from: stormOf(c),
    to: slices[c].length,
    concurrency: CONCURRENCY,
    timeoutMs: 600_000,
  }));
  clearInterval(tick);
  await sleep(5000);
  // The server compacts its heap once the connections stop coming (CSMS_OCPP_COMPACT_AFTER_CONNECTIONS,
  // default 1,000, then 10 s without a new one): memory is read after the compaction that follows the
  // last connection (one during a pause of the connections does not count), as a server holding K settles.
  if (K >= 1000) {
    const connectedBy = Date.now() - 5000;
    const until = Date.now() + 60_000;
    const after = (c) => c.lastAt !== null && Date.parse(c.lastAt) >= connectedBy;
    while (!after((await server.health()).memory.compactions) && Date.now() < until) await sleep(1000);
  }
  const heldNow = await all(clients, 'held');
  r.held = {
    booted: heldNow.reduce((a, x) => a + x.result.booted, 0),
    connected: heldNow.reduce((a, x) => a + x.result.connected, 0),
    connectFailures: heldNow.reduce((a, x) => a + x.result.connectFailures, 0),
    clientRss: heldNow.reduce((a, x) => a + x.result.rssBytes, 0),
    restErrors: errorText(mergePhases(rest)),
  };
  r.loaded = await settledMemory(server);
  const h = await server.health();
  r.held.serverConnections = h.ocppConnections;
  r.held.compactions = h.memory.compactions;
  log(`holding ${fmt(r.held.booted)} booted (server sees ${fmt(h.ocppConnections)} connections), RSS ${mb(r.loaded.rss)} MB`);

  // 5. Persisted calls flat out.
  log(`persisted calls flat out for ${WINDOW_MS / 1000} s (${fmt(INFLIGHT)} in flight)…`);
  r.flat = await measured(server, db, async () => ({
    replies: await all(clients, 'flat', (c) => ({ windowMs: WINDOW_MS, inflight: Math.floor(INFLIGHT / P) + (c < INFLIGHT % P ? 1 : 0) })),
  }));
  r.flat.perS = r.flat.replies.reduce((a, x) => a + x.result.replies, 0) / (WINDOW_MS / 1000);
  r.flat.inflight = r.flat.replies.reduce((a, x) => a + x.result.workers, 0);
  r.flat.total = r.flat.replies.reduce((a, x) => a + x.result.total, 0);
  log(`flat out: ${fmt(r.flat.perS)} calls/s`);

  // 5b. The OCPP log's rows taken flat out and not yet written: the server writes them after the
  //     window, on the same database as the chargers' calls. The fixed-rate test waits for them, so
  //     that it measures that rate and not the end of the overload; their time is a row of its own.
  r.drain = await logDrained(server);
  log(
    `OCPP log: ${fmt(r.drain.rows)} rows left after the window, written in ${fmt(r.drain.ms / 1000, 1)} s${r.drain.left ? ` (${fmt(r.drain.left)} still not after ${LOG_DRAIN_MAX_MS / 1000} s)` : ''}`,
  );

  // 6. Fixed rate: latency per action and the server's event-loop delay.
  log(`fixed rate ${fmt(R)} calls/s for ${WINDOW_MS / 1000} s…`);
  r.rate = await measured(server, db, async () => ({
    replies: await all(clients, 'rate', () => ({ windowMs: WINDOW_MS, perSecond: R / P })),
  }));
  r.rate.sent = r.rate.replies.reduce((a, x) => a + x.result.sent, 0);
  r.rate.answered = r.rate.replies.reduce((a, x) => a + x.result.replies, 0);
  r.rate.skipped = r.rate.replies.reduce((a, x) => a + x.result.skipped, 0);
  log(`rate: ${fmt(r.rate.answered)} of ${fmt(r.rate.sent)} answered, server loop p99 ${fmt(r.rate.serverLoop.p99Ms, 1)} ms`);

  // 6b. Stalls (issue 14 item 2): persisted calls at a moderate rate for minutes with every charger
  //     held; the server's event-loop histogram and GC pauses are read every 10 s (each read closes
  //     a window), the round trips come from the clients.
  log(`stall test: ${fmt(STALL_RATE)} calls/s for ${STALL_MS / 1000} s with ${fmt(r.held.booted)} chargers held…`);
  const samples = [];
  let sampling = true;
  const sampler = (async () => {
    await server.health(); // opens the first window
    while (sampling) {
      await sleep(STALL_SAMPLE_MS);
      const hh = await server.health();
      samples.push({ loop: hh.eventLoop, gc: hh.gc });
    }
  })();
  r.stall = await measured(server, db, async () => {
    const replies = await all(clients, 'rate', () => ({ windowMs: STALL_MS, perSecond: STALL_RATE / P }));
    sampling = false;
    await sampler;
    return { replies };
  });
  // The tail after the last sample is the window measured() closed.
  r.stall.samples = [...samples, { loop: r.stall.serverLoop, gc: r.stall.serverGc }];
  r.stall.answered = r.stall.replies.reduce((a, x) => a + x.result.replies, 0);
  r.stall.sent = r.stall.replies.reduce((a, x) => a + x.result.sent, 0);
  log(
    `stall test: worst window p99 ${fmt(Math.max(...r.stall.samples.map((x) => x.loop.p99Ms)), 1)} ms, max ${fmt(Math.max(...r.stall.samples.map((x) => x.loop.maxMs)))} ms`,
  );

  // 7. Transactions flat out, billed: a price at the chargers' station and a card per charger first
  //    (each charger starts with its own card: a card already charging is refused a second session).
  //    Then the server is killed (SIGKILL) at once: every answered Start and Stop must be in the
  //    database exactly once, and every stopped one billed.
  const txInflight = (c) => Math.floor(TX_INFLIGHT / P) + (c < TX_INFLIGHT % P ? 1 : 0);
  const pools = await all(clients, 'txPool', (c) => ({ inflight: txInflight(c) }));
  r.seed = await seedBilling(
    server,
    db,
    pools.flatMap((x) => x.result),
    log,
  );
  await sleep(1000);
  log(`transactions flat out for ${WINDOW_MS / 1000} s (${fmt(TX_INFLIGHT)} chargers)…`);
  r.tx = await measured(server, db, async () => ({
    replies: await all(clients, 'transactions', (c) => ({
      windowMs: WINDOW_MS,
      inflight: txInflight(c),
      meters: METERS_PER_TX,
      tags: pools[c].result.map((serial) => [serial, tagOf(serial)]),
    })),
  }));
  await server.kill(opt.profile ? 'SIGTERM' : 'SIGKILL');
  r.tx.pairsPerS = r.tx.replies.reduce((a, x) => a + x.result.pairsInWindow, 0) / (WINDOW_MS / 1000);
  r.tx.pairs = r.tx.replies.reduce((a, x) => a + x.result.pairs, 0);
  const acks = r.tx.replies.flatMap((x) => x.result.acks);
  delete r.tx.replies;
  await all(clients, 'stop');
  log(`${fmt(r.tx.pairsPerS, 1)} transactions/s; server killed, checking ${fmt(acks.length)} answered transactions…`);
  const stored = await storedTransactions(db);
  r.tx.check = compareTransactions(acks, stored);
  r.tx.billing = billingOf(stored);
  log(
    `billing: ${fmt(r.tx.billing.billed)} of ${fmt(r.tx.billing.stopped)} stopped billed, ${fmt(r.tx.billing.notBilledCount)} not billed, ${fmt(r.tx.billing.pending)} not settled yet`,
  );

  // 8. Every core (CSMS_WORKERS, PostgreSQL only): the flat-out window again with two server
  //    processes sharing the port, all K chargers reconnected to them, against step 5's one.
  if (db.kind === 'postgres') {
    log(`two workers (CSMS_WORKERS=2): reconnecting ${fmt(K)} chargers…`);
    server = await startServer(db, 'workers', { CSMS_WORKERS: '2' });
    await all(clients, 'init', (c) => ({ url: server.wsUrl, serials: slices[c], secret, ocpp: OCPP }));
    await all(clients, 'connect', (c) => ({ from: 0, to: slices[c].length, concurrency: CONCURRENCY, timeoutMs: 600_000 }));
    await sleep(5000);
    const two = await all(clients, 'flat', (c) => ({
      windowMs: WINDOW_MS,
      inflight: Math.floor(INFLIGHT / P) + (c < INFLIGHT % P ? 1 : 0),
    }));
    r.workers = { perS: two.reduce((a, x) => a + x.result.replies, 0) / (WINDOW_MS / 1000), errors: errorText(mergePhases(two)) };
    log(`two workers flat out: ${fmt(r.workers.perS)} calls/s (one: ${fmt(r.flat.perS)})`);
    await all(clients, 'stop');
    await server.kill('SIGTERM');
  }
  for (const c of clients) await c.stop();

  // Done with this database: the server, the clients, the directory, the database.
  while (cleanups.length > cleanMark)
    await Promise.resolve()
      .then(cleanups.pop())
      .catch(() => {});
  return { ...r, info };
}

/**
 * Lost: a Start answered with an id that is not stored, or a Stop answered for a transaction stored
 * as still running. Duplicated: one id answered to two different Starts, or stored rows that no
 * answered Start accounts for (a Start stored twice). A Start that was sent but never answered
 * (timeout, server gone) may legitimately be stored: counted apart as unanswered.
 */
function compareTransactions(acks, rows) {
  // OCPP 2.0.1: the charger names its transactions, and the id a simulated charger answers is its own
  // number: Starts are matched to rows by charger and start time instead.
  const keyOfRow = (row) => `${row.serial}|${new Date(row.started).toISOString()}`;
  const idOfRow = (row) => (OCPP === '2.0.1' ? keyOfRow(row) : Number(row.id));
  const stored = new Map(rows.map((row) => [idOfRow(row), row]));
  const answered = new Map();
  let lost = 0;
  let lostStops = 0;
  let duplicated = 0;
  for (const [answeredId, serial, startedAt, stopAcked] of acks) {
    const key = `${serial}|${startedAt}`;
    const id = OCPP === '2.0.1' ? key : answeredId;
    const prev = answered.get(id);
    if (prev && prev !== key) duplicated += 1;
    answered.set(id, key);
    const row = stored.get(OCPP === '2.0.1' ? id : Number(id));
    if (!row || row.serial !== serial) lost += 1;
    else if (stopAcked && !row.stopped) lostStops += 1;
  }
  const unanswered = rows.filter((row) => !answered.has(idOfRow(row)));
  // Rows no answered Start names: a second row for an answered (serial, start) is a duplicate.
  const answeredKeys = new Set([...answered.values()]);
  for (const row of unanswered) {
    const key = `${row.serial}|${new Date(row.started).toISOString()}`;
    if (answeredKeys.has(key)) duplicated += 1;
  }
  return {
    answered: acks.length,
    stored: rows.length,
    lost: lost + lostStops,
    lostStarts: lost,
    lostStops,
    duplicated,
    unanswered: unanswered.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The table

function table(r, m) {
  const rows = [];
  const verdict = (ok, because) => (ok ? 'met' : `not met (${because})`);
  const heldOk = r.held.booted >= Math.min(K, GOAL.held) * 0.995;
  const heldWhy = [
    `${fmt(K - r.held.booted)} of ${fmt(K)} not booted`,
    r.held.connectFailures ? `${fmt(r.held.connectFailures)} connect failures` : '',
    r.held.restErrors,
    Number.isFinite(r.serverFdLimit) && r.serverFdLimit < K + 100 ? `server fd limit ${fmt(r.serverFdLimit)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  rows.push([
    'chargers held (connected + booted at once)',
    `≈ ${fmt(19_500)} (fd limit ${fmt(m.fdLimit)})`,
    `${fmt(r.held.booted)} of ${fmt(K)} requested; server holds ${fmt(r.held.serverConnections)} sockets`,
    K < 19_000 ? `${verdict(heldOk, heldWhy)}, at K = ${fmt(K)} only` : verdict(heldOk, heldWhy),
  ]);

  const perKb = (r.loaded.rss - r.idle.rss) / 1024 / Math.max(1, r.held.booted);
  const heapKb = (r.loaded.heap - r.idle.heap) / 1024 / Math.max(1, r.held.booted);
  // What RSS holds besides live objects: V8 pages committed but free after the collection, external (Buffers,
  // C++ objects bound to JS), and the rest (malloc'd memory in use or freed and kept, libuv, TLS, PGlite).
  const freeKb = (r.loaded.committed - r.loaded.heap - (r.idle.committed - r.idle.heap)) / 1024 / Math.max(1, r.held.booted);
  // Of those free pages, the young generation's: its size follows the allocation rate (it grows to its
  // maximum under load), the same whether 1,000 or 19,500 chargers are held; the rest is old space.
  const youngMb = (r.loaded.young - r.idle.young) / 1024 / 1024;
  const youngKb = (youngMb * 1024) / Math.max(1, r.held.booted);
  const externalKb = (r.loaded.external - r.idle.external) / 1024 / Math.max(1, r.held.booted);
  const restKb = perKb - heapKb - freeKb - externalKb;
  const gcNote = r.loaded.collected && r.idle.collected ? 'after a full collection' : 'a full collection was not confirmed';
  rows.push([
    `memory per charger, (RSS with K − RSS idle) / K, ${gcNote}`,
    `≤ ${GOAL.memoryPerChargerKb} KB`,
    `${fmt(perKb, 1)} KB (RSS ${mb(r.idle.rss)} → ${mb(r.loaded.rss)} MB; V8 heap ${fmt(heapKb, 1)} KB per charger; ${compactNote(r.held.compactions)})`,
    verdict(
      perKb <= GOAL.memoryPerChargerKb,
      `per charger: V8 heap in use ${fmt(heapKb, 1)} KB, V8 pages committed but free ${fmt(freeKb, 1)} KB (of which the young generation's growth, ${fmt(youngMb, 1)} MB in all, ${fmt(youngKb, 1)} KB), external ${fmt(externalKb, 1)} KB, the rest ${fmt(restKb, 1)} KB (malloc in use or kept after free, libuv and TCP handles${r.kind === 'pglite' ? ", PGlite's WASM memory" : ''})`,
    ),
  ]);

  const s = r.storm;
  const stormOk = s.done === N && s.seconds <= GOAL.stormS && N >= GOAL.stormN;
  const bootP99 = s.merged?.actions.get('BootNotification')?.percentile(99);
  const statusP99 = s.merged?.actions.get('StatusNotification')?.percentile(99);
  rows.push([
    'reconnect storm: connect, boot, statuses persisted',
    `${fmt(GOAL.stormN)} in ≤ ${GOAL.stormS} s`,
    `${fmt(s.done)} of ${fmt(N)} in ${fmt(s.seconds, 2)} s (${fmt(s.done / s.seconds)}/s; Boot p99 ${fmt(bootP99)} ms, Status p99 ${fmt(statusP99)} ms)`,
    N < GOAL.stormN
      ? s.seconds <= GOAL.stormS && s.done === N
        ? `within 10 s at N = ${fmt(N)} only (${perUnit(s, s.done, 'charger')}${Number.isFinite(s.commitsPerS) ? `; PostgreSQL ${fmt((s.commitsPerS * s.wallMs) / 1000 / s.done, 1)} commits per charger` : ''})`
        : `over 10 s at N = ${fmt(N)} already (${why(s, { n: s.done, name: 'charger' })})`
      : verdict(
          stormOk,
          `${s.done < N ? `${fmt(N - s.done)} did not finish (${fmt(s.failed)} with a status refused or timed out); ` : ''}${why(s, { n: s.done, name: 'charger' })}`,
        ),
  ]);

  const f = r.flat;
  rows.push([
    'persisted calls per second (MeterValues + StatusNotification, flat out)',
    `≥ ${fmt(GOAL.callsPerS)}/s`,
    `${fmt(f.perS)}/s over ${WINDOW_MS / 1000} s, ${fmt(f.inflight)} in flight (p50 ${fmt(f.merged.actions.get('MeterValues')?.percentile(50), 1)} ms)`,
    f.perS >= GOAL.callsPerS ? `met (${perUnit(f, f.total, 'call')})` : verdict(false, why(f, { n: f.total, name: 'call' })),
  ]);
  // Issue 14 item 1: the main thread's CPU per persisted call on PGlite (its database on a thread of
  // its own); PostgreSQL's goal counts every thread of the server (below).
  if (r.kind === 'pglite') {
    const mainUs = ((f.serverCpuPct / 100) * f.wallMs * 1000) / f.total;
    rows.push([
      'server main-thread CPU per persisted call (flat out)',
      `≤ ${GOAL.pgliteMainCallUs} µs`,
      `${fmt(mainUs)} µs${Number.isFinite(f.threadsCpuPct) ? ` (PGlite thread ${fmt(((f.threadsCpuPct / 100) * f.wallMs * 1000) / f.total)} µs)` : ''}`,
      verdict(mainUs <= GOAL.pgliteMainCallUs, `${fmt(mainUs)} µs > ${GOAL.pgliteMainCallUs} µs`),
    ]);
  }

  const d = r.drain;
  rows.push([
    "the OCPP log's rows left after the flat-out window (written before the next test)",
    'measured (no goal)',
    `${fmt(d.rows)} rows, written in ${fmt(d.ms / 1000, 1)} s${d.left ? `; ${fmt(d.left)} still not after ${LOG_DRAIN_MAX_MS / 1000} s` : ''}`,
    d.rows === 0 ? 'none left' : `the log's inserts share the database with the calls; meanwhile the calls' answers wait behind them`,
  ]);

  if (r.workers) {
    rows.push([
      'persisted calls per second with CSMS_WORKERS=2 against 1 (flat out)',
      'ratio (no goal)',
      `${fmt(r.workers.perS)}/s with 2 workers, ${fmt(r.flat.perS)}/s with 1: ratio ${fmt(r.workers.perS / r.flat.perS, 2)}`,
      r.workers.errors || 'measured (two processes share the machine with PostgreSQL and the clients)',
    ]);
  }

  const q = r.rate;
  const achieved = q.answered / (WINDOW_MS / 1000);
  for (const action of ['MeterValues', 'StatusNotification']) {
    const hh = q.merged.actions.get(action);
    const p99 = hh?.percentile(99) ?? NaN;
    rows.push([
      `latency at ${fmt(R)} calls/s: ${action}`,
      `p99 < ${GOAL.p99Ms} ms at ${fmt(GOAL.rate)}/s`,
      `p50 ${fmt(hh?.percentile(50), 1)} ms, p99 ${fmt(p99, 1)} ms, max ${fmt(hh?.max(), 0)} ms (${fmt(hh?.count)} calls, ${fmt(achieved)}/s achieved${q.skipped ? `; ${fmt(q.skipped)} not sent: every charger had a call in flight` : ''}${vacuumText(q)})`,
      R < GOAL.rate
        ? `${p99 < GOAL.p99Ms ? 'under 20 ms' : 'over 20 ms'} at ${fmt(R)}/s only`
        : verdict(p99 < GOAL.p99Ms && achieved >= 0.95 * R, achieved < 0.95 * R ? `rate not reached; ${why(q)}` : why(q)),
    ]);
  }
  rows.push([
    `server event-loop delay p99 during the ${fmt(R)}/s test`,
    `< ${GOAL.loopP99Ms} ms`,
    `p50 ${fmt(q.serverLoop.p50Ms, 1)} ms, p99 ${fmt(q.serverLoop.p99Ms, 1)} ms, max ${fmt(q.serverLoop.maxMs)} ms`,
    verdict(q.serverLoop.p99Ms < GOAL.loopP99Ms, why(q)),
  ]);

  // Issue 14 item 2: stalls, window by window (each health read closes one).
  const st = r.stall;
  const win = st.samples;
  const worstP99 = Math.max(...win.map((x) => x.loop.p99Ms));
  const medianP99 = median(win.map((x) => x.loop.p99Ms));
  const loopMax = Math.max(...win.map((x) => x.loop.maxMs));
  const p999 = Math.max(...win.map((x) => x.loop.p999Ms));
  const gcMax = Math.max(...win.map((x) => x.gc.maxMs));
  const gcTotal = win.reduce((a, x) => a + x.gc.totalMs, 0);
  const gcCount = win.reduce((a, x) => a + x.gc.count, 0);
  const gcMajor = win.reduce((a, x) => a + x.gc.majorCount, 0);
  const meter = st.merged.actions.get('MeterValues');
  const meterP99 = meter?.percentile(99) ?? NaN;
  const stallSize = `${fmt(r.held.booted)} chargers, ${fmt(STALL_RATE)} calls/s, ${fmt(STALL_MS / 1000)} s`;
  const stallGoalSize = r.held.booted >= GOAL.stallChargers && STALL_RATE >= GOAL.stallRate && STALL_MS / 1000 >= GOAL.stallS;
  const atSize = (ok, because) =>
    stallGoalSize ? verdict(ok, because) : `${ok ? 'within the goal' : `over the goal (${because})`} at ${stallSize} only`;
  rows.push([
    `server event-loop delay under ${stallSize} (${win.length} windows)`,
    `p99 ≤ ${GOAL.stallLoopP99Ms} ms, max ≤ ${GOAL.stallLoopMaxMs} ms (${fmt(GOAL.stallChargers)} chargers, ${fmt(GOAL.stallRate)}/s, ${GOAL.stallS} s)`,
    `p99 ${fmt(medianP99, 1)} ms (median window), ${fmt(worstP99, 1)} ms (worst window); p99.9 ${fmt(p999, 1)} ms; max ${fmt(loopMax)} ms`,
    atSize(worstP99 <= GOAL.stallLoopP99Ms && loopMax <= GOAL.stallLoopMaxMs, why(st)),
  ]);
  rows.push([
    `garbage-collection pauses during the same test`,
    'reported (no goal of their own)',
    `${fmt(gcCount)} pauses (${fmt(gcMajor)} major), ${fmt(gcTotal)} ms in all (${fmt((100 * gcTotal) / st.wallMs, 2)} % of the time), longest ${fmt(gcMax, 1)} ms`,
    gcMax > GOAL.stallLoopMaxMs ? `a pause over ${GOAL.stallLoopMaxMs} ms` : 'none over the stall limit',
  ]);
  rows.push([
    `MeterValues round trip under ${stallSize}`,
    `p99 ≤ ${GOAL.stallMeterP99Ms} ms`,
    `p50 ${fmt(meter?.percentile(50), 1)} ms, p99 ${fmt(meterP99, 1)} ms, max ${fmt(meter?.max(), 0)} ms (${fmt(st.answered)} of ${fmt(st.sent)} answered); ` +
      atRate(st),
    atSize(meterP99 <= GOAL.stallMeterP99Ms, why(st)),
  ]);

  // Issue 14 items 1 and 3: CPU per unit against the goals of each database.
  const cpuUs = (w, n) => ({
    main: ((w.serverCpuPct / 100) * w.wallMs * 1000) / n,
    other: Number.isFinite(w.threadsCpuPct) ? ((w.threadsCpuPct / 100) * w.wallMs * 1000) / n : 0,
  });
  const us = (x) => (x >= 1000 ? `${fmt(x / 1000, 2)} ms` : `${fmt(x)} µs`);
  const stormCpu = cpuUs(r.storm, Math.max(1, r.storm.done));
  const flatCpu = cpuUs(f, f.total);
  const txCpu = cpuUs(r.tx, Math.max(1, r.tx.pairs));
  if (r.kind === 'pglite') {
    // Quiet-machine projections: one core for the main thread, one for PGlite's.
    const callsCap = 1e6 / Math.max(flatCpu.main, flatCpu.other);
    const chargersCap = 1e6 / Math.max(stormCpu.main, stormCpu.other);
    rows.push([
      'projected persisted calls/s on a quiet machine (1 s / the busier thread per call)',
      `≥ ${fmt(GOAL.pgliteCallsPerS)}/s`,
      `≈ ${fmt(callsCap)}/s (main ${us(flatCpu.main)}, PGlite ${us(flatCpu.other)} per call)`,
      verdict(callsCap >= GOAL.pgliteCallsPerS, `the ${flatCpu.other > flatCpu.main ? 'PGlite' : 'main'} thread's CPU per call`),
    ]);
    rows.push([
      'projected reconnecting chargers/s on a quiet machine',
      `≥ ${fmt(GOAL.pgliteChargersPerS)}/s`,
      `≈ ${fmt(chargersCap)}/s (main ${us(stormCpu.main)}, PGlite ${us(stormCpu.other)} per charger)`,
      verdict(chargersCap >= GOAL.pgliteChargersPerS, `the ${stormCpu.other > stormCpu.main ? 'PGlite' : 'main'} thread's CPU per charger`),
    ]);
  } else {
    const server = (x) => x.main + x.other;
    const commitsPerTx = Number.isFinite(r.tx.commitsPerS) ? (r.tx.commitsPerS * (r.tx.wallMs / 1000)) / Math.max(1, r.tx.pairs) : NaN;
    rows.push([
      'server CPU per persisted call (all its threads)',
      `≤ ${GOAL.pgCallUs} µs`,
      `${us(server(flatCpu))} (main ${us(flatCpu.main)}, other threads ${us(flatCpu.other)})`,
      verdict(server(flatCpu) <= GOAL.pgCallUs, `${us(server(flatCpu))} per call`),
    ]);
    rows.push([
      'server CPU per reconnecting charger (upgrade, key, Boot, 3 statuses, online flag, log rows)',
      `≤ ${us(GOAL.pgChargerUs)}`,
      `${us(server(stormCpu))} (main ${us(stormCpu.main)}, other threads ${us(stormCpu.other)})`,
      verdict(
        server(stormCpu) <= GOAL.pgChargerUs,
        `${us(server(stormCpu))} per charger, of which the transport floor measured in this run ${us(r.floor.cpuUs)}`,
      ),
    ]);
    rows.push([
      `server CPU and commits per transaction (Start, ${METERS_PER_TX} MeterValues, Stop, billed)`,
      `≤ ${us(GOAL.pgTxUs)}, ≤ ${GOAL.pgTxCommits} commits`,
      `${us(server(txCpu))} (main ${us(txCpu.main)}, other threads ${us(txCpu.other)}); ${fmt(commitsPerTx, 2)} commits`,
      verdict(
        server(txCpu) <= GOAL.pgTxUs && commitsPerTx <= GOAL.pgTxCommits,
        `${us(server(txCpu))}, ${fmt(commitsPerTx, 2)} commits per transaction (commits are the database's, group commit shared between transactions)`,
      ),
    ]);
  }

  rows.push([
    'transport floor per reconnecting charger: a bare WebSocket server, no database (bench/ocpp/floor-server.mjs)',
    'measured (no goal)',
    `${us(r.floor.cpuUs)} of its CPU per charger (${fmt(r.floor.done)} chargers in ${fmt(r.floor.wallMs / 1000, 2)} s)`,
    'the HTTP upgrade, the handshake, four frames each way and loopback TCP by themselves on this machine',
  ]);

  const t = r.tx;
  const startH = t.merged.actions.get('StartTransaction');
  const stopH = t.merged.actions.get('StopTransaction');
  rows.push([
    `transactions per second (Start + ${METERS_PER_TX} MeterValues + Stop, flat out)`,
    'measured (no goal)',
    `${fmt(t.pairsPerS, 1)}/s with ${fmt(TX_INFLIGHT)} chargers (Start p99 ${fmt(startH?.percentile(99))} ms, Stop p99 ${fmt(stopH?.percentile(99))} ms)`,
    why(t, { n: t.pairs, name: 'transaction' }),
  ]);
  const b = t.billing;
  const notBilledWhy = Object.entries(b.notBilled)
    .map(([k, v]) => `${fmt(v)} ${k}`)
    .join(', ');
  rows.push([
    `transactions billed (a price at ${fmt(r.seed.stations)} station(s), a charge user's card for each of ${fmt(r.seed.cards)} chargers)`,
    'every stopped one',
    `${fmt(b.billed)} of ${fmt(b.stopped)} stopped billed (${fmt(b.cents / 100, 2)} in all); ${fmt(b.notBilledCount)} not billed${notBilledWhy ? ` (${notBilledWhy})` : ''}; ${fmt(b.pending)} not settled when the server was killed (settled at its next start)${b.refused ? `; ${fmt(b.refused)} starts refused` : ''}`,
    verdict(
      b.notBilledCount === 0 && b.billed > 0,
      `${fmt(b.notBilledCount)} stopped transactions not billed${notBilledWhy ? `: ${notBilledWhy}` : ''}`,
    ),
  ]);
  const c = t.check;
  rows.push([
    'lost or duplicated transactions (server SIGKILLed after the last answer)',
    '0',
    `${fmt(c.lost)} lost, ${fmt(c.duplicated)} duplicated of ${fmt(c.answered)} answered (${fmt(c.stored)} stored, ${fmt(c.unanswered)} sent but unanswered)`,
    verdict(
      c.lost === 0 && c.duplicated === 0,
      `${fmt(c.lostStarts)} answered Starts missing, ${fmt(c.lostStops)} answered Stops not stored, ${fmt(c.duplicated)} duplicates`,
    ),
  ]);

  const head = [
    `### OCPP load benchmark — ${r.db}, OCPP ${OCPP}`,
    '',
    `- date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; commit ${m.commit}`,
    `- machine: ${m.cpu}, ${m.ram}, ${m.os}, Node ${m.node}; load average at start ${r.loadavg.map((x) => fmt(x, 1)).join(' / ')} (shared machine: other work ran too, numbers are noisy)`,
    `- K = ${fmt(K)} chargers reached ${fmt(r.held.booted)} (2 connectors each, ${P} client processes, ${fmt(m.fdLimit)} fds per process); registration of all by auto-registration took ${fmt(r.registerS, 1)} s (${fmt(r.registered / r.registerS)}/s${r.registerErrors ? `; ${r.registerErrors}` : ''})`,
    `- windows of ${WINDOW_MS / 1000} s; CPU in % of one core (${fmt(r.flat.machinePct)} % = the whole machine)`,
    '',
    '| target | goal | measured | result |',
    '|---|---|---|---|',
  ];
  return [...head, ...rows.map((cells) => `| ${cells.join(' | ')} |`)].join('\n');
}

// ---------------------------------------------------------------------------------------------

if (!opt['no-build']) ensureBuilt();
const m = machine();
if (m.fdLimit < K / P + 100 || m.fdLimit < K + 100) {
  progress('setup', `warning: the fd limit (${m.fdLimit}) is below what ${fmt(K)} chargers need in one server process`);
}
progress(
  'setup',
  `${m.cpu}, ${m.ram}, Node ${m.node}, commit ${m.commit}; load average ${os
    .loadavg()
    .map((x) => fmt(x, 1))
    .join(' / ')}`,
);
const tables = [];
let failed = false;
for (const kind of dbs) {
  try {
    const r = await runOne(kind);
    const t = table(r, m);
    tables.push(t);
    console.log(`\n${t}\n`);
  } catch (err) {
    failed = true;
    console.error(`\n${kind}: the benchmark failed: ${err?.stack ?? err}`);
    await cleanAll();
  }
}
await cleanAll();
if (tables.length > 1) console.log(`\n${tables.join('\n\n')}\n`);
process.exit(failed ? 1 : 0);
