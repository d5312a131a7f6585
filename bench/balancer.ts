/**
 * The load balancer's cost (issue 15 item 7): 1,000 local controllers of 10 points (20,000
 * connectors, each with a session) under 2,000 meter values a second. Goals: a re-plan p99 ≤ 5 ms,
 * and ≤ 10 % of one core for the balancer at that load.
 *
 * Builds the real balancer (the server's repository, planner and event subscription) on a database
 * seeded with set-based SQL, with a charger stub that accepts every profile at once (the sockets
 * are the OCPP benchmark's business). Then:
 *   1. plans every controller once, one after the other: the plan time of a cold controller
 *      (20 TxProfiles to send, the plan stored);
 *   2. publishes meter values at the given rate for the window, as the OCPP endpoint does: most
 *      report the power the session was given (steady), `--flip` of them a car taking half of it
 *      (its share must go to the others, so its controller is planned again); prints the plans made,
 *      their p50/p99 and the process's CPU (all threads, the database included on PGlite) as a
 *      share of one core.
 *
 *   npm run bench:balancer                                  # PGlite, 1,000 × 10, 2,000/s for 30 s
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:balancer   # a throw-away database on that server
 *   npm run bench:balancer -- --controllers 100 --window 10 # a quick try
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { migrate, openPglite, openPostgres, type Database } from '../packages/server/src/db/client.js';
import { seed } from '../packages/server/src/db/seed.js';
import { createEventHub } from '../packages/server/src/lib/events.js';
import { createBalancer } from '../packages/server/src/modules/localController/balancer.js';
import { createLocalControllerRepo } from '../packages/server/src/modules/localController/localController.repo.js';

const { values: opt } = parseArgs({
  options: {
    controllers: { type: 'string', default: '1000' },
    points: { type: 'string', default: '10' },
    rate: { type: 'string', default: '2000' },
    window: { type: 'string', default: '30' },
    flip: { type: 'string', default: '0.01' },
  },
});
const C = Number(opt.controllers);
const P = Number(opt.points);
const RATE = Number(opt.rate);
const WINDOW_S = Number(opt.window);
const FLIP = Number(opt.flip);
const CONNECTORS = 2;
const POINT_W = 22_000;
/** Each controller's limit: below what its points could draw together, so every plan has work to do. */
const LIMIT_W = Math.round(P * CONNECTORS * 5_000);
const GOAL = { p99Ms: 5, corePct: 10 };

const pct = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((q / 100) * s.length))]!;
};
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');

async function open(): Promise<{ database: Database; label: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { database: await openPglite(), label: 'PGlite (in memory)', drop: async () => {} };
  const name = `csms_bench_balancer_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = openPostgres(u.toString());
  return {
    database,
    label: `PostgreSQL (${u.host})`,
    drop: async () => {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function seedSites(database: Database) {
  const { db } = database;
  await db.execute(sql`insert into station (provider_id, name, country, address, longitude, latitude, time_zone)
    select 1, 'bench station ' || g, 'CN', 'x', 121.4, 31.2, 'Asia/Shanghai' from generate_series(1, ${C}) g`);
  await db.execute(sql`insert into charge_point (provider_id, station_id, serial_number, name, equipment_type, rated_power_w, online)
    select 1, s.id, 'BAL-' || s.id || '-' || g, 'p' || g, 'ac', ${POINT_W}, true
    from station s cross join generate_series(1, ${P}) g where s.name like 'bench station %'`);
  await db.execute(sql`insert into connector (charge_point_id, connector_no, standard, type)
    select cp.id, g, 'ac', 'Type2' from charge_point cp cross join generate_series(1, ${CONNECTORS}) g where cp.serial_number like 'BAL-%'`);
  await db.execute(sql`insert into charging_transaction (provider_id, station_id, charge_point_id, connector_no, id_tag, auth_status,
      meter_start_wh, started_at, last_meter_wh, start_type)
    select 1, cp.station_id, cp.id, c.connector_no, 'BENCH', 'Accepted', 0, now() - (random() * interval '1 hour'), 0, 'card'
    from charge_point cp join connector c on c.charge_point_id = cp.id where cp.serial_number like 'BAL-%'`);
  await db.execute(sql`insert into local_controller (provider_id, station_id, name, limit_w)
    select 1, s.id, 'bench controller ' || s.id, ${LIMIT_W} from station s where s.name like 'bench station %'`);
  await db.execute(sql`insert into local_controller_point (controller_id, charge_point_id)
    select lc.id, cp.id from local_controller lc join charge_point cp on cp.station_id = lc.station_id`);
}

async function main() {
  const { database, label, drop } = await open();
  const started = performance.now();
  try {
    await migrate(database);
    await seed(database.db, { adminPassword: 'bench-admin-1' });
    await seedSites(database);
    console.error(`seeded ${C} controllers × ${P} points × ${CONNECTORS} connectors in ${fmt((performance.now() - started) / 1000)} s`);

    const repo = createLocalControllerRepo({ db: database.db });
    const events = createEventHub();
    const planMs: number[] = [];
    const storeMs: number[] = [];
    let stored = 0;
    let sends = 0;
    const balancer = createBalancer({
      repo,
      events,
      holds: () => true,
      ask: async () => {
        sends += 1;
        return { status: 'accepted', chargerStatus: 'Accepted', messageKey: null, params: {}, payload: { status: 'Accepted' } };
      },
      onError: (err) => console.error(err),
      onPlanned: (_id, ms) => planMs.push(ms),
      onStored: (plans, ms) => {
        storeMs.push(ms);
        stored += plans;
      },
      tickMs: 3_600_000,
    });
    const ids = (await repo.memberships()).reduce((s, m) => s.add(m.controllerId), new Set<number>());
    // 1. Every controller planned once, cold.
    for (const id of ids) await balancer.planNow(id);
    const cold = [...planMs];
    const coldSends = sends;
    await balancer.start();

    // 2. Meter values at RATE/s: the allocation of each session, a few of them half of it.
    const sessions = (await database.db.execute(sql`select a.charge_point_id, a.connector_no, a.allocated_w, a.transaction_id, cp.station_id
        from controller_allocation a join charge_point cp on cp.id = a.charge_point_id`)) as unknown as {
      rows: { charge_point_id: number; connector_no: number; allocated_w: number; transaction_id: number; station_id: number }[];
    };
    planMs.length = 0;
    storeMs.length = 0;
    stored = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let published = 0;
    const rows = sessions.rows;
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const due = Math.floor(((performance.now() - t0) / 1000) * RATE) - published;
        for (let i = 0; i < due; i++) {
          const r = rows[Math.floor(Math.random() * rows.length)]!;
          const powerW = Math.random() < FLIP ? Math.round(r.allocated_w / 2) : r.allocated_w;
          events.publish({
            type: 'transaction.meter',
            providerId: 1,
            stationId: r.station_id,
            payload: {
              providerId: 1,
              stationId: r.station_id,
              chargePointId: r.charge_point_id,
              serialNumber: '',
              transactionId: r.transaction_id,
              connectorNo: r.connector_no,
              energyWh: 0,
              powerW,
              at: new Date().toISOString(),
            },
          });
        }
        published += due;
        if (performance.now() - t0 >= WINDOW_S * 1000) {
          clearInterval(tick);
          resolve();
        }
      }, 10);
    });
    await balancer.stop();
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const corePct = ((cpu.user + cpu.system) / 1000 / wallMs) * 100;

    const rowsOut = [
      [
        'cold plan of one controller (20 profiles sent, plan stored), p50 / p99',
        `${fmt(pct(cold, 50))} / ${fmt(pct(cold, 99))} ms`,
        '–',
        '',
      ],
      [
        `re-plan (sessions planned, changed shares sent) under ${RATE} meter values/s, p50 / p99 (${planMs.length} plans in ${WINDOW_S} s)`,
        `${fmt(pct(planMs, 50))} / ${fmt(pct(planMs, 99))} ms`,
        `≤ ${GOAL.p99Ms} ms`,
        pct(planMs, 99) <= GOAL.p99Ms ? 'met' : 'not met',
      ],
      [
        `storing the changed plans and their samples, after their profiles are sent, batched every 0.5 s: p50 / p99 per batch (${stored} plans in ${storeMs.length} batches)`,
        `${fmt(pct(storeMs, 50))} / ${fmt(pct(storeMs, 99))} ms`,
        '–',
        '',
      ],
      [
        `CPU of the process at that load (all threads${database.kind === 'pglite' ? ', PGlite included' : ''})`,
        `${fmt(corePct)} % of one core`,
        `≤ ${GOAL.corePct} %`,
        corePct <= GOAL.corePct ? 'met' : 'not met',
      ],
    ];
    console.log(`\n### Load balancer, ${label}\n`);
    console.log(
      `${C} controllers × ${P} points × ${CONNECTORS} connectors (${C * P * CONNECTORS} sessions), limit ${LIMIT_W} W each; ` +
        `${fmt(published / (wallMs / 1000), 0)} meter values/s published, ${fmt(FLIP * 100, 0)} % of them a car taking half its share; ` +
        `${coldSends} profiles sent cold, ${sends - coldSends} under load. ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average ${os
          .loadavg()
          .map((x) => fmt(x, 2))
          .join(' ')}\n`,
    );
    console.log('| measure | figure | goal | |\n|---|---|---|---|');
    for (const r of rowsOut) console.log(`| ${r.join(' | ')} |`);
  } finally {
    await drop();
    await database.close().catch(() => {});
  }
}

await main();
process.exit(0);
