import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerFixture } from './testing/charger-fixture.js';
import { closedPort, startFtpFileServer, startHttpFileServer, type FtpFileServer, type HttpFileServer } from './testing/file-servers.js';
import { settle } from './testing/helpers.js';

const SN = 'CP-DIAG/1';
const f = chargerFixture(SN, { connectors: 2 });

let http: HttpFileServer;
let ftp: FtpFileServer;

beforeAll(async () => {
  http = await startHttpFileServer({});
  ftp = await startFtpFileServer();
  await mkdir(join(ftp.root, 'logs'));
});
afterAll(async () => {
  await http.close();
  await ftp.close();
});

const iso = (ms: number) => new Date(ms).toISOString();
const heard = () => f.csms.of(SN, 'DiagnosticsStatusNotification').map((r) => r.payload.status);
const mark = () => f.csms.received.length;
async function heardNth(status: string, n = 1, from = 0) {
  let hit;
  for (let i = 0; i < n; i++) {
    hit = await f.csms.waitFor(SN, 'DiagnosticsStatusNotification', (p) => p.status === status, from);
    from = f.csms.received.indexOf(hit) + 1;
  }
  return hit!;
}
const FILE_NAME = 'diagnostics-CP-DIAG_1-20260101T000000Z.log';

describe('GetDiagnostics', () => {
  it('answers with a file name and POSTs the file as multipart/form-data to the location', async () => {
    await f.boot();
    await f.cp.startCharging(1, 'TAG-DIAG');
    await settle(f.cp);
    const window = { startTime: iso(f.clock.now() - 3_600_000), stopTime: iso(f.clock.now()) };
    expect(await f.call('GetDiagnostics', { location: http.url('/upload/diag'), ...window })).toEqual({ result: { fileName: FILE_NAME } });
    const upload = await http.upload();
    await heardNth('Uploaded');
    expect(heard()).toEqual(['Uploading', 'Uploaded']);
    expect(upload).toMatchObject({ path: '/upload/diag', field: 'file', fileName: FILE_NAME });
    const lines = upload.content.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `# Diagnostics of charge point ${SN}`,
        'window: 2025-12-31T23:00:00.000Z .. 2026-01-01T00:00:00.000Z',
        'firmwareVersion: 1.0.0',
        'connection: open',
        'HeartbeatInterval=300',
        'NumberOfConnectors=2 (read-only)',
      ]),
    );
    expect(upload.content).toMatch(/^1 Charging NoError energy=0Wh power=22000W plugged operative transactionId=101 idTag=TAG-DIAG/m);
    expect(upload.content).toMatch(/^2 Available NoError/m);
    expect(upload.content.length).toBeGreaterThan(1000);
    expect(http.requests).toEqual(['POST /upload/diag']);
    expect(f.cp.state().diagnosticsStatus).toBe('Idle');
  });

  it('sends UploadFailed on an HTTP error and tries `retries` more times, retryInterval apart', async () => {
    await f.boot();
    const failed = f.cp.next('diagnostics', (e) => e.status === 'UploadFailed');
    const before = http.requests.length;
    expect((await f.call('GetDiagnostics', { location: http.url('/broken'), retries: 1, retryInterval: 20 })).result).toEqual({
      fileName: FILE_NAME,
    });
    await heardNth('UploadFailed');
    expect(await failed).toMatchObject({ attempt: 1, fileName: FILE_NAME, error: { message: `POST ${http.url('/broken')}: HTTP 500` } });
    f.clock.advance(19_000);
    await settle(f.cp);
    expect(heard()).toEqual(['Uploading', 'UploadFailed']);
    f.clock.advance(1000);
    await heardNth('UploadFailed', 2);
    expect(heard()).toEqual(['Uploading', 'UploadFailed', 'Uploading', 'UploadFailed']);
    f.clock.advance(600_000);
    expect(f.cp.state().diagnosticsStatus).toBe('Idle');
    expect(http.requests.slice(before)).toEqual(['POST /broken', 'POST /broken']);
  });

  it('fails on a refused connection and answers a malformed request with the matching CALLERROR', async () => {
    await f.boot();
    await f.call('GetDiagnostics', { location: `http://127.0.0.1:${await closedPort()}/upload` });
    await heardNth('UploadFailed');
    expect(heard()).toEqual(['Uploading', 'UploadFailed']);
    expect(await f.answer('GetDiagnostics', {})).toBe('OccurenceConstraintViolation');
    expect(await f.answer('GetDiagnostics', { location: http.url('/upload'), startTime: 'yesterday' })).toBe('PropertyConstraintViolation');
    expect(await f.answer('GetDiagnostics', { location: http.url('/upload'), retries: 1.5 })).toBe('TypeConstraintViolation');
  });

  it('reports Idle to TriggerMessage when no upload is going on', async () => {
    await f.boot();
    expect(await f.answer('TriggerMessage', { requestedMessage: 'DiagnosticsStatusNotification' })).toBe('Accepted');
    expect((await heardNth('Idle')).payload).toEqual({ status: 'Idle' });
  });

  it('uploads over FTP into the directory of the location, with its user and password', async () => {
    await f.boot();
    f.clock.advance(90_000);
    const fileName = 'diagnostics-CP-DIAG_1-20260101T000130Z.log';
    expect((await f.call('GetDiagnostics', { location: ftp.url('/logs/') })).result).toEqual({ fileName });
    await heardNth('Uploaded');
    expect(heard()).toEqual(['Uploading', 'Uploaded']);
    expect(await readdir(join(ftp.root, 'logs'))).toEqual([fileName]);
    const content = await readFile(join(ftp.root, 'logs', fileName), 'utf8');
    expect(content).toContain(`# Diagnostics of charge point ${SN}\ngeneratedAt: 2026-01-01T00:01:30.000Z\nwindow: open .. open\n`);

    const from = mark();
    await f.call('GetDiagnostics', { location: ftp.url('/no-such-dir/') });
    await heardNth('UploadFailed', 1, from);
  });
});
