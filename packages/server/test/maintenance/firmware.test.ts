import http from 'node:http';
import type net from 'node:net';
import {
  allPermissions,
  api,
  type FirmwareUpgradeDto,
  type FirmwareUpgradePointDto,
  type FirmwareVersionDto,
  type PointOption,
} from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { chargePoint, firmwareUpgrade, firmwareUpgradePoint, firmwareVersion } from '../../src/db/schema.js';
import { createOperator, createProvider, createRole, createUser } from '../fixtures.js';
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
async function charger(firmware: { expectSha256?: string } = {}, on: TestServer = s, ocppVersion: '1.6' | '2.0.1' = '1.6') {
  const p = await createPoint(on.database.db, { connectors: 1 });
  const sim = createChargePoint({
    ocppVersion,
    url: `${on.url.replace(/^http/, 'ws')}/ocpp`,
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

  it('takes a charger from download to the new version, and marks one that refuses the file as failed, to retry; the same over OCPP 2.0.1', async () => {
    const content = `version: 4.2.0\n${'f'.repeat(50_000)}`;
    const v = await upload('4.2.0', content);
    const good = await charger();
    // This one (speaking 2.0.1) expects another file: it downloads, then refuses to install (InstallationFailed).
    const picky = await charger({ expectSha256: 'f'.repeat(64) }, s, '2.0.1');
    const [spoken] = await s.database.db.select({ v: chargePoint.ocppVersion }).from(chargePoint).where(eq(chargePoint.id, picky.pointId));
    expect(spoken!.v).toBe('2.0.1');
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

/** Counts each UpdateFirmware a simulated charger receives, into `log` as `<name>:update`, and its Installed as `<name>:installed`. */
function follow(sim: ChargePoint, name: string, log: string[]) {
  sim.on('traffic', (e) => {
    if (e.type === 'callReceived' && e.action === 'UpdateFirmware') log.push(`${name}:update`);
  });
  sim.on('firmware', (e) => {
    if (e.status === 'Installed') log.push(`${name}:installed`);
  });
  return () => log.filter((x) => x === `${name}:update`).length;
}

/** A package on a server of the test's own, held back until `release()`: the points that fetch it stay downloading meanwhile. */
async function heldPackage(version: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const fetched: string[] = [];
  const files = http.createServer((req, res) => {
    fetched.push(req.url ?? '');
    void held.then(() => res.end(`version: ${version}\n${'z'.repeat(5_000)}`));
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  const location = `http://127.0.0.1:${(files.address() as net.AddressInfo).port}/fw-${version}.bin`;
  return {
    location,
    fetched,
    release,
    close: () => {
      release();
      files.close();
    },
  };
}

describe('an upgrade in waves', () => {
  const pointsOf = async (id: number, on: TestServer = s, token = admin) =>
    (await on.call<FirmwareUpgradePointDto[]>('GET', `${api.firmwareUpgrade.points.path}?id=${id}`, { token })).data;

  it('refuses a wave size that is not a whole number of points, or more than the points, naming it in both languages', async () => {
    const a = await createPoint(s.database.db, { connectors: 1 });
    const b = await createPoint(s.database.db, { connectors: 1 });
    const body = { serialNumbers: [a.serialNumber, b.serialNumber], location: 'https://firmware.example.com/fw.bin' };
    const cases = [
      [{ waveSize: 0 }, 'Points per wave must be a whole number, at least 1', '每批充电桩数须是不小于 1 的整数'],
      [{ waveSize: 1.5 }, 'Points per wave must be a whole number, at least 1', '每批充电桩数须是不小于 1 的整数'],
      [{ waveSize: 3 }, 'Points per wave cannot be more than the points chosen (2)', '每批充电桩数不能多于所选充电桩数（2）'],
    ] as const;
    for (const [extra, en, zh] of cases) {
      const r1 = await post<{ field: string }>(api.firmwareUpgrade.add, { ...body, ...extra });
      expect([r1.code, r1.data.field, r1.msg]).toEqual([400, 'waveSize', en]);
      const r2 = await post<{ field: string }>(api.firmwareUpgrade.add, { ...body, ...extra }, 'zh');
      expect([r2.code, r2.data.field, r2.msg]).toEqual([400, 'waveSize', zh]);
    }
    const time = await post<{ field: string }>(api.firmwareUpgrade.add, { ...body, waveSize: 1, waveTimeoutMinutes: 0 });
    expect([time.code, time.data.field]).toEqual([400, 'waveTimeoutMinutes']);
    // All the points in one wave is one wave; the points go in the order chosen.
    const one = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, {
      ...body,
      serialNumbers: [b.serialNumber, a.serialNumber],
      waveSize: 1,
    });
    expect(one.data).toMatchObject({
      waveSize: 1,
      waveTimeoutMinutes: 60,
      currentWave: 1,
      waveCount: 2,
      counts: { pending: 1, queued: 1 },
    });
    expect((await pointsOf(one.data.id)).map((x) => [x.serialNumber, x.wave, x.state])).toEqual([
      [b.serialNumber, 1, 'pending'],
      [a.serialNumber, 2, 'queued'],
    ]);
  });

  it('sends the next wave only once every point of the one before has installed', async () => {
    const pkg = await heldPackage('5.0.0');
    try {
      const log: string[] = [];
      const cs = [await charger(), await charger(), await charger()];
      const updates = cs.map((c, i) => follow(c.sim, `p${i}`, log));
      const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, {
        serialNumbers: cs.map((c) => c.serialNumber),
        location: pkg.location,
        waveSize: 2,
      });
      expect(up.code, up.msg).toBe(200);
      expect(up.data).toMatchObject({ waveSize: 2, currentWave: 1, waveCount: 2, counts: { pending: 2, queued: 1 } });

      // The first wave is sent and downloads; the third point waits for its wave meanwhile.
      await eventually(async () => pkg.fetched.length === 2 && updates[0]!() === 1 && updates[1]!() === 1);
      const during = await pointsOf(up.data.id);
      expect(during.find((x) => x.serialNumber === cs[2]!.serialNumber)).toMatchObject({ wave: 2, state: 'queued', sentTime: null });
      expect(updates[2]!()).toBe(0);

      pkg.release();
      const done = await eventually(async () => {
        const points = await pointsOf(up.data.id);
        return points.every((x) => x.state === 'confirmed') ? points : undefined;
      }, 60_000);
      expect(done.map((x) => [x.wave, x.reportedVersion])).toEqual([
        [1, '5.0.0'],
        [1, '5.0.0'],
        [2, '5.0.0'],
      ]);
      expect(updates.map((n) => n())).toEqual([1, 1, 1]);
      // The third was sent after both of the first wave had installed.
      const third = log.indexOf('p2:update');
      expect(third).toBeGreaterThan(log.indexOf('p0:installed'));
      expect(third).toBeGreaterThan(log.indexOf('p1:installed'));
      const summary = (await get<FirmwareUpgradeDto>(`${api.firmwareUpgrade.get.path}?id=${up.data.id}`)).data;
      expect(summary).toMatchObject({ currentWave: 2, waveCount: 2, counts: { confirmed: 3 } });
    } finally {
      pkg.close();
    }
  });

  it('after a restart mid-wave sends nothing twice, times out a dead charger and moves on; retry sends it again', async () => {
    // The first wave is still downloading when the server restarts.
    const pkg = await heldPackage('8.0.0');

    const first = await startServer();
    let second: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const token = await first.login();
      const port = Number(new URL(first.url).port);
      const log: string[] = [];
      const a = await charger({}, first);
      const dead = await createPoint(first.database.db, { connectors: 1 });
      const c = await charger({}, first);
      const updatesA = follow(a.sim, 'a', log);
      const updatesC = follow(c.sim, 'c', log);
      const boots = [a.sim, c.sim].map((sim) => {
        let n = 0;
        sim.on('registration', (e) => void (e.status === 'Accepted' && n++));
        return () => n;
      });
      const up = await first.call<FirmwareUpgradeDto>('POST', api.firmwareUpgrade.add.path, {
        token,
        body: {
          serialNumbers: [a.serialNumber, dead.serialNumber, c.serialNumber],
          location: pkg.location,
          waveSize: 2,
          waveTimeoutMinutes: 5,
        },
      });
      expect(up.code, up.msg).toBe(200);
      const id = up.data.id;
      const stateOf = async (sn: string) => (await pointsOf(id, first, token)).find((x) => x.serialNumber === sn)?.state;
      await eventually(async () => pkg.fetched.length === 1 && (await stateOf(a.serialNumber)) === 'Downloading');
      expect(await stateOf(dead.serialNumber)).toBe('pending');
      expect(await stateOf(c.serialNumber)).toBe('queued');

      // The server goes down; meanwhile the dead charger's wave runs past its time limit.
      await first.app.server.close();
      const past = new Date(Date.now() - 10 * 60_000);
      await first.database.db.update(firmwareUpgrade).set({ retrieveAt: past }).where(eq(firmwareUpgrade.id, id));
      await first.database.db
        .update(firmwareUpgradePoint)
        .set({ releasedAt: past })
        .where(and(eq(firmwareUpgradePoint.upgradeId, id), eq(firmwareUpgradePoint.chargePointId, dead.point.id)));
      second = await buildApp({ config: first.config, database: first.database });
      await second.server.listen({ port, host: '127.0.0.1' });

      // The start-up sweep timed the dead charger out; the others reconnect and boot, and are sent nothing again.
      await eventually(async () => boots.every((n) => n() === 1));
      expect(await stateOf(dead.serialNumber)).toBe('timedOut');
      expect(await stateOf(a.serialNumber)).toBe('Downloading');
      expect(await stateOf(c.serialNumber)).toBe('queued');
      expect([updatesA(), updatesC()]).toEqual([1, 0]);

      // The download finishes: the first point installs, which ends its wave, and the second wave goes out.
      pkg.release();
      const points = await eventually(async () => {
        const all = await pointsOf(id, first, token);
        return all.filter((x) => x.state === 'confirmed').length === 2 ? all : undefined;
      }, 60_000);
      expect(points.map((x) => [x.serialNumber, x.wave, x.state])).toEqual([
        [a.serialNumber, 1, 'confirmed'],
        [dead.serialNumber, 1, 'timedOut'],
        [c.serialNumber, 2, 'confirmed'],
      ]);
      expect([updatesA(), updatesC()]).toEqual([1, 1]);
      expect(log.indexOf('c:update')).toBeGreaterThan(log.indexOf('a:installed'));

      // A timed-out point counts as failed: retry releases it again (pending until it connects).
      const retried = await first.call<{ retried: number }>('POST', api.firmwareUpgrade.retry.path, { token, body: { id } });
      expect(retried.data.retried).toBe(1);
      const summary = (await first.call<FirmwareUpgradeDto>('GET', `${api.firmwareUpgrade.get.path}?id=${id}`, { token })).data;
      expect(summary).toMatchObject({ currentWave: 2, waveCount: 2, waveTimeoutMinutes: 5, counts: { confirmed: 2, pending: 1 } });
    } finally {
      await Promise.all(sims.splice(0).map((x) => x.stop()));
      await second?.server.close();
      await first.close();
      pkg.close();
    }
  });
});

describe('the upgrade’s point picker and the exports', () => {
  it('narrows the points by model and by the firmware version they reported', async () => {
    const a = await createPoint(s.database.db, { connectors: 1 });
    const b = await createPoint(s.database.db, { connectors: 1, stationId: a.point.stationId });
    const c = await createPoint(s.database.db, { connectors: 1, stationId: a.point.stationId });
    const set = (id: number, model: string, firmwareVersion: string) =>
      s.database.db.update(chargePoint).set({ model, firmwareVersion }).where(eq(chargePoint.id, id));
    await set(a.point.id, 'AC-22', '1.0.0');
    await set(b.point.id, 'AC-22', '1.1.0');
    await set(c.point.id, 'DC-60', '1.0.0');
    const options = async (body: object) =>
      (await post<PointOption[]>(api.point.options, body)).data.map((x) => [x.serialNumber, x.model, x.firmwareVersion]);
    const station = a.point.stationId;
    expect(await options({ stationId: station, model: 'AC-22' })).toEqual([
      [a.serialNumber, 'AC-22', '1.0.0'],
      [b.serialNumber, 'AC-22', '1.1.0'],
    ]);
    expect(await options({ stationId: station, firmwareVersion: '1.0.0' })).toEqual([
      [a.serialNumber, 'AC-22', '1.0.0'],
      [c.serialNumber, 'DC-60', '1.0.0'],
    ]);
    expect(await options({ model: 'AC-22', firmwareVersion: '1.0.0' })).toEqual([[a.serialNumber, 'AC-22', '1.0.0']]);
  });

  it('exports the upgrades with their waves and counts in the caller’s language', async () => {
    const p = await createPoint(s.database.db, { connectors: 1 });
    const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, {
      serialNumbers: [p.serialNumber],
      location: 'https://firmware.example.com/export.bin',
      waveSize: 1,
      description: 'export me',
    });
    const res = await fetch(`${s.url}/prod-api${api.firmwareUpgrade.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': 'zh' },
      body: JSON.stringify({ format: 'csv' }),
    });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.split(',').slice(0, 3)).toEqual(['升级编号', '固件版本', '下载地址']);
    expect(lines[0]).toContain('每批充电桩数,当前批次');
    const row = lines.find((l) => l.startsWith(`${up.data.id},`))!;
    expect(row).toContain('https://firmware.example.com/export.bin');
    expect(row).toContain(',1,1/1,1,等待充电桩上线 1,export me,');
    expect(lines).toHaveLength(1 + (await get<{ total: number }>(`${api.firmwareUpgrade.list.path}?page=1&limit=10`)).data.total);
  });
});

describe('whose upgrade', () => {
  /** A package of a provider, written to the database: these checks need its owner, not its bytes. */
  async function packageOf(providerId: number) {
    const version = `9.${providerId}.${Math.floor(Math.random() * 1e6)}`;
    const [v] = await s.database.db
      .insert(firmwareVersion)
      .values({
        providerId,
        version,
        applicationType: 'AC charger',
        communicationType: '4G',
        storedName: `firmware/${version}.bin`,
        fileName: `${version}.bin`,
        sizeBytes: 1,
        sha256: '0'.repeat(64),
        token: Math.random().toString(16).slice(2).padEnd(64, '0'),
      })
      .returning();
    return v!.id;
  }

  it('belongs to its points’ provider: one provider per upgrade, a package of that provider or one above it', async () => {
    const db = s.database.db;
    const parent = await createProvider(db);
    const [c1, c2] = [await createProvider(db, { parentId: parent.id }), await createProvider(db, { parentId: parent.id })];
    const op = await createOperator(db, { providerId: parent.id, permissions: allPermissions });
    const token = await s.login(op.user.username, op.user.password);
    const own = await createPoint(db, { providerId: parent.id, connectors: 1 });
    const child = await createPoint(db, { providerId: c2.id, connectors: 1 });
    const add = (body: unknown) => s.call<FirmwareUpgradeDto>('POST', api.firmwareUpgrade.add.path, { token, body, lang: 'en' });
    const before = (await db.select().from(firmwareUpgrade)).length;

    // A sibling's package on another provider's charger: its file would go where its provider cannot see.
    const sibling = await add({ serialNumbers: [child.serialNumber], versionId: await packageOf(c1.id) });
    expect(sibling).toMatchObject({ code: 400, data: { field: 'versionId' } });
    expect(sibling.msg).toBe('The firmware version must be of the points’ provider or a provider above it');
    const mixed = await add({ serialNumbers: [own.serialNumber, child.serialNumber], location: 'https://fw.example.com/a.bin' });
    expect(mixed).toMatchObject({ code: 400, msg: 'The points of one upgrade must be of one provider', data: { field: 'serialNumbers' } });
    expect((await db.select().from(firmwareUpgrade)).length).toBe(before);

    // The parent's package on the child's charger: the child's upgrade, which the child's people see.
    const ok = await add({ serialNumbers: [child.serialNumber], versionId: await packageOf(parent.id) });
    expect(ok.code, ok.msg).toBe(200);
    expect(ok.data.providerId).toBe(c2.id);
  });

  it('is retried, by a user bound to stations, only at those stations', async () => {
    const db = s.database.db;
    const op = await createOperator(db, { permissions: allPermissions });
    const [x, y] = [
      await createPoint(db, { providerId: op.providerId, connectors: 1 }),
      await createPoint(db, { providerId: op.providerId, connectors: 1 }),
    ];
    const full = await s.login(op.user.username, op.user.password);
    const u = await s.call<FirmwareUpgradeDto>('POST', api.firmwareUpgrade.add.path, {
      token: full,
      body: { serialNumbers: [x.serialNumber, y.serialNumber], location: 'https://fw.example.com/b.bin' },
    });
    expect(u.code, u.msg).toBe(200);
    await db.update(firmwareUpgradePoint).set({ state: 'DownloadFailed' }).where(eq(firmwareUpgradePoint.upgradeId, u.data.id));
    const role = await createRole(db, { providerId: op.providerId, permissions: allPermissions });
    const bound = await createUser(db, { providerId: op.providerId, roleId: role.id, stationIds: [x.stationId] });
    const tb = await s.login(bound.username, bound.password);
    const retried = await s.call<{ retried: number }>('POST', api.firmwareUpgrade.retry.path, { token: tb, body: { id: u.data.id } });
    expect(retried.data).toEqual({ retried: 1 });
    const states = await db
      .select({ pointId: firmwareUpgradePoint.chargePointId, state: firmwareUpgradePoint.state })
      .from(firmwareUpgradePoint)
      .where(eq(firmwareUpgradePoint.upgradeId, u.data.id));
    expect(Object.fromEntries(states.map((r) => [r.pointId, r.state]))).toEqual({
      [x.point.id]: 'pending',
      [y.point.id]: 'DownloadFailed',
    });
  });
});
