/**
 * Export benchmark (issue 6 item 5): seeds 100k and 1M finished charging records into a fresh
 * database, then streams `POST /web/chargeRecord/export` from the real server over loopback and
 * measures time, rows per second and peak memory, as CSV and as xlsx. Prints a table that says
 * whether each run met the targets below, and why not.
 *
 *   npm run bench:export                               # PGlite in a temporary directory
 *   DATABASE_URL=postgres://… npm run bench:export     # PostgreSQL: a throw-away database on that server
 *   BENCH_SIZES=100000 BENCH_FORMATS=csv npm run bench:export
 *
 * Run directly: `npx tsx --conditions=source bench/export-records.ts`.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { migrate, openPglite, openPostgres, type Database } from '../packages/server/src/db/client.js';
import { seed } from '../packages/server/src/db/seed.js';

const sizes = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map((s) => Number(s.trim()));
const formats = (process.env.BENCH_FORMATS ?? 'csv,xlsx').split(',').map((s) => s.trim()) as ('csv' | 'xlsx')[];
const PASSWORD = 'bench-admin-1';

/** Targets: memory stays flat whatever the size (a streaming engine), and a month of a busy network exports in under a minute. */
const TARGET_RSS_GROWTH_MB = 256;
const TARGET_ROWS_PER_SEC = 5_000;

interface Result {
  rows: number;
  format: string;
  seconds: number;
  rowsPerSec: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapPeakMb: number;
}

const mb = (b: number) => Math.round(b / 1024 / 1024);

async function freshDatabase(): Promise<{ database: Database; kind: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `csms_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = openPostgres(u.toString());
    await migrate(database);
    return {
      database,
      kind: 'PostgreSQL',
      drop: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-bench-'));
  const database = await openPglite({ dataDir: path.join(dir, 'pglite') });
  await migrate(database);
  return {
    database,
    kind: 'PGlite',
    drop: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ten points and a hundred cards of one provider; `total` finished, billed sessions 37 s apart, in batches. */
async function seedRecords(database: Database, total: number, from: number) {
  const { db } = database;
  const one = async <T>(q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: T[] }).rows[0]!;
  if (from === 0) {
    await db.execute(sql`insert into provider (name, type, parent_id) values ('Bench provider', 'common', 1)`);
    await db.execute(sql`insert into station (provider_id, name, country, address, longitude, latitude, time_zone)
      select p.id, 'Bench station', 'CN', 'Bench road', 121.47, 31.23, 'Asia/Shanghai' from provider p where p.name = 'Bench provider'`);
    await db.execute(sql`insert into charge_point (provider_id, station_id, serial_number, name, equipment_type, rated_power_w)
      select s.provider_id, s.id, 'BENCH-' || g, 'Bench point ' || g, 'ac', 7000 from station s, generate_series(1, 10) g where s.name = 'Bench station'`);
    await db.execute(sql`insert into charge_user (provider_id, account, user_type)
      select p.id, 'bench-user-' || g, 'card' from provider p, generate_series(1, 100) g where p.name = 'Bench provider'`);
    await db.execute(sql`insert into card (provider_id, card_number, physical_id, charge_user_id, balance_cents, expire_at)
      select u.provider_id, 'BENCH-NO-' || u.id, 'BENCHUID' || u.id, u.id, 1000000, now() + interval '1 year' from charge_user u where u.account like 'bench-user-%'`);
  }
  const ids = await one<{ provider: number; station: number; point: number; card: number }>(sql`
    select (select id from provider where name = 'Bench provider') as provider, (select id from station where name = 'Bench station') as station,
      (select min(id) from charge_point where serial_number like 'BENCH-%') as point, (select min(id) from card where card_number like 'BENCH-NO-%') as card`);
  const batch = 100_000;
  for (let lo = from; lo < total; lo += batch) {
    const hi = Math.min(total, lo + batch) - 1;
    await db.execute(sql`
      insert into charging_transaction (provider_id, station_id, charge_point_id, connector_no, id_tag, card_id, start_type, auth_status,
        meter_start_wh, started_at, meter_stop_wh, stopped_at, stop_reason, energy_wh,
        elec_fee_cents, service_fee_cents, reserve_fee_cents, total_cents, billed_at, paid_from)
      select ${ids.provider}, ${ids.station}, ${ids.point} + (g % 10), 1, 'BENCHUID' || (${ids.card} + (g % 100)), ${ids.card} + (g % 100), 'card', 'Accepted',
        0, s.at, 7000 + (g % 5000), s.at + interval '1 hour', 'EVDisconnected', 7000 + (g % 5000),
        549, 175, 0, 724, s.at + interval '1 hour', 'card'
      from generate_series(${lo}::int, ${hi}::int) g, lateral (select timestamptz '2024-01-01T00:00:00Z' + g * interval '37 seconds' as at) s`);
    if (process.stdout.isTTY) process.stdout.write(`\r  seeded ${hi + 1} of ${total} records…`);
  }
  console.log(`  seeded ${total} records`);
}

async function exportOnce(url: string, token: string, format: 'csv' | 'xlsx', expected: number): Promise<Result> {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 25);
  const started = performance.now();
  // A connection of its own (no keep-alive pool): seeding a million rows outlasts the server's idle timeout.
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.request(
      `${url}/prod-api/web/chargeRecord/export`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-language': 'en' },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(JSON.stringify({ format }));
  });
  if ((res.headers['content-type'] ?? '').includes('json')) {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    throw new Error(`export refused: ${text}`);
  }
  let bytes = 0;
  let newlines = 0;
  let lastReport = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    bytes += chunk.byteLength;
    if (format === 'csv') for (const b of chunk) if (b === 10) newlines++;
    if (process.stdout.isTTY && performance.now() - lastReport > 1000) {
      lastReport = performance.now();
      process.stdout.write(`\r  ${format}: ${mb(bytes)} MB received…`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (process.stdout.isTTY) process.stdout.write('\r' + ' '.repeat(60) + '\r');
  // CSV: one line per record plus the header; xlsx is zipped, so trust the engine's own count.
  if (format === 'csv' && newlines - 1 !== expected) throw new Error(`expected ${expected} rows, got ${newlines - 1}`);
  return {
    rows: expected,
    format,
    seconds,
    rowsPerSec: Math.round(expected / seconds),
    bytes,
    rssBeforeMb: mb(rssBefore),
    rssPeakMb: mb(rssPeak),
    heapPeakMb: mb(heapPeak),
  };
}

function verdict(r: Result): string {
  const growth = r.rssPeakMb - r.rssBeforeMb;
  const why: string[] = [];
  if (growth > TARGET_RSS_GROWTH_MB) why.push(`memory grew ${growth} MB > ${TARGET_RSS_GROWTH_MB} MB`);
  if (r.rowsPerSec < TARGET_ROWS_PER_SEC) why.push(`${r.rowsPerSec} rows/s < ${TARGET_ROWS_PER_SEC}`);
  return why.length === 0 ? 'met' : `not met: ${why.join('; ')}`;
}

async function main() {
  const { database, kind, drop } = await freshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-bench-data-'));
  const max = Math.max(...sizes);
  const config = loadConfig(
    {},
    {
      dataDir,
      captcha: false,
      logLevel: 'warn',
      webDist: undefined,
      port: 0,
      host: '127.0.0.1',
      adminPassword: PASSWORD,
      exportMaxRows: max,
    },
  );
  await seed(database.db, { adminPassword: PASSWORD });
  const app = await buildApp({ config, database });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${url}/prod-api/web/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;

  console.log(`Export benchmark on ${kind}, Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`);
  const results: Result[] = [];
  let seeded = 0;
  try {
    for (const size of [...sizes].sort((a, b) => a - b)) {
      await seedRecords(database, size, seeded);
      seeded = size;
      for (const format of formats) {
        const r = await exportOnce(url, token, format, size);
        results.push(r);
        console.log(`  ${size} rows as ${format}: ${r.seconds.toFixed(1)} s`);
      }
    }
  } finally {
    await app.server.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const rows = results.map((r) => [
    r.rows.toLocaleString('en'),
    r.format,
    r.seconds.toFixed(1),
    r.rowsPerSec.toLocaleString('en'),
    String(mb(r.bytes)),
    String(r.rssBeforeMb),
    String(r.rssPeakMb),
    String(r.rssPeakMb - r.rssBeforeMb),
    String(r.heapPeakMb),
    verdict(r),
  ]);
  const head = ['rows', 'format', 'time s', 'rows/s', 'file MB', 'RSS before MB', 'RSS peak MB', 'RSS growth MB', 'heap peak MB', 'target'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nTargets: RSS growth ≤ ${TARGET_RSS_GROWTH_MB} MB during an export (constant memory), ≥ ${TARGET_ROWS_PER_SEC} rows/s.`);
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    '\nRSS is the whole process (server, database driver and the client reading the stream); PGlite keeps its pages in the same process.',
  );
}

await main();
