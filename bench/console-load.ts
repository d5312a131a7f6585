/**
 * Console under load (issue 14 item 6): with 10,000 charge points and 1,000,000 charging records
 * on PostgreSQL, every list and the dashboard should answer with p95 ≤ 50 ms.
 *
 * Seeds a throw-away database on a PostgreSQL server with set-based SQL (providers, stations,
 * points and connectors, charge users, cards, cars, groups, prices, charging records, alarms, OCPP
 * log, ledger, system log, messages), builds the real app with buildApp, signs in as `admin` (a
 * super provider's user: no tenant condition) and as an operator of one common provider (its
 * subtree: the tenant condition on every query), and times the console's queries over loopback
 * HTTP: the first page with the default sort, a later page, filters and text searches. Prints
 * p50/p95/p99 per endpoint and query as a markdown table, with the load average at the start and
 * at the end (the machine may be shared).
 *
 *   npm run bench:console                                       # postgres://postgres@127.0.0.1:5432/test as the admin connection
 *   DATABASE_URL=postgres://user@host:5432/db npm run bench:console
 *   BENCH_POINTS=1000 BENCH_RECORDS=50000 npm run bench:console  # a quick try
 *   npm run bench:console -- --keep      # keep the seeded database (csms_bench_console_<points>_<records>) and reuse it next time
 *   npm run bench:console -- --keep --reseed                     # drop the kept database and seed again
 *   npm run bench:console -- --sql       # also print each query's slowest SQL statements (to EXPLAIN them)
 *   BENCH_N=50 BENCH_WARMUP=5 BENCH_ONLY=chargeRecord,ocppLog   # requests per query, warm-up, endpoints to run
 *
 * Run directly: `npx tsx --conditions=source bench/console-load.ts`. The database is created on
 * the server that DATABASE_URL names and dropped at the end, also on failure and on Ctrl-C
 * (unless --keep). A kept database is migrated on every run, so a new migration's indexes apply
 * to the data already seeded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allMenuPaths, ALL_PERMISSION } from '@csms/contract';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { migrate, openPostgres, type Database } from '../packages/server/src/db/client.js';
import { seed } from '../packages/server/src/db/seed.js';
import { hashPassword } from '../packages/server/src/lib/passwords.js';

const args = process.argv.slice(2);
const KEEP = args.includes('--keep') || process.env.BENCH_KEEP === '1';
const RESEED = args.includes('--reseed');
const SHOW_SQL = args.includes('--sql');
const POINTS = Number(process.env.BENCH_POINTS ?? 10_000);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const N = Number(process.env.BENCH_N ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PASSWORD = 'bench-admin-1';
const OPERATOR = 'bench-operator';
const TARGET_MS = 50;
/** A query whose warm-up already takes this long is timed fewer times, so that one slow query does not take the run's whole time. */
const SLOW_MS = 1_000;
const SLOW_N = 10;

if (!Number.isInteger(POINTS) || POINTS < 100 || !Number.isInteger(RECORDS) || RECORDS < 1_000) {
  console.error('BENCH_POINTS ≥ 100 and BENCH_RECORDS ≥ 1000, whole numbers');
  process.exit(2);
}

/** What is seeded, from the two sizes: the proportions of a network of that size. */
const sizes = (() => {
  const providers = 6; // common providers under the super provider; providers 1 and 2 have a child each
  const stations = Math.max(16, Math.round(POINTS / 33));
  const users = Math.max(500, Math.round(RECORDS / 20));
  return {
    providers,
    subProviders: 2,
    stations,
    points: POINTS,
    connectorsPerPoint: 2,
    running: Math.min(500, Math.floor(POINTS / 20)),
    groupsPerProvider: 10,
    users,
    cards: users + Math.floor(users / 5),
    cars: Math.max(200, Math.round(RECORDS / 50)),
    records: RECORDS,
    alarms: Math.round(RECORDS / 5),
    ocppLog: RECORDS,
    recharges: Math.round(RECORDS / 5),
    systemLog: Math.round(RECORDS / 5),
    systemUsersPerProvider: 20,
    messages: 2_000,
    clientErrors: 300,
    meterDays: 7,
  };
})();

// ---------------------------------------------------------------------------------------------
// Database

interface BenchDb {
  name: string;
  url: string;
  database: Database;
  seeded: boolean;
  drop(): Promise<void>;
}

async function openBenchDatabase(): Promise<BenchDb> {
  const name = KEEP ? `csms_bench_console_${POINTS}_${RECORDS}` : `csms_bench_console_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (exists && (!KEEP || RESEED)) await admin.query(`drop database ${name} with (force)`);
  if (!exists || !KEEP || RESEED) await admin.query(`create database ${name}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  let seeded = false;
  if (KEEP && exists && !RESEED) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const r = await c
      .query(`select points, records from bench_seeded`)
      .then((x) => x.rows[0] as { points: number; records: number } | undefined)
      .catch(() => undefined);
    await c.end();
    seeded = r?.points === POINTS && r?.records === RECORDS;
    if (!seeded) {
      console.log(`  the kept database ${name} was not seeded to the end: seeding it again`);
      await admin.query(`drop database ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
  }
  // CSMS_DB_NAMED_STATEMENTS=false times the console with every statement parsed and planned at each call.
  const database = openPostgres(url, { namedStatements: loadConfig().namedStatements });
  let dropped = false;
  return {
    name,
    url,
    database,
    seeded,
    async drop() {
      if (dropped) return;
      dropped = true;
      await database.close().catch(() => {});
      if (!KEEP) await admin.query(`drop database if exists ${name} with (force)`).catch((e) => console.warn(`drop ${name}: ${e}`));
      await admin.end().catch(() => {});
    },
  };
}

/** The seed: set-based SQL through one connection (temporary tables map row numbers to ids). */
async function seedVolume(url: string) {
  const s = sizes;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const step = async (label: string, text: string) => {
    const t0 = performance.now();
    const r = await c.query(text);
    // The rows the first statement wrote (the others map ids or update what it wrote).
    const rows = (Array.isArray(r) ? r[0]?.rowCount : r.rowCount) ?? 0;
    console.log(
      `  ${label.padEnd(34)} ${String(rows.toLocaleString('en')).padStart(11)} rows  ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  };
  try {
    await c.query(`set synchronous_commit = off; set work_mem = '64MB'; set maintenance_work_mem = '256MB'`);
    const adminId = (await c.query(`select id from system_user where username = 'admin'`)).rows[0].id as number;

    await step(
      'providers',
      `insert into provider (name, type, parent_id, contact, phone, email)
       select 'Bench provider ' || g, 'common', (select id from provider where type = 'super' order by id limit 1),
         'Contact ' || g, '+86 21 5555 ' || lpad(g::text, 4, '0'), 'ops' || g || '@bench.example'
       from generate_series(1, ${s.providers}) g;
       insert into provider (name, type, parent_id)
       select 'Bench provider ' || g || ' east', 'common', p.id from generate_series(1, ${s.subProviders}) g join provider p on p.name = 'Bench provider ' || g;
       create temp table bprov as select id, (row_number() over (order by id))::int as k from provider where name like 'Bench provider %';`,
    );
    const np = s.providers + s.subProviders;

    await step(
      'organizations, roles, system users',
      `insert into organization (provider_id, org_name) select p.id, 'Org ' || p.k || '-' || g from bprov p, generate_series(1, 2) g;
       insert into role (provider_id, role_name, role_key, role_paths, permissions)
       select p.id, 'Role ' || p.k || '-' || g, 'bench_role_' || p.k || '_' || g, '[]'::jsonb, '["record:charge:list"]'::jsonb from bprov p, generate_series(1, 2) g;
       insert into system_user (provider_id, role_id, username, name, phone, email, password_hash, station_ids)
       select p.id, r.id, 'op-' || p.k || '-' || g, 'Operator ' || p.k || '-' || g, '+86 139 ' || lpad((p.k * 1000 + g)::text, 8, '0'),
         'op' || p.k || '-' || g || '@bench.example', 'x', '[]'::jsonb
       from bprov p, generate_series(1, ${s.systemUsersPerProvider}) g
       join lateral (select id from role where provider_id = p.id order by id limit 1) r on true;`,
    );

    await step(
      'stations',
      `insert into station (provider_id, name, country, address, longitude, latitude, time_zone, status, service_phone, amenities)
       select p.id, 'Station ' || lpad(g::text, 4, '0') || ' ' || (array['Pudong', 'Xuhui', 'Minhang', 'Jingan', 'Hongkou', 'Baoshan'])[1 + g % 6],
         'CN', g || ' Bench road', 121 + (g % 100) / 100.0, 31 + (g % 50) / 100.0, 'Asia/Shanghai',
         case when g % 50 = 0 then 'maintenance' else 'operating' end, '+86 400 ' || lpad(g::text, 6, '0'), '["parking","wifi"]'::jsonb
       from generate_series(1, ${s.stations}) g join bprov p on p.k = 1 + (g - 1) % ${np}
       order by g;
       create temp table bst as select id, provider_id, (row_number() over (order by id))::int as k from station where name like 'Station %';`,
    );

    await step(
      'charge points',
      `insert into charge_point (provider_id, station_id, serial_number, name, equipment_type, rated_power_w, vendor, model, firmware_version,
         online, status, last_seen_at, last_boot_at, connected_at, ocpp_key_hash, created_at)
       select st.provider_id, st.id, 'BCP' || lpad(j::text, 6, '0'), 'Point ' || j, case when j % 4 = 0 then 'dc' else 'ac' end,
         case when j % 4 = 0 then 60000 else 7000 end, 'BenchVendor', 'BV-' || (j % 7), '1.' || (j % 5) || '.0',
         j % 10 <> 0, case when j % 10 = 0 then null else 'Available' end, now() - (j % 300) * interval '1 second',
         now() - interval '3 days', now() - interval '3 days', 'salt:' || md5(j::text), now() - interval '400 days' + j * interval '1 minute'
       from generate_series(1, ${s.points}) j join bst st on st.k = 1 + (j - 1) % ${s.stations}
       order by j;
       create temp table bpt as select id, provider_id, station_id, serial_number, online, (row_number() over (order by id))::int as k from charge_point where serial_number like 'BCP%';`,
    );

    await step(
      'connectors',
      `insert into connector (charge_point_id, connector_no, name, standard, type, status, error_code, status_at)
       select pt.id, n, 'Gun ' || n, case when pt.k % 4 = 0 then 'dc' else 'ac' end, case when pt.k % 4 = 0 then 'GBT_DC' else 'GBT_AC' end,
         case when pt.k % 200 = 7 then 'Faulted' when pt.k % 100 = 3 then 'Unavailable' else 'Available' end,
         case when pt.k % 200 = 7 then 'GroundFailure' else 'NoError' end, now() - (pt.k % 1000) * interval '1 minute'
       from bpt pt, generate_series(1, ${s.connectorsPerPoint}) n;`,
    );

    await step(
      'user groups',
      `insert into user_group (provider_id, name, description, monthly_limit_wh)
       select p.id, 'Group ' || g, 'Fleet ' || g, case when g % 2 = 0 then 500000 end from bprov p, generate_series(1, ${s.groupsPerProvider}) g;
       create temp table bgr as select id, provider_id, (row_number() over (partition by provider_id order by id))::int as k from user_group
         where provider_id in (select id from bprov);`,
    );

    await step(
      'charge users',
      `insert into charge_user (provider_id, account, phone, email, user_type, mobile_balance_cents, status, group_id, member_level, created_at)
       select p.id, 'user' || lpad(u::text, 7, '0'), '138' || lpad(u::text, 8, '0'), 'user' || u || '@mail.example',
         case when u % 20 < 14 then 'card' when u % 20 < 19 then 'phone' else 'platform' end,
         (u * 7919) % 50000, case when u % 100 = 0 then 0 else 1 end, gr.id, u % 4,
         now() - interval '730 days' + (u::double precision / ${s.users}) * interval '730 days'
       from generate_series(1, ${s.users}) u
       join bprov p on p.k = 1 + (u - 1) % ${np}
       left join bgr gr on u % 3 = 0 and gr.provider_id = p.id and gr.k = 1 + (u / ${np}) % ${s.groupsPerProvider}
       order by u;
       create temp table bus as select id, provider_id, (row_number() over (order by id))::int as k from charge_user where account like 'user%';`,
    );

    await step(
      'cards',
      `insert into card (provider_id, card_number, physical_id, charge_user_id, balance_cents, expire_at, status, created_at)
       select coalesce(us.provider_id, p.id), 'NO' || lpad(c::text, 9, '0'), 'B' || lpad(upper(to_hex(c * 2654435761 % 4294967296)), 8, '0') || lpad(c::text, 7, '0'),
         us.id, (c::bigint * 104729) % 200000,
         case when c % 33 = 0 then now() - interval '10 days' else now() + interval '400 days' end,
         case when c % 50 = 0 then 'lost' when c % 97 = 0 then 'expired' else 'valid' end,
         now() - interval '700 days' + (c::double precision / ${s.cards}) * interval '700 days'
       from generate_series(1, ${s.cards}) c
       left join bus us on us.k = c and c <= ${s.users}
       left join bprov p on p.k = 1 + (c - 1) % ${np}
       order by c;
       create temp table bcard as select id, provider_id, charge_user_id, physical_id,
         (row_number() over (partition by provider_id order by id))::int as k from card where card_number like 'NO%';
       create temp table bcn as select provider_id, count(*)::int as n from bcard group by provider_id;
       create index on bcard (provider_id, k);`,
    );

    await step(
      'cars',
      `insert into car (provider_id, plate, vin, alias, brand, model, charge_user_id, created_at)
       select us.provider_id, 'SHA' || lpad(i::text, 6, '0'), 'LBV' || lpad(i::text, 14, '0'), 'Car ' || i,
         (array['BYD', 'Tesla', 'NIO', 'XPeng', 'Geely'])[1 + i % 5], 'M' || (i % 9), us.id,
         now() - interval '700 days' + (i::double precision / ${s.cars}) * interval '700 days'
       from generate_series(1, ${s.cars}) i join bus us on us.k = 1 + ((i * 2) % ${s.users})
       order by i;`,
    );

    await step(
      'prices',
      `insert into price (provider_id, station_id, group_id, effective_from, sharp_elec, sharp_service, peak_elec, peak_service,
         flat_elec, flat_service, valley_elec, valley_service, reserve_fee_cents, slots, created_by)
       select st.provider_id, st.id, null, timestamptz '2024-01-01T00:00:00Z', 12000, 6000, 10000, 5000, 8000, 4000, 4000, 2000, 0,
         (select jsonb_agg(case when h < 16 then 'valley' when h < 20 then 'flat' when h < 36 then 'peak' when h < 40 then 'sharp' else 'flat' end order by h)
          from generate_series(0, 47) h), ${adminId}
       from bst st;
       insert into price (provider_id, station_id, group_id, effective_from, sharp_elec, sharp_service, peak_elec, peak_service,
         flat_elec, flat_service, valley_elec, valley_service, reserve_fee_cents, slots, created_by)
       select st.provider_id, st.id, gr.id, timestamptz '2024-06-01T00:00:00Z', 11000, 5000, 9000, 4000, 7000, 3000, 3500, 1500, 0,
         (select jsonb_agg('flat'::text order by h) from generate_series(0, 47) h), ${adminId}
       from bst st join bgr gr on gr.provider_id = st.provider_id and gr.k = 1 where st.k % 6 = 0;`,
    );

    // Finished sessions, oldest first (ids follow time), 365 days up to two hours ago; each point's
    // sessions are P × (365 d / R) apart (3.65 days at full size), so none overlaps another.
    const batch = 200_000;
    for (let lo = 1; lo <= s.records; lo += batch) {
      const hi = Math.min(s.records, lo + batch - 1);
      await step(
        `charging records ${lo.toLocaleString('en')}–${hi.toLocaleString('en')}`,
        `insert into charging_transaction (provider_id, station_id, charge_point_id, connector_no, id_tag, card_id, charge_user_id, start_type,
           auth_status, auth_reason, meter_start_wh, started_at, meter_stop_wh, stopped_at, stop_reason, stop_id_tag, energy_wh, valid, invalid_reason,
           elec_fee_cents, service_fee_cents, reserve_fee_cents, total_cents, billed_at, paid_from, billing_note, confirmed_by, confirmed_at, created_at)
         select pt.provider_id, pt.station_id, pt.id, 1 + g % 2,
           case when unauth then 'UNKNOWN' || lpad((g % 100000)::text, 6, '0') else c.physical_id end,
           case when unauth or remote then null else c.id end,
           case when unauth then null else c.charge_user_id end,
           case when remote then 'remote' else 'card' end,
           case when unauth then 'Invalid' else 'Accepted' end, case when unauth then 'unknown' else 'accepted' end,
           m0, st, m0 + e, st + dur, (array['EVDisconnected', 'Local', 'Remote', 'EVDisconnected', 'PowerLoss', 'Other', 'EVDisconnected', 'Local'])[1 + g % 8],
           case when g % 8 = 1 and not unauth then c.physical_id end,
           e, not invalid, case when invalid then 'meterJump' end,
           case when billed then e * 8 / 1000 end, case when billed then e * 4 / 1000 end, case when billed then 0 end,
           case when billed then e * 12 / 1000 end, case when billed then st + dur + interval '1 second' end,
           case when billed then case when remote then 'mobile' else 'card' end end,
           case when unauth then 'unauthorized' when not billed then 'noAccount' end,
           case when invalid and g % 2 = 0 then ${adminId} end, case when invalid and g % 2 = 0 then st + dur + interval '1 day' end,
           st
         from generate_series(${lo}, ${hi}) g
         cross join lateral (select
           now() - interval '2 hours' - interval '365 days' + (g::double precision / ${s.records}) * interval '365 days' as st,
           interval '10 minutes' + (g * 37 % 170) * interval '1 minute' as dur,
           (g % 100 = 42) as unauth, (g % 7 = 3) as remote, (g % 200 = 17) as invalid,
           1000 + (g * 7) % 30000 as e, ((g::bigint * 1009) % 9000000) as m0) x
         cross join lateral (select not x.unauth and (not x.invalid or g % 2 = 0) as billed) b
         join bpt pt on pt.k = 1 + ((g::bigint * 7919) % ${s.points})
         join bcn on bcn.provider_id = pt.provider_id
         join bcard c on c.provider_id = pt.provider_id and c.k = 1 + (abs(hashint4(g)::bigint) % bcn.n)
         order by g`,
      );
    }

    await step(
      'running sessions',
      `insert into charging_transaction (provider_id, station_id, charge_point_id, connector_no, id_tag, card_id, charge_user_id, start_type,
         auth_status, auth_reason, meter_start_wh, started_at, energy_wh, last_meter_wh, last_power_w, last_soc, last_sample_at, created_at)
       select pt.provider_id, pt.station_id, pt.id, 1, c.physical_id, c.id, c.charge_user_id, 'card', 'Accepted', 'accepted',
         100000, now() - (pt.k % 170 + 5) * interval '1 minute', (pt.k % 170 + 5) * 100, 100000 + (pt.k % 170 + 5) * 100, 7000, 40 + pt.k % 50,
         now() - interval '30 seconds', now() - (pt.k % 170 + 5) * interval '1 minute'
       from bpt pt
       join bcn on bcn.provider_id = pt.provider_id
       join bcard c on c.provider_id = pt.provider_id and c.k = 1 + (pt.k % bcn.n)
       where pt.online and pt.k % 20 = 1 and pt.k <= ${s.running * 20};
       update connector c set status = 'Charging', status_at = t.started_at from charging_transaction t
         where t.stopped_at is null and c.charge_point_id = t.charge_point_id and c.connector_no = t.connector_no;`,
    );

    await step(
      `meter values (last ${s.meterDays} days)`,
      `insert into meter_value (charge_point_id, connector_no, transaction_id, sampled_at, energy_wh, power_w, current_import_a, voltage_v, soc)
       select t.charge_point_id, t.connector_no, t.id, at, t.meter_start_wh + (extract(epoch from at - t.started_at) * 2)::bigint, 7000, 30.4, 230, 50
       from charging_transaction t
       cross join lateral generate_series(t.started_at, coalesce(t.stopped_at, now()), interval '5 minutes') at
       where t.started_at > now() - interval '${s.meterDays} days'
       order by at;`,
    );

    // Faults spread over the year; about one in 667 never cleared (a charger that went quiet), old ones included.
    await step(
      'alarm records',
      `insert into alarm (provider_id, station_id, charge_point_id, connector_no, level, status, error_code, info, vendor_error_code, occurred_at, cleared_at)
       select pt.provider_id, pt.station_id, pt.id, 1 + a % 2, case when a % 3 = 0 then 'serious' else 'common' end,
         case when a % 3 = 0 then 'Faulted' else 'Available' end,
         (array['GroundFailure', 'OverCurrentFailure', 'ConnectorLockFailure', 'EVCommunicationError', 'PowerMeterFailure', 'HighTemperature',
           'InternalError', 'OtherError', 'UnderVoltage', 'OverVoltage', 'ReaderFailure', 'WeakSignal'])[1 + a % 12],
         'info ' || (a % 50), 'V' || (a % 900),
         at, case when a % 667 = 0 then null else at + (1 + a % 600) * interval '1 minute' end
       from generate_series(1, ${s.alarms}) a
       cross join lateral (select now() - interval '365 days' + (a::double precision / ${s.alarms}) * interval '365 days' - interval '1 hour' as at) x
       join bpt pt on pt.k = 1 + ((a::bigint * 7907) % ${s.points})
       order by a;`,
    );

    // Exchanges in id order over the last 7 days, as the server logs them: a charger's call and our answer one row,
    // 1 in 100 a call from the CSMS (the call and the charger's answer two rows); a few refused connections.
    await step(
      'OCPP log',
      `insert into ocpp_log (provider_id, charge_point_id, serial_number, direction, message_type, action, message_id, payload, latency_ms, reason, created_at,
         response_type, response_payload, response_at)
       select case when refused then null else pt.provider_id end, case when refused then null else pt.id end,
         case when refused then 'UNKNOWN' || (i % 50) else pt.serial_number end,
         case when refused then 'refused' when (r = 0) = fromCsms then 'out' else 'in' end,
         case when refused then null when r = 0 then 2 when i % 500 = 0 then 4 else 3 end,
         case when refused then null when r = 0 then action end,
         case when refused then null else 'm' || i end,
         case when refused then null when r = 0 then '{"connectorId":1,"status":"Available","errorCode":"NoError"}'::jsonb
           else jsonb_build_object('status', 'Accepted', 'currentTime', at) end,
         case when (r = 1 or not fromCsms) and not refused then 15 + i % 40 end,
         case when (r = 1 or not fromCsms) and action = 'Authorize' then 'accepted' end,
         at + r * interval '20 milliseconds',
         case when not fromCsms and not refused then case when i % 500 = 0 then 4 else 3 end end,
         case when not fromCsms and not refused then case when i % 500 = 0 then '{"errorCode":"InternalError","errorDescription":"","errorDetails":{}}'::jsonb
           else jsonb_build_object('status', 'Accepted', 'currentTime', at) end end,
         case when not fromCsms and not refused then at + interval '20 milliseconds' end
       from generate_series(1, ${s.ocppLog}) i
       cross join (values (0), (1)) v(r)
       cross join lateral (select now() - interval '7 days' + (i::double precision / ${s.ocppLog}) * interval '7 days' as at,
         (i % 997 = 0) as refused, (i % 100 = 0) as fromCsms,
         case when i % 100 = 0 then (array['RemoteStartTransaction', 'ChangeConfiguration', 'GetConfiguration', 'Reset'])[1 + i / 100 % 4]
           else (array['Heartbeat', 'Heartbeat', 'Heartbeat', 'Heartbeat', 'MeterValues', 'MeterValues', 'MeterValues', 'StatusNotification',
             'StatusNotification', 'Authorize', 'StartTransaction', 'StopTransaction'])[1 + i % 12] end as action) x
       join bpt pt on pt.k = 1 + ((i::bigint * 7901) % ${s.points})
       where r = 0 or (fromCsms and not refused)
       order by i, r;`,
    );

    // The ledger as it is: a charge row per session paid from a card or mobile account, and
    // recharges and refunds between them, all in time order (ids follow time).
    await step(
      'ledger (charges, recharges, refunds)',
      `insert into ledger (provider_id, account_kind, card_id, charge_user_id, trade_type, amount_cents, balance_before_cents, balance_after_cents,
         operator_user_id, source, third_party_txn_id, transaction_ref, created_at)
       select provider_id, account_kind, card_id, charge_user_id, trade_type, amount, before, before + amount, operator, source, txn, ref, at from (
         select t.provider_id, t.paid_from as account_kind, case when t.paid_from = 'card' then t.card_id end as card_id,
           case when t.paid_from = 'mobile' then t.charge_user_id end as charge_user_id, 'charge' as trade_type, -t.total_cents as amount,
           100000 as before, null::int as operator, 'ocpp' as source, null as txn, t.id::text as ref, t.billed_at as at
         from charging_transaction t where t.billed_at is not null and (t.paid_from = 'card' or t.charge_user_id is not null)
         union all
         select c.provider_id, case when q % 20 < 12 or c.charge_user_id is null then 'card' else 'mobile' end,
           case when q % 20 < 12 or c.charge_user_id is null then c.id end, case when q % 20 < 12 or c.charge_user_id is null then null else c.charge_user_id end,
           case when q % 20 = 19 then 'refund' else 'recharge' end, case when q % 20 = 19 then -1000 else 5000 + (q % 10) * 1000 end,
           20000, ${adminId}, case when q % 3 = 0 then 'wechat' else 'web' end, case when q % 3 = 0 then 'WX' || lpad(q::text, 12, '0') end, null,
           now() - interval '365 days' + (q::double precision / ${s.recharges}) * interval '365 days'
         from generate_series(1, ${s.recharges}) q
         join bprov p on p.k = 1 + q % ${np}
         join bcn on bcn.provider_id = p.id
         join bcard c on c.provider_id = p.id and c.k = 1 + (abs(hashint4(q)::bigint) % bcn.n)
       ) x order by at;`,
    );

    await step(
      'system log',
      `insert into system_log (provider_id, user_id, operator, operation, operand, method, path, ip, request, result, msg, mode, duration_ms, created_at)
       select p.id, ${adminId}, case when g % 4 = 0 then 'admin' else 'op-' || p.k || '-' || (1 + g % ${s.systemUsersPerProvider}) end,
         (array['add', 'edit', 'remove', 'export', 'login', 'logout', 'status', 'reset'])[1 + g % 8],
         (array['station', 'point', 'card', 'chargeUser', 'price', 'user'])[1 + g % 6] || ':' || (g % 5000),
         'POST', '/prod-api/web/' || (array['station', 'point', 'card', 'chargeUser', 'price', 'user'])[1 + g % 6] || '/edit',
         '10.0.' || (g % 200) || '.' || (g % 250), '{"id":1}'::jsonb, case when g % 20 = 0 then 400 else 200 end, null, 'web', g % 300,
         now() - interval '365 days' + (g::double precision / ${s.systemLog}) * interval '365 days'
       from generate_series(1, ${s.systemLog}) g join bprov p on p.k = 1 + g % ${np}
       order by g;`,
    );

    await step(
      'messages and recipients',
      `insert into message (provider_id, title, content, is_send, create_user_id, created_at)
       select (select id from provider where type = 'super' order by id limit 1), 'Notice ' || g, '<p>Maintenance window ' || g || '</p>', g % 5 = 0, ${adminId},
         now() - interval '365 days' + (g::double precision / ${s.messages}) * interval '365 days'
       from generate_series(1, ${s.messages}) g;
       insert into message_recipient (message_id, user_id, read, read_at, deleted)
       select m.id, u.id, case when m.id % 3 = 0 then 0 else 1 end, case when m.id % 3 <> 0 then m.created_at + interval '1 hour' end, 0
       from message m
       join lateral (select id from system_user where username = 'admin' or (username like 'op-%' and id % 40 = m.id % 40)) u on true;`,
    );

    await step(
      'console error log',
      `insert into client_error (fingerprint, message, stack, source, route, build_id, user_id, username, provider_id, user_agent, count, first_seen, last_seen)
       select md5(g::text), 'TypeError: x is undefined (' || g || ')', 'at f (main.js:1:' || g || ')', 'error', '/record/charge', 'build-' || (g % 5),
         ${adminId}, 'admin', null, 'Mozilla/5.0', 1 + g % 9, now() - g * interval '1 hour', now() - g * interval '10 minutes'
       from generate_series(1, ${s.clientErrors}) g;`,
    );

    // Connection history: every point connected twice a day for a year (12-hour spans less 5 minutes), with the
    // running totals the insert trigger would write (set here directly: 7,300,000 lookups otherwise).
    await c.query('alter table point_online_span disable trigger point_online_span_cumulate');
    await c.query('alter table point_online_span disable trigger point_online_latest_apply');
    await step(
      'online history (2 spans a day)',
      `insert into point_online_span (charge_point_id, started_at, ended_at, cum_before)
       select cp.id, d + h * interval '12 hours' + interval '5 minutes', d + (h + 1) * interval '12 hours',
              ((extract(epoch from d - (date_trunc('day', now()) - interval '365 days')) / 86400)::int * 2 + h) * 42900
       from charge_point cp
       cross join generate_series(date_trunc('day', now()) - interval '365 days', date_trunc('day', now()) - interval '1 day', interval '1 day') d
       cross join generate_series(0, 1) h
       order by d, h;`,
    );
    await c.query('alter table point_online_span enable trigger point_online_span_cumulate');
    await c.query('alter table point_online_span enable trigger point_online_latest_apply');
    // Each point's latest span, as the trigger would have kept it (the points' online spans of their own insert
    // already have a row there).
    await step(
      'latest online span per point',
      `insert into point_online_latest (charge_point_id, started_at, ended_at, cum_before)
       select distinct on (charge_point_id) charge_point_id, started_at, ended_at, cum_before
       from point_online_span order by charge_point_id, started_at desc, id desc
       on conflict (charge_point_id) do update
       set started_at = excluded.started_at, ended_at = excluded.ended_at, cum_before = excluded.cum_before;`,
    );

    // The operator of one common provider (and its child): every query of theirs carries the tenant condition.
    const hash = await hashPassword(PASSWORD);
    await c.query(
      `insert into role (provider_id, role_name, role_key, role_paths, permissions)
       select id, 'Bench operator', 'bench_operator', $1::jsonb, $2::jsonb from provider where name = 'Bench provider 1';
       `.trim(),
      [JSON.stringify(allMenuPaths), JSON.stringify([ALL_PERMISSION])],
    );
    await c.query(
      `insert into system_user (provider_id, role_id, username, name, password_hash)
       select r.provider_id, r.id, $1, 'Bench operator', $2 from role r where r.role_key = 'bench_operator'`,
      [OPERATOR, hash],
    );

    // As autovacuum leaves a table that only grows: statistics and the visibility map (index-only scans) up to date.
    const t0 = performance.now();
    await c.query('vacuum analyze');
    console.log(`  ${'vacuum analyze'.padEnd(34)} ${''.padStart(11)}       ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await c.query(`create table bench_seeded (points int not null, records int not null, at timestamptz not null default now())`);
    await c.query(`insert into bench_seeded (points, records) values ($1, $2)`, [POINTS, RECORDS]);
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Timing

interface Case {
  /** Path below /prod-api. */
  path: string;
  /** What the query stands for, as the table shows it. */
  label: string;
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  as?: 'admin' | 'operator';
  /** What the server has to read for it, printed beside "not met". */
  note?: string;
  /** Its own p95 target where it is not a list's (the statistics screens: 300 ms, issue 20 item 6). */
  targetMs?: number;
}

interface Measured {
  c: Case;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  total: string;
  error?: string;
  slowSql: { ms: number; text: string }[];
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** Per request, the statements the server ran and their times (--sql). */
const sqlLog: { ms: number; text: string }[] = [];
function recordSql(database: Database) {
  const pool = database.pool;
  const original = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
  pool.query = (async (...a: unknown[]) => {
    const t0 = performance.now();
    try {
      return await original(...a);
    } finally {
      const q = a[0] as string | { text: string; values?: unknown[] };
      const text = typeof q === 'string' ? q : q.text;
      const values = typeof q === 'string' ? (a[1] as unknown[] | undefined) : q.values;
      sqlLog.push({ ms: performance.now() - t0, text: `${text}${values?.length ? `  -- ${JSON.stringify(values)}` : ''}` });
    }
  }) as typeof pool.query;
}

async function main() {
  const load0 = os.loadavg();
  const started = new Date();
  console.log(
    `Console under load on PostgreSQL — Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ` +
      `load average at start ${load0.map((l) => l.toFixed(2)).join(' / ')}`,
  );
  const bench = await openBenchDatabase();
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    console.log('\ninterrupted: dropping the bench database…');
    void bench.drop().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-bench-console-'));
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const probe = new pg.Client({ connectionString: bench.url });
    await probe.connect();
    const version = (await probe.query('show server_version')).rows[0].server_version as string;
    await probe.end();
    console.log(`database ${bench.name} on ${new URL(bench.url).host} (PostgreSQL ${version})${KEEP ? ', kept between runs' : ''}`);
    await migrate(bench.database);
    await seed(bench.database.db, { adminPassword: PASSWORD });
    if (bench.seeded) {
      console.log('  already seeded: reusing it (--reseed seeds it again)');
      const c = new pg.Client({ connectionString: bench.url });
      await c.connect();
      await c.query('analyze');
      await c.end();
    } else {
      console.log(`seeding ${POINTS.toLocaleString('en')} points and ${RECORDS.toLocaleString('en')} charging records…`);
      const t0 = performance.now();
      await seedVolume(bench.url);
      console.log(`  seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    if (SHOW_SQL) recordSql(bench.database);

    const config = loadConfig(
      {},
      { dataDir, captcha: false, logLevel: 'warn', webDist: undefined, port: 0, host: '127.0.0.1', adminPassword: PASSWORD },
    );
    app = await buildApp({ config, database: bench.database });
    // A first start on the seeded records builds the revenue trend's day totals before it answers.
    const ready0 = performance.now();
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    console.log(`  server ready in ${((performance.now() - ready0) / 1000).toFixed(1)} s (day totals built then, when new)`);
    const address = app.server.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/prod-api`;
    const signIn = async (username: string) => {
      const res = await fetch(`${base}/web/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      const body = (await res.json()) as { code: number; msg: string; data?: { token?: string } };
      if (!body.data?.token) throw new Error(`sign-in of ${username} failed: ${body.code} ${body.msg}`);
      return body.data.token;
    };
    const tokens = { admin: await signIn('admin'), operator: await signIn(OPERATOR) };

    const ids = await pickIds(bench.url);
    const cases = buildCases(ids).filter((c) => ONLY.length === 0 || ONLY.some((o) => c.path.includes(o)));
    console.log(
      `timing ${cases.length} queries: ${WARMUP} warm-up + ${N} timed requests each, one at a time (${SLOW_N} when a warm-up request takes over ${SLOW_MS} ms)\n`,
    );

    const results: Measured[] = [];
    for (const c of cases) {
      const url = `${base}${c.path}${c.query ? `?${new URLSearchParams(Object.entries(c.query).map(([k, v]) => [k, String(v)]))}` : ''}`;
      const init: RequestInit = {
        method: c.method ?? 'GET',
        headers: {
          authorization: `Bearer ${tokens[c.as ?? 'admin']}`,
          'x-language': 'en',
          ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
      };
      const once = async () => {
        const t0 = performance.now();
        const res = await fetch(url, init);
        const body = (await res.json()) as { code: number; msg: string; data: unknown };
        const ms = performance.now() - t0;
        if (res.status !== 200 || body.code !== 200) throw new Error(`${res.status} ${body.code} ${body.msg}`);
        return { ms, data: body.data };
      };
      let n = N;
      let last: unknown;
      const times: number[] = [];
      try {
        for (let i = 0; i < WARMUP; i++) {
          const r = await once();
          last = r.data;
          if (r.ms > SLOW_MS) n = Math.min(N, SLOW_N);
        }
        sqlLog.length = 0;
        for (let i = 0; i < n; i++) {
          const r = await once();
          times.push(r.ms);
          last = r.data;
        }
      } catch (err) {
        results.push({ c, n: 0, p50: NaN, p95: NaN, p99: NaN, total: '—', error: (err as Error).message, slowSql: [] });
        console.log(`  ${c.path} ${c.label}: failed: ${(err as Error).message}`);
        continue;
      }
      const sorted = [...times].sort((a, b) => a - b);
      const slowSql = SHOW_SQL ? slowest(sqlLog, n) : [];
      const m: Measured = { c, n, p50: pct(sorted, 0.5), p95: pct(sorted, 0.95), p99: pct(sorted, 0.99), total: totalOf(last), slowSql };
      results.push(m);
      console.log(
        `  ${c.path} ${c.label}: p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms${m.p95 > (c.targetMs ?? TARGET_MS) ? '  ← not met' : ''} (load ${os.loadavg()[0]!.toFixed(2)})`,
      );
      for (const s of slowSql) console.log(`      ${s.ms.toFixed(1)} ms  ${s.text.replace(/\s+/g, ' ').slice(0, 1500)}`);
    }

    const load1 = os.loadavg();
    const head = ['endpoint', 'query', 'p50 ms', 'p95 ms', 'p99 ms', 'rows total', `p95 target (≤ ${TARGET_MS} ms unless named)`];
    const rows = results.map((r) => [
      `${r.c.method ?? 'GET'} ${r.c.path}`,
      `${r.c.as === 'operator' ? 'operator: ' : ''}${r.c.label}`,
      r.error ? '—' : r.p50.toFixed(1),
      r.error ? '—' : r.p95.toFixed(1),
      r.error ? '—' : r.p99.toFixed(1),
      r.total,
      (r.c.targetMs ? `≤ ${r.c.targetMs} ms: ` : '') +
        (r.error ? `failed: ${r.error}` : r.p95 <= (r.c.targetMs ?? TARGET_MS) ? 'met' : r.c.note ? `not met: ${r.c.note}` : 'not met'),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
    console.log(
      `\n${started.toISOString().slice(0, 16).replace('T', ' ')} UTC; ${POINTS.toLocaleString('en')} points, ${RECORDS.toLocaleString('en')} charging records ` +
        `(alarms ${sizes.alarms.toLocaleString('en')}, OCPP log ${sizes.ocppLog.toLocaleString('en')}, recharges/refunds ${sizes.recharges.toLocaleString('en')} ` +
        `beside a charge row per paid session, system log ${sizes.systemLog.toLocaleString('en')}, charge users ${sizes.users.toLocaleString('en')}, ` +
        `cards ${sizes.cards.toLocaleString('en')}, cars ${sizes.cars.toLocaleString('en')}, stations ${sizes.stations.toLocaleString('en')}); ` +
        `${N} timed requests per query after ${WARMUP} warm-up (${SLOW_N} for queries slower than ${SLOW_MS} ms), one at a time over loopback HTTP.`,
    );
    console.log(
      `load average: start ${load0.map((l) => l.toFixed(2)).join(' / ')}, end ${load1.map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min)\n`,
    );
    console.log(line(head));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const r of rows) console.log(line(r));
    const missed = results.filter((r) => r.error || r.p95 > (r.c.targetMs ?? TARGET_MS)).length;
    console.log(`\n${results.length - missed} of ${results.length} queries met their p95 target.`);
  } finally {
    await app?.server.close().catch(() => {});
    await bench.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function totalOf(data: unknown): string {
  if (Array.isArray(data)) return `${data.length.toLocaleString('en')} (array)`;
  if (data && typeof data === 'object') {
    const d = data as { total?: unknown; list?: unknown[]; points?: unknown[] };
    if (typeof d.total === 'number') return d.total.toLocaleString('en');
    if (Array.isArray(d.points)) return `${d.points.length} points`;
  }
  return '—';
}

/** The statements slower than a millisecond on average, slowest first, with their mean time per request. */
function slowest(log: { ms: number; text: string }[], requests: number) {
  const by = new Map<string, { ms: number; text: string }>();
  for (const e of log) {
    const key = e.text.replace(/ {2}-- .*$/, '');
    const x = by.get(key) ?? { ms: 0, text: e.text };
    x.ms += e.ms;
    by.set(key, x);
  }
  return [...by.values()]
    .map((x) => ({ ms: x.ms / requests, text: x.text }))
    .filter((x) => x.ms >= 1)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 4);
}

// ---------------------------------------------------------------------------------------------
// What the console asks

interface Ids {
  providerId: number;
  stationId: number;
  stationName: string;
  pointId: number;
  serialNumber: string;
  operatorStationId: number;
  account: string;
  cardNumber: string;
  groupId: number;
  messageText: string;
  plate: string;
  roleId: number;
  maxRecordId: number;
  runningSerial: string;
}

async function pickIds(url: string): Promise<Ids> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const one = async <T>(q: string) => (await c.query(q)).rows[0] as T;
  try {
    const provider = await one<{ id: number }>(`select id from provider where name = 'Bench provider 3'`);
    const st = await one<{ id: number; name: string }>(
      `select id, name from station where provider_id = ${provider.id} order by id offset (select count(*) / 2 from station where provider_id = ${provider.id}) limit 1`,
    );
    const pt = await one<{ id: number; serial_number: string }>(
      `select id, serial_number from charge_point where station_id = ${st.id} order by id limit 1`,
    );
    const opSt = await one<{ id: number }>(
      `select s.id from station s join provider p on p.id = s.provider_id where p.name = 'Bench provider 1' order by s.id desc limit 1`,
    );
    const user = await one<{ account: string }>(
      `select account from charge_user where provider_id = ${provider.id} order by id offset (select count(*) / 3 from charge_user where provider_id = ${provider.id}) limit 1`,
    );
    const card = await one<{ card_number: string }>(
      `select card_number from card where provider_id = ${provider.id} order by id offset (select count(*) / 4 from card where provider_id = ${provider.id}) limit 1`,
    );
    const group = await one<{ id: number }>(`select id from user_group where provider_id = ${provider.id} order by id limit 1`);
    const car = await one<{ plate: string }>(`select plate from car order by id offset (select count(*) / 5 from car) limit 1`);
    const role = await one<{ id: number }>(`select id from role where role_key like 'bench_role_%' order by id limit 1`);
    const max = await one<{ id: number }>(`select max(id)::int as id from charging_transaction where stopped_at is not null`);
    const running = await one<{ serial_number: string }>(
      `select cp.serial_number from charging_transaction t join charge_point cp on cp.id = t.charge_point_id where t.stopped_at is null order by t.id limit 1`,
    );
    return {
      providerId: provider.id,
      stationId: st.id,
      stationName: st.name.slice(0, 12),
      pointId: pt.id,
      serialNumber: pt.serial_number,
      operatorStationId: opSt.id,
      account: user.account,
      cardNumber: card.card_number,
      groupId: group.id,
      messageText: 'Maintenance window 1',
      plate: car.plate,
      roleId: role.id,
      maxRecordId: max.id,
      runningSerial: running?.serial_number ?? pt.serial_number,
    };
  } finally {
    await c.end();
  }
}

/** The day `d` days before today in the console's zone (Asia/Shanghai by default), as the date picker sends it. */
const day = (d: number) => new Date(Date.now() + 8 * 3600_000 - d * 86_400_000).toISOString().slice(0, 10);

/** The revenue trend: the finished sessions' day totals per station (`charging_day`), and the running sessions live. */
const totals = (days: number) =>
  `adds up ${days} days' totals of every station in scope (≈ ${(Math.max(16, Math.round(POINTS / 33)) * days).toLocaleString('en')} rows) and the running sessions`;

/**
 * Operation and financial statistics (issue 20 item 6, p95 ≤ 300 ms): stations' figures from the day totals
 * (`charging_day`), the heat map's whole months from `start_month`, money from `settlement_day` and `ledger_day`;
 * the points are ranked in the database from `point_month`, a month the period covers in part from its records or
 * from its total less the days left out (whichever are fewer), and the running sessions from the records.
 */
function statisticsCases(x: Ids): Case[] {
  const op = '/web/statistics/operation';
  const fin = '/web/statistics/financial';
  const year = { period: 'custom', startDate: day(365), endDate: day(0) };
  const quarter = { period: 'custom', startDate: day(90), endDate: day(0) };
  const ranking = (days: number) =>
    `ranks every point in SQL: point_month, and at most half a month of records at each end (≤ ≈ ${Math.round((RECORDS * Math.min(days, 31)) / 365).toLocaleString('en')} records)`;
  const s = { targetMs: 300 };
  return [
    { path: op, label: 'operation: today', query: { period: 'day' }, ...s },
    { path: op, label: 'operation: this month', query: { period: 'month' }, note: ranking(30), ...s },
    { path: op, label: 'operation: last 90 days', query: quarter, note: ranking(90), ...s },
    { path: op, label: 'operation: last 366 days', query: year, note: ranking(365), ...s },
    { path: op, label: 'operation: a station, this month', query: { period: 'month', stationId: x.stationId }, ...s },
    { path: op, label: 'operation: a point, last 366 days', query: { ...year, pointId: x.pointId }, ...s },
    { path: op, label: 'operation: this month', query: { period: 'month' }, as: 'operator', note: ranking(30), ...s },
    { path: fin, label: 'financial: today', query: { period: 'day' }, ...s },
    { path: fin, label: 'financial: this month', query: { period: 'month' }, ...s },
    { path: fin, label: 'financial: last 366 days', query: year, ...s },
    { path: fin, label: 'financial: this month by station', query: { period: 'month', groupBy: 'station' }, ...s },
    { path: fin, label: 'financial: this month', query: { period: 'month' }, as: 'operator', ...s },
  ];
}

function buildCases(x: Ids): Case[] {
  const first = { page: 1, limit: 10 };
  const later = { page: 200, limit: 10 };
  const week = { startTime: day(7), endTime: day(0) };
  const month = { startTime: day(30), endTime: day(0) };
  return [
    // Records
    { path: '/web/chargeRecord/list', label: 'first page', query: first },
    { path: '/web/chargeRecord/list', label: 'page 200', query: later },
    { path: '/web/chargeRecord/list', label: 'station', query: { ...first, stationId: x.stationId } },
    { path: '/web/chargeRecord/list', label: 'provider', query: { ...first, providerId: x.providerId } },
    { path: '/web/chargeRecord/list', label: 'last 7 days', query: { ...first, ...week } },
    { path: '/web/chargeRecord/list', label: 'station, last 30 days', query: { ...first, stationId: x.stationId, ...month } },
    { path: '/web/chargeRecord/list', label: 'point (serial number)', query: { ...first, serialNumber: x.serialNumber } },
    { path: '/web/chargeRecord/list', label: `account search "${x.account.slice(-5)}"`, query: { ...first, account: x.account.slice(-5) } },
    { path: '/web/chargeRecord/list', label: 'card number', query: { ...first, cardNumber: x.cardNumber } },
    { path: '/web/chargeRecord/list', label: 'record id', query: { ...first, id: x.maxRecordId - Math.floor(RECORDS / 3) } },
    { path: '/web/chargeRecord/list', label: 'invalid records', query: { ...first, validity: 'invalid' } },
    { path: '/web/chargeRecord/list', label: 'first page', query: first, as: 'operator' },
    { path: '/web/chargeRecord/list', label: 'page 200', query: later, as: 'operator' },
    { path: '/web/chargeRecord/list', label: 'last 7 days', query: { ...first, ...week }, as: 'operator' },
    { path: '/web/chargeRecord/get', label: 'one record (detail)', query: { id: x.maxRecordId - Math.floor(RECORDS / 3) } },

    { path: '/web/alarmRecord/list', label: 'first page', query: first },
    { path: '/web/alarmRecord/list', label: 'page 200', query: later },
    { path: '/web/alarmRecord/list', label: 'open alarms', query: { ...first, state: 'open' } },
    { path: '/web/alarmRecord/list', label: 'station', query: { ...first, stationId: x.stationId } },
    { path: '/web/alarmRecord/list', label: 'last 7 days, serious', query: { ...first, ...week, level: 'serious' } },
    { path: '/web/alarmRecord/list', label: 'error code search', query: { ...first, errorCode: 'Ground' } },
    { path: '/web/alarmRecord/list', label: 'point (serial number)', query: { ...first, serialNumber: x.serialNumber } },
    { path: '/web/alarmRecord/list', label: 'first page', query: first, as: 'operator' },

    { path: '/web/ocppLog/list', label: 'first page', query: first },
    { path: '/web/ocppLog/list', label: 'page 200', query: later },
    { path: '/web/ocppLog/list', label: 'point (serial number)', query: { ...first, serialNumber: x.serialNumber } },
    { path: '/web/ocppLog/list', label: 'action StartTransaction', query: { ...first, action: 'StartTransaction' } },
    {
      path: '/web/ocppLog/list',
      label: 'point, last day',
      query: { ...first, serialNumber: x.serialNumber, startTime: day(1), endTime: day(0) },
    },
    { path: '/web/ocppLog/list', label: 'message id', query: { ...first, messageId: 'm12345' } },
    { path: '/web/ocppLog/list', label: 'first page', query: first, as: 'operator' },

    { path: '/web/rechargeRecord/list', label: 'first page', query: first },
    { path: '/web/rechargeRecord/list', label: 'page 200', query: later },
    { path: '/web/rechargeRecord/list', label: 'last 30 days', query: { ...first, ...month } },
    { path: '/web/rechargeRecord/list', label: 'account search', query: { ...first, account: x.account } },
    { path: '/web/rechargeRecord/list', label: 'card number', query: { ...first, cardNumber: x.cardNumber } },
    { path: '/web/rechargeRecord/list', label: 'first page', query: first, as: 'operator' },

    // Configuration and users
    { path: '/web/point/list', label: 'first page', query: first },
    { path: '/web/point/list', label: 'page 200', query: later },
    { path: '/web/point/list', label: 'station', query: { ...first, stationId: x.stationId } },
    { path: '/web/point/list', label: 'serial number search', query: { ...first, serialNumber: x.serialNumber.slice(-4) } },
    { path: '/web/point/list', label: 'status faulted', query: { ...first, status: 'faulted' } },
    { path: '/web/point/list', label: 'first page', query: first, as: 'operator' },
    { path: '/web/station/list', label: 'first page', query: first },
    { path: '/web/station/list', label: 'last page', query: { page: Math.ceil(sizes.stations / 10), limit: 10 } },
    { path: '/web/station/list', label: 'name search', query: { ...first, stationName: 'Pudong' } },
    { path: '/web/station/list', label: 'provider', query: { ...first, providerId: x.providerId } },
    { path: '/web/station/list', label: 'first page', query: first, as: 'operator' },
    { path: '/web/chargeUser/list', label: 'first page', query: first },
    { path: '/web/chargeUser/list', label: 'page 200', query: later },
    { path: '/web/chargeUser/list', label: 'account search', query: { ...first, account: x.account.slice(-5) } },
    { path: '/web/chargeUser/list', label: 'phone search', query: { ...first, phone: '8000123' } },
    { path: '/web/chargeUser/list', label: 'group', query: { ...first, groupId: x.groupId } },
    { path: '/web/chargeUser/list', label: 'first page', query: first, as: 'operator' },
    { path: '/web/card/list', label: 'first page', query: first },
    { path: '/web/card/list', label: 'page 200', query: later },
    { path: '/web/card/list', label: 'card number search', query: { ...first, cardNumber: x.cardNumber.slice(-5) } },
    { path: '/web/card/list', label: 'account search', query: { ...first, account: x.account } },
    { path: '/web/card/list', label: 'state lost', query: { ...first, state: 'lost' } },
    { path: '/web/card/list', label: 'first page', query: first, as: 'operator' },
    { path: '/web/userGroup/list', label: 'first page', query: first },
    { path: '/web/userGroup/members', label: 'a group, first page', query: { ...first, id: x.groupId } },
    { path: '/web/car/list', label: 'first page', query: first },
    { path: '/web/car/list', label: 'page 200', query: later },
    { path: '/web/car/list', label: 'plate search', query: { ...first, plate: x.plate.slice(-4) } },
    { path: '/web/car/list', label: 'account search', query: { ...first, account: x.account } },
    { path: '/web/price/list', label: 'first page', query: first },
    { path: '/web/price/list', label: 'station name search', query: { ...first, stationName: 'Xuhui' } },
    { path: '/web/price/groupList', label: 'first page', query: first },

    // System
    { path: '/web/logs/getOperateLogs', label: 'first page', query: first },
    { path: '/web/logs/getOperateLogs', label: 'page 200', query: later },
    { path: '/web/logs/getOperateLogs', label: 'operator search, last 30 days', query: { ...first, operator: 'op-3', ...month } },
    { path: '/web/logs/getOperateLogs', label: 'first page', query: first, as: 'operator' },
    { path: '/web/msg/getAllMsg', label: 'first page', query: first },
    { path: '/web/msg/getAllMsg', label: 'keyword search', query: { ...first, keyWord: x.messageText } },
    { path: '/web/msg/getUnreadCount', label: 'header bell' },
    { path: '/web/userManage/getAllUsers', label: 'first page', query: first },
    { path: '/web/userManage/getConditionProviders', label: 'first page', method: 'POST', body: first },
    { path: '/web/permissionManage/queryRolesByOrg', label: 'first page', query: first },
    { path: '/web/organizationManage/queryOrganizations', label: 'first page', query: first },
    { path: '/web/errorLog/list', label: 'first page', query: first },

    // Pickers
    { path: '/web/getStations', label: 'station picker', method: 'POST', body: {} },
    { path: '/web/getPoints', label: 'points of a station', method: 'POST', body: { stationId: x.stationId } },
    { path: '/web/chargeUser/options', label: 'account picker search', query: { keyword: x.account.slice(-5) } },
    { path: '/web/userManage/getAllProviders', label: 'provider picker', query: { limit: 50 } },
    { path: '/web/permissionManage/queryRoles', label: 'role picker', query: { limit: 50 } },
    { path: '/web/userGroup/options', label: 'group picker', query: { providerId: x.providerId } },

    // Monitoring and point configuration
    { path: '/web/monitor/charging', label: 'first page', query: first },
    { path: '/web/monitor/charging', label: 'station', query: { ...first, stationId: x.stationId } },
    { path: '/web/monitor/stations', label: 'first page', query: first },
    { path: '/web/monitor/points', label: 'first page', query: first },
    { path: '/web/monitor/points', label: 'page 100', query: { page: 100, limit: 10 } },
    { path: '/web/monitor/points', label: 'status charging', query: { ...first, status: 'charging' } },
    { path: '/web/monitor/points', label: 'offline', query: { ...first, online: false } },
    { path: '/web/monitor/points', label: 'first page', query: first, as: 'operator' },
    { path: '/web/point/localListState', label: 'point configuration', query: { serialNumber: x.runningSerial } },
    { path: '/web/point/idTagOptions', label: 'point configuration: idTag search', query: { serialNumber: x.runningSerial, keyword: 'B' } },
    { path: '/web/common/dayZone', label: 'zone of a station', query: { stationId: x.stationId } },

    // Dashboard
    { path: '/web/statistics/today', label: 'dashboard: today' },
    { path: '/web/statistics/today', label: 'dashboard: today', as: 'operator' },
    {
      path: '/web/statistics/revenueTrend',
      label: 'dashboard: by day (15)',
      query: { period: 'day' },
      note: totals(15),
    },
    {
      path: '/web/statistics/revenueTrend',
      label: 'dashboard: by week (12)',
      query: { period: 'week' },
      note: totals(84),
    },
    {
      path: '/web/statistics/revenueTrend',
      label: 'dashboard: by month (12)',
      query: { period: 'month' },
      note: totals(365),
    },
    {
      path: '/web/statistics/revenueTrend',
      label: 'dashboard: by month (12)',
      query: { period: 'month' },
      as: 'operator',
      note: `${totals(365)}; its providers' stations only`,
    },
    { path: '/web/chargeUser/newMembers', label: 'dashboard: new members', query: { tz: 'Asia/Shanghai' } },
    ...statisticsCases(x),
    { path: '/web/monitor/counts', label: 'dashboard: connector counts' },
    { path: '/web/monitor/counts', label: 'dashboard: connector counts', as: 'operator' },
    { path: '/web/monitor/faults', label: 'dashboard: open faults', query: { limit: 10 } },
    {
      path: '/web/monitor/powerTrend',
      label: 'dashboard: power, 24 h',
      query: { bucketMinutes: 15 },
      note: "weighs the last 24 hours' meter samples by the time each stands for, on every request",
    },
    {
      path: '/web/monitor/powerTrend',
      label: 'dashboard: power, 24 h',
      query: { bucketMinutes: 15 },
      as: 'operator',
      note: "weighs the last 24 hours' meter samples by the time each stands for, on every request",
    },
  ];
}

await main();
