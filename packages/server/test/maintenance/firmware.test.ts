import { api, type FirmwareUpgradeDto, type FirmwareUpgradePointDto, type FirmwareVersionDto } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargePoint } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually } from '../ocpp/support.js';

/*
 * Version management and firmware upgrades (issue 16 items 1 and 2): packages uploaded over real
 * HTTP (multipart, streamed), served to chargers under their token with range requests, and
 * upgrades followed point by point.
 */

type Reply<T> = { code: number; msg: string; data: T };

let s: TestServer;
let admin: string;
const sims: ChargePoint[] = [];

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});

/** A simulated charger on firmware 1.0.0, connected and booted; `sha256` makes it check the file it downloads. */
async function charger(firmware: { expectSha256?: string } = {}) {
  const p = await createPoint(s.database.db, { connectors: 1 });
  const sim = createChargePoint({
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber: p.serialNumber,
    key: p.key!,
    connectors: 1,
    firmwareVersion: '1.0.0',
    firmware,
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
    rebootDelayMs: 50,
  });
  sims.push(sim);
  sim.start();
  await sim.ready();
  return { sim, serialNumber: p.serialNumber, pointId: p.point.id };
}

const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;
const get = <T>(path: string) => s.call<T>('GET', path, { token: admin }) as Promise<Reply<T>>;

/** Uploads a package through the console's endpoint. */
async function upload(
  version: string,
  content: string | Uint8Array,
  lang: 'en' | 'zh' = 'en',
): Promise<Reply<FirmwareVersionDto & { field?: string }>> {
  const form = new FormData();
  form.append('file', new Blob([content]), `fw-${version}.bin`);
  const q = new URLSearchParams({ version, applicationType: 'AC charger', communicationType: '4G', note: 'test' });
  const res = await fetch(`${s.url}/prod-api${api.firmwareVersion.add.path}?${q}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'x-language': lang },
    body: form,
  });
  return (await res.json()) as Reply<FirmwareVersionDto & { field?: string }>;
}

describe('version management', () => {
  it('stores a package with its size and SHA-256, and serves it to chargers under its token with range requests', async () => {
    const content = `version: 2.0.1\n${'x'.repeat(10_000)}`;
    const r = await upload('2.0.1', content);
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({ version: '2.0.1', sizeBytes: content.length, fileName: 'fw-2.0.1.bin' });
    const { createHash } = await import('node:crypto');
    expect(r.data.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(r.data.location).toMatch(new RegExp(`^${s.url}/files/firmware/[0-9a-f]{64}/fw-2\\.0\\.1\\.bin$`));

    // What a charger fetches: no session, the whole file or a range of it.
    const whole = await fetch(r.data.location);
    expect(whole.status).toBe(200);
    expect(await whole.text()).toBe(content);
    const part = await fetch(r.data.location, { headers: { range: 'bytes=0-13' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('version: 2.0.1');
    expect((await fetch(r.data.location.replace(/[0-9a-f]{64}/, '0'.repeat(64)))).status).toBe(404);

    // The console's download needs the session.
    const dl = await fetch(`${s.url}/prod-api${api.firmwareVersion.download.path}?id=${r.data.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(await dl.text()).toBe(content);

    const list = await get<{ list: FirmwareVersionDto[] }>(`${api.firmwareVersion.list.path}?page=1&limit=10&version=2.0`);
    expect(list.data.list.map((v) => v.version)).toContain('2.0.1');
  });

  it('refuses a version twice, a missing file, and removing a package an upgrade uses, naming the field', async () => {
    expect((await upload('3.0.0', 'version: 3.0.0')).code).toBe(200);
    const twice = await upload('3.0.0', 'again', 'zh');
    expect(twice.code).not.toBe(200);
    expect((twice.data as { field?: string }).field).toBe('version');
    expect(twice.msg).toBe('版本 3.0.0 已存在');
    const empty = await upload('3.0.1', '');
    expect((empty.data as { field?: string }).field).toBe('file');

    const v = await upload('3.1.0', 'version: 3.1.0');
    const p = await createPoint(s.database.db, { connectors: 1 });
    const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, { serialNumbers: [p.serialNumber], versionId: v.data.id });
    expect(up.code, up.msg).toBe(200);
    const removed = await post(api.firmwareVersion.remove, { ids: [v.data.id] });
    expect(removed.code).not.toBe(200);
    expect(removed.msg).toBe(`Version 3.1.0 is used by upgrade ${up.data.id} and cannot be removed`);
  });
});

describe('firmware upgrades', () => {
  it('keeps an offline point pending, refuses a retrieve date in the past and a URL that is not one', async () => {
    const p = await createPoint(s.database.db, { connectors: 1 });
    const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, {
      serialNumbers: [p.serialNumber],
      location: 'https://firmware.example.com/fw.bin',
      retries: 2,
      retryInterval: 30,
    });
    expect(up.code, up.msg).toBe(200);
    expect(up.data).toMatchObject({ total: 1, location: 'https://firmware.example.com/fw.bin' });
    const points = await eventually(async () => {
      const r = await get<FirmwareUpgradePointDto[]>(`${api.firmwareUpgrade.points.path}?id=${up.data.id}`);
      return r.data.length ? r.data : undefined;
    });
    expect(points[0]).toMatchObject({ serialNumber: p.serialNumber, state: 'pending' });

    const past = await post<{ field: string }>(api.firmwareUpgrade.add, {
      serialNumbers: [p.serialNumber],
      location: 'https://firmware.example.com/fw.bin',
      retrieveDate: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(past.data.field).toBe('retrieveDate');
    const bad = await post<{ field: string }>(
      api.firmwareUpgrade.add,
      { serialNumbers: [p.serialNumber], location: 'file:///etc/passwd' },
      'zh',
    );
    expect(bad.data.field).toBe('location');
    expect(bad.msg).toBe('下载地址须是 http、https、ftp 或 ftps 地址');
    const none = await post<{ field: string }>(api.firmwareUpgrade.add, { serialNumbers: [p.serialNumber] });
    expect(none.data.field).toBe('versionId');
  });
});

describe('an upgrade over real sockets and a real download', () => {
  const pointsOf = async (id: number) => (await get<FirmwareUpgradePointDto[]>(`${api.firmwareUpgrade.points.path}?id=${id}`)).data;

  it('takes a charger from download to the new version, and marks one that refuses the file as failed, to retry', async () => {
    const content = `version: 4.2.0\n${'f'.repeat(50_000)}`;
    const v = await upload('4.2.0', content);
    const good = await charger();
    // This one expects another file: it downloads, then refuses to install (InstallationFailed).
    const picky = await charger({ expectSha256: 'f'.repeat(64) });
    const statuses: string[] = [];
    good.sim.on('firmware', (e) => statuses.push(e.status));

    const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, {
      serialNumbers: [good.serialNumber, picky.serialNumber],
      versionId: v.data.id,
      retries: 0,
    });
    expect(up.code, up.msg).toBe(200);
    const done = await eventually(async () => {
      const points = await pointsOf(up.data.id);
      const g = points.find((x) => x.serialNumber === good.serialNumber);
      const p = points.find((x) => x.serialNumber === picky.serialNumber);
      return g?.state === 'confirmed' && p?.state === 'InstallationFailed' ? { g, p } : undefined;
    }, 30_000);
    expect(done.g).toMatchObject({ fromVersion: '1.0.0', reportedVersion: '4.2.0' });
    expect(statuses).toEqual(['Downloading', 'Downloaded', 'Installing', 'Installed']);
    const [row] = await s.database.db.select({ v: chargePoint.firmwareVersion }).from(chargePoint).where(eq(chargePoint.id, good.pointId));
    expect(row!.v).toBe('4.2.0');
    const summary = (await get<FirmwareUpgradeDto>(`${api.firmwareUpgrade.get.path}?id=${up.data.id}`)).data;
    expect(summary.counts).toEqual({ confirmed: 1, InstallationFailed: 1 });

    // Retry: only the failed point is sent the upgrade again; it now accepts the file.
    picky.sim.configureFirmware({});
    const retried = await post<{ retried: number }>(api.firmwareUpgrade.retry, { id: up.data.id });
    expect(retried.data.retried).toBe(1);
    await eventually(async () => (await pointsOf(up.data.id)).every((x) => x.state === 'confirmed'), 30_000);
    expect(statuses.filter((x) => x === 'Installed')).toHaveLength(1);
  });
});
