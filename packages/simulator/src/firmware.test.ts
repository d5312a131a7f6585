import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareVersionOf } from './firmware.js';
import { chargerFixture } from './testing/charger-fixture.js';
import {
  closedPort,
  sha256,
  startFtpFileServer,
  startHttpFileServer,
  type FtpFileServer,
  type HttpFileServer,
} from './testing/file-servers.js';
import { settle } from './testing/helpers.js';

const SN = 'CP-FW';
const f = chargerFixture(SN, { connectors: 1, rebootDelayMs: 5000 });

const NAMED = 'version: 2.0.1-sim\r\n' + 'x'.repeat(100_000);
const UNNAMED = Buffer.alloc(70_000, 7);
let http: HttpFileServer;
let ftp: FtpFileServer;

beforeAll(async () => {
  http = await startHttpFileServer({ '/fw/named.bin': NAMED, '/fw/fw-3.1.0.bin': UNNAMED }, ['/fw/slow.bin']);
  ftp = await startFtpFileServer();
  await mkdir(join(ftp.root, 'fw'));
  await writeFile(join(ftp.root, 'fw', 'fw-4.0.bin'), 'Version=4.0-ftp\nimage');
});
afterAll(async () => {
  await http.close();
  await ftp.close();
});

const iso = (ms: number) => new Date(ms).toISOString();
const past = () => iso(f.clock.now() - 60_000);
/** The statuses the CSMS has heard, in order. */
const heard = () => f.csms.of(SN, 'FirmwareStatusNotification').map((r) => r.payload.status);
const mark = () => f.csms.received.length;
/** Resolves with the n-th FirmwareStatusNotification of `status` sent from index `from` on. */
async function heardNth(status: string, n = 1, from = 0) {
  let hit;
  for (let i = 0; i < n; i++) {
    hit = await f.csms.waitFor(SN, 'FirmwareStatusNotification', (p) => p.status === status, from);
    from = f.csms.received.indexOf(hit) + 1;
  }
  return hit!;
}
const update = (location: string, extra: Record<string, unknown> = {}) =>
  f.call('UpdateFirmware', { location, retrieveDate: past(), ...extra });

/** Waits for the reboot an install ends with and the boot after it; returns the new boot's payload. */
async function rebootAfterInstall(offline: Promise<unknown>) {
  await offline;
  const boot = f.csms.waitFor(SN, 'BootNotification', undefined, mark());
  f.clock.advance(5000);
  const payload = (await boot).payload;
  await f.cp.ready();
  return payload;
}

describe('UpdateFirmware', () => {
  it('downloads over HTTP, installs, reboots and boots with the version the file names', async () => {
    await f.boot();
    const events: string[] = [];
    f.cp.on('firmware', (e) => events.push(e.status));
    const offline = f.cp.next('connection', (c) => c.state === 'offline');
    const reset = f.cp.next('reset');
    expect(await update(http.url('/fw/named.bin'))).toEqual({ result: {} });
    const boot = await rebootAfterInstall(offline);
    expect(await reset).toEqual({ type: 'Hard' });
    expect(heard()).toEqual(['Downloading', 'Downloaded', 'Installing', 'Installed']);
    expect(events).toEqual(heard());
    expect(boot).toMatchObject({ chargePointSerialNumber: SN, firmwareVersion: '2.0.1-sim' });
    expect(f.csms.of(SN, 'BootNotification').map((r) => r.payload.firmwareVersion)).toEqual(['1.0.0', '2.0.1-sim']);
    expect(f.cp.state().firmware).toEqual({ version: '2.0.1-sim', status: 'Idle' });
    expect(http.requests.filter((r) => r === 'GET /fw/named.bin')).toHaveLength(1);
  });

  it('reports the size and SHA-256 it downloaded, and takes the version from the URL when the file names none', async () => {
    await f.boot({ firmwareVersion: '0.9' });
    const downloaded = f.cp.next('firmware', (e) => e.status === 'Downloaded');
    const offline = f.cp.next('connection', (c) => c.state === 'offline');
    await update(http.url('/fw/fw-3.1.0.bin'));
    expect(await downloaded).toMatchObject({ bytes: UNNAMED.length, sha256: sha256(UNNAMED), attempt: 1 });
    expect((await rebootAfterInstall(offline)).firmwareVersion).toBe('fw-3.1.0');
  });

  it('waits for retrieveDate', async () => {
    await f.boot();
    const from = mark();
    await update(http.url('/fw/named.bin'), { retrieveDate: iso(f.clock.now() + 3_600_000) });
    f.clock.advance(3_599_000);
    await settle(f.cp);
    expect(heard()).toEqual([]);
    expect(f.cp.state().firmware.status).toBe('Idle');
    const offline = f.cp.next('connection', (c) => c.state === 'offline');
    f.clock.advance(1000);
    await heardNth('Installed', 1, from);
    await rebootAfterInstall(offline);
    expect(f.cp.state().firmware.version).toBe('2.0.1-sim');
  });

  it('sends DownloadFailed on a 404 and tries `retries` more times, retryInterval apart, each starting with Downloading', async () => {
    await f.boot();
    await update(http.url('/fw/missing.bin'), { retries: 2, retryInterval: 30 });
    await heardNth('DownloadFailed', 1);
    f.clock.advance(29_000);
    await settle(f.cp);
    expect(heard()).toEqual(['Downloading', 'DownloadFailed']);
    f.clock.advance(1000);
    await heardNth('DownloadFailed', 2);
    f.clock.advance(30_000);
    await heardNth('DownloadFailed', 3);
    expect(heard()).toEqual(['Downloading', 'DownloadFailed', 'Downloading', 'DownloadFailed', 'Downloading', 'DownloadFailed']);
    expect(f.cp.state().firmware).toEqual({ version: '1.0.0', status: 'Idle' });
    f.clock.advance(600_000);
    expect(f.cp.state().firmware.status).toBe('Idle'); // a further try would be Downloading by now
    await settle(f.cp);
    expect(heard()).toHaveLength(6);
    expect(http.requests.filter((r) => r === 'GET /fw/missing.bin')).toHaveLength(3);
    expect(f.csms.of(SN, 'BootNotification')).toHaveLength(1);
  });

  it('fails to download from a refused connection, a bad URL or an unknown scheme, without retries by default', async () => {
    await f.boot();
    const failed: string[] = [];
    f.cp.on('firmware', (e) => e.status === 'DownloadFailed' && failed.push(e.error!.message));
    for (const location of [`http://127.0.0.1:${await closedPort()}/fw.bin`, 'not a url', 'gopher://127.0.0.1/fw.bin']) {
      const from = mark();
      await update(location);
      await heardNth('DownloadFailed', 1, from);
    }
    expect(heard()).toEqual(['Downloading', 'DownloadFailed', 'Downloading', 'DownloadFailed', 'Downloading', 'DownloadFailed']);
    expect(failed[0]).toMatch(/fetch failed/);
    expect(failed.slice(1)).toEqual(['not a URL: not a url', 'unsupported scheme gopher:']);
    expect(f.cp.state().firmware).toEqual({ version: '1.0.0', status: 'Idle' });
  });

  it('answers a malformed request with the matching CALLERROR', async () => {
    await f.boot();
    expect(await f.answer('UpdateFirmware', { retrieveDate: past() })).toBe('OccurenceConstraintViolation');
    expect(await f.answer('UpdateFirmware', { location: http.url('/fw/named.bin'), retrieveDate: 'tomorrow' })).toBe(
      'PropertyConstraintViolation',
    );
    expect(await f.answer('UpdateFirmware', { location: http.url('/fw/named.bin'), retrieveDate: past(), retries: -1 })).toBe(
      'PropertyConstraintViolation',
    );
    expect(await f.answer('UpdateFirmware', { location: http.url('/fw/named.bin'), retrieveDate: past(), retryInterval: '5' })).toBe(
      'TypeConstraintViolation',
    );
    expect(heard()).toEqual([]);
  });
});

describe('failing installs', () => {
  it('fails to install a file whose SHA-256 is not the expected one: no reboot, version unchanged; the right one installs', async () => {
    await f.boot({ firmware: { expectSha256: 'ab'.repeat(32) } });
    const failed = f.cp.next('firmware', (e) => e.status === 'InstallationFailed');
    await update(http.url('/fw/named.bin'));
    await heardNth('InstallationFailed');
    expect((await failed).error!.message).toContain('is not the expected');
    expect(heard()).toEqual(['Downloading', 'Downloaded', 'Installing', 'InstallationFailed']);
    await settle(f.cp);
    expect(f.cp.state()).toMatchObject({ connection: 'open', firmware: { version: '1.0.0', status: 'Idle' } });
    expect(f.csms.of(SN, 'BootNotification')).toHaveLength(1);

    f.cp.configureFirmware({ expectSha256: sha256(NAMED).toUpperCase() });
    const offline = f.cp.next('connection', (c) => c.state === 'offline');
    await update(http.url('/fw/named.bin'));
    expect((await rebootAfterInstall(offline)).firmwareVersion).toBe('2.0.1-sim');
  });

  it('fails every install when told to', async () => {
    await f.boot({ firmware: { failInstall: true } });
    await update(http.url('/fw/named.bin'), { retries: 3 });
    await heardNth('InstallationFailed');
    expect(heard()).toEqual(['Downloading', 'Downloaded', 'Installing', 'InstallationFailed']);
    expect(f.cp.state().firmware).toEqual({ version: '1.0.0', status: 'Idle' });
  });
});

describe('an update in progress', () => {
  it('reports its status to TriggerMessage (Idle when none), and a second UpdateFirmware replaces it', async () => {
    await f.boot();
    const trigger = async () => {
      const from = mark();
      expect(await f.answer('TriggerMessage', { requestedMessage: 'FirmwareStatusNotification' })).toBe('Accepted');
      return (await f.csms.waitFor(SN, 'FirmwareStatusNotification', undefined, from)).payload.status;
    };
    expect(await trigger()).toBe('Idle');

    await update(http.url('/fw/slow.bin'), { retries: 5, retryInterval: 10 });
    await heardNth('Downloading');
    expect(await trigger()).toBe('Downloading');
    expect(f.cp.state().firmware.status).toBe('Downloading');

    const offline = f.cp.next('connection', (c) => c.state === 'offline');
    await update(http.url('/fw/named.bin'));
    await http.dropped('/fw/slow.bin'); // the first download is abandoned
    await rebootAfterInstall(offline);
    expect(heard()).toEqual(['Idle', 'Downloading', 'Downloading', 'Downloading', 'Downloaded', 'Installing', 'Installed']);
    expect(f.cp.state().firmware).toEqual({ version: '2.0.1-sim', status: 'Idle' });
    expect(await trigger()).toBe('Idle');
    f.clock.advance(600_000); // no retry of the replaced update
    expect(f.cp.state().firmware.status).toBe('Idle');
  });

  it('replaces one that waits for its retrieveDate', async () => {
    await f.boot();
    const before = http.requests.length;
    await update(http.url('/fw/named.bin'), { retrieveDate: iso(f.clock.now() + 60_000) });
    await update(http.url('/fw/missing.bin'), { retrieveDate: iso(f.clock.now() + 120_000) });
    f.clock.advance(60_000);
    expect(f.cp.state().firmware.status).toBe('Idle');
    f.clock.advance(60_000);
    await heardNth('DownloadFailed');
    expect(http.requests.slice(before)).toEqual(['GET /fw/missing.bin']);
  });
});

describe('over FTP', () => {
  it('downloads with the user and password of the URL, installs and boots with the new version', async () => {
    await f.boot();
    const offline = f.cp.next('connection', (c) => c.state === 'offline');
    await update(ftp.url('/fw/fw-4.0.bin'));
    expect((await rebootAfterInstall(offline)).firmwareVersion).toBe('4.0-ftp');
    expect(heard()).toEqual(['Downloading', 'Downloaded', 'Installing', 'Installed']);
  });

  it('sends DownloadFailed for a missing file or a wrong password', async () => {
    await f.boot();
    const failed: string[] = [];
    f.cp.on('firmware', (e) => e.status === 'DownloadFailed' && failed.push(e.error!.message));
    await update(ftp.url('/fw/none.bin'), { retries: 1, retryInterval: 5 });
    await heardNth('DownloadFailed');
    f.clock.advance(5000);
    await heardNth('DownloadFailed', 2);
    const from = mark();
    await update(ftp.url('/fw/fw-4.0.bin').replace('sim:', 'sim:wrong'));
    await heardNth('DownloadFailed', 1, from);
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatch(/^5\d\d /);
    expect(f.cp.state().firmware).toEqual({ version: '1.0.0', status: 'Idle' });
  });
});

describe('firmwareVersionOf', () => {
  it('reads a version line in any case, with : or =, else the file name without its extension', () => {
    const url = 'https://cdn.example/fw/fw-2.0.1.bin?token=1';
    expect(firmwareVersionOf(Buffer.from('version: 7.1\nrest'), url)).toBe('7.1');
    expect(firmwareVersionOf(Buffer.from('VERSION=7.2-rc1\r\n'), url)).toBe('7.2-rc1');
    expect(firmwareVersionOf(Buffer.from('Version :  8 beta \n'), url)).toBe('8 beta');
    expect(firmwareVersionOf(Buffer.from('firmware image\nversion: 9'), url)).toBe('fw-2.0.1');
    expect(firmwareVersionOf(Buffer.from('version:\n'), url)).toBe('fw-2.0.1');
    expect(firmwareVersionOf(Buffer.from(''), 'ftp://h/dir/image')).toBe('image');
    expect(firmwareVersionOf(Buffer.from(''), 'ftp://h/dir/fw%20v3.tar.gz')).toBe('fw v3.tar');
    expect(firmwareVersionOf(Buffer.from(`version: ${'9'.repeat(80)}`), url)).toHaveLength(50);
    expect(firmwareVersionOf(Buffer.from(''), 'http://h/')).toBeUndefined();
  });
});
