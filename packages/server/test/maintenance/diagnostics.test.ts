import { api, type DiagnosticsDto, type FirmwareUpgradeDto, type FirmwareUpgradePointDto, type FirmwareVersionDto } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosticsRequest, ocppLog } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually } from '../ocpp/support.js';
import { freePort } from '../support/ports.js';

/*
 * Diagnostics (issue 16 item 3) and firmware over FTP: simulated chargers upload their diagnostics
 * file to the server over real HTTP and real FTP (the embedded FTP server on its own ports), and
 * fetch a firmware package over FTP.
 */

type Reply<T> = { code: number; msg: string; data: T };

let s: TestServer;
let admin: string;
const sims: ChargePoint[] = [];

beforeAll(async () => {
  const port = await freePort();
  // Passive ports: a band of its own, away from the ephemeral range the system hands out.
  const pasvMin = 20_000 + Math.floor(Math.random() * 400) * 50;
  s = await startServer({ ftp: { port, pasvMin, pasvMax: pasvMin + 49, host: '127.0.0.1' } });
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});

const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;
const get = <T>(path: string) => s.call<T>('GET', path, { token: admin }) as Promise<Reply<T>>;

async function charger() {
  const p = await createPoint(s.database.db, { connectors: 1 });
  const sim = createChargePoint({
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber: p.serialNumber,
    key: p.key!,
    connectors: 1,
    firmwareVersion: '1.0.0',
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
    rebootDelayMs: 50,
  });
  sims.push(sim);
  sim.start();
  await sim.ready();
  return { sim, serialNumber: p.serialNumber };
}

const received = (id: number) =>
  eventually(async () => {
    const r = (await get<DiagnosticsDto>(`${api.diagnostics.get.path}?id=${id}`)).data;
    return r.state === 'received' ? r : undefined;
    // A charger's upload goes through the simulator's transfer job: generous on a busy machine.
  }, 60_000);
const download = async (id: number) =>
  (await fetch(`${s.url}/prod-api${api.diagnostics.download.path}?id=${id}`, { headers: { authorization: `Bearer ${admin}` } })).text();

describe('diagnostics', () => {
  it('receives a charger’s file over HTTP and over FTP, lists it with its size and serves it for download', async () => {
    const c = await charger();
    const overHttp = await post<DiagnosticsDto[]>(api.diagnostics.add, { serialNumbers: [c.serialNumber] });
    expect(overHttp.code, overHttp.msg).toBe(200);
    expect(overHttp.data[0]).toMatchObject({ serialNumber: c.serialNumber });
    // Sent; the charger's Uploading may already have reached the row by the time the answer is built.
    expect(['sent', 'Uploading']).toContain(overHttp.data[0]!.state);
    expect(overHttp.data[0]!.fileName).toMatch(/^diagnostics-/);
    const http = await received(overHttp.data[0]!.id);
    expect(http.sizeBytes).toBeGreaterThan(100);
    expect(await download(http.id)).toContain(c.serialNumber);

    const overFtp = await post<DiagnosticsDto[]>(api.diagnostics.add, { serialNumbers: [c.serialNumber], transport: 'ftp' });
    expect(overFtp.code, overFtp.msg).toBe(200);
    // The console never sees the FTP password.
    expect(overFtp.data[0]!.location).toMatch(/^ftp:\/\/diag\d+:\*\*\*@127\.0\.0\.1:\d+\/$/);
    const ftp = await received(overFtp.data[0]!.id);
    expect(await download(ftp.id)).toContain(c.serialNumber);

    // An upload address takes one file: a second one to the same token is refused, the first kept.
    const [row] = await s.database.db.select().from(diagnosticsRequest).where(eq(diagnosticsRequest.id, http.id));
    const forged = new FormData();
    forged.append('file', new Blob(['forged']), 'forged.log');
    expect((await fetch(`${s.url}/files/diagnostics/${row!.token}`, { method: 'POST', body: forged })).status).toBe(404);
    expect(await download(http.id)).toContain(c.serialNumber);
    // Neither the upload token nor the FTP login's password (the same kind of token) reaches the OCPP log.
    const [ftpRow] = await s.database.db.select().from(diagnosticsRequest).where(eq(diagnosticsRequest.id, ftp.id));
    const logged = JSON.stringify(
      await eventually(async () => {
        const rows = await s.database.db.select({ payload: ocppLog.payload }).from(ocppLog).where(eq(ocppLog.action, 'GetDiagnostics'));
        return rows.length >= 2 ? rows : undefined;
      }),
    );
    expect(logged).toContain('/files/diagnostics/***');
    expect(logged).toMatch(/ftp:\/\/diag\d+:\*\*\*@/);
    expect(logged).not.toContain(row!.token!);
    expect(logged).not.toContain(ftpRow!.token!);
  });

  it('records an offline point, and refuses a window that ends before it starts, naming the field', async () => {
    const p = await createPoint(s.database.db, { connectors: 1 });
    const r = await post<DiagnosticsDto[]>(api.diagnostics.add, { serialNumbers: [p.serialNumber] });
    expect(r.data[0]!.state).toBe('offline');
    const noFile = await fetch(`${s.url}/prod-api${api.diagnostics.download.path}?id=${r.data[0]!.id}`, {
      headers: { authorization: `Bearer ${admin}`, 'x-language': 'en' },
    });
    expect(((await noFile.json()) as { msg: string }).msg).toContain('No file has been received');
    const bad = await post<{ field: string }>(
      api.diagnostics.add,
      { serialNumbers: [p.serialNumber], startTime: '2031-01-02T00:00:00Z', stopTime: '2031-01-01T00:00:00Z' },
      'zh',
    );
    expect(bad.data.field).toBe('stopTime');
    expect(bad.msg).toBe('结束时间须晚于开始时间');
  });

  it('exports the requests of a station with their state in the caller’s language, FTP passwords hidden', async () => {
    const p = await createPoint(s.database.db, { connectors: 1 });
    const r = await post<DiagnosticsDto[]>(api.diagnostics.add, {
      serialNumbers: [p.serialNumber],
      location: 'ftp://u:secret@logs.example.com/in/',
    });
    const res = await fetch(`${s.url}/prod-api${api.diagnostics.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', stationId: p.stationId }),
    });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.split(',').slice(0, 5)).toEqual(['Diagnostics ID', 'Station', 'Point serial number', 'Point name', 'Status']);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${r.data[0]!.id},`);
    expect(lines[1]).toContain(`${p.serialNumber},Point offline,`);
    expect(lines[1]).toContain('ftp://u:***@logs.example.com/in/');
    expect(lines[1]).not.toContain('secret');
  });
});

describe('firmware over FTP', () => {
  it('upgrades a charger that fetches the package from the embedded FTP server', async () => {
    const form = new FormData();
    form.append('file', new Blob(['version: 5.0.0\nftp build']), 'fw-5.0.0.bin');
    const q = new URLSearchParams({ version: '5.0.0', applicationType: 'AC', communicationType: 'Ethernet' });
    const res = await fetch(`${s.url}/prod-api${api.firmwareVersion.add.path}?${q}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const v = ((await res.json()) as Reply<FirmwareVersionDto>).data;
    const c = await charger();
    const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, {
      serialNumbers: [c.serialNumber],
      versionId: v.id,
      transport: 'ftp',
    });
    expect(up.code, up.msg).toBe(200);
    expect(up.data.location).toMatch(/^ftp:\/\/firmware:[0-9a-f]{64}@127\.0\.0\.1:\d+\/fw-5\.0\.0\.bin$/);
    await eventually(async () => {
      const points = (await get<FirmwareUpgradePointDto[]>(`${api.firmwareUpgrade.points.path}?id=${up.data.id}`)).data;
      return points[0]?.state === 'confirmed' && points[0].reportedVersion === '5.0.0';
    }, 30_000);
  });
});
