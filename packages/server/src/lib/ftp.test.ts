import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFtpServer, type FtpServer } from './ftp.js';
import { freePort } from '../../test/support/ports.js';

/*
 * The embedded FTP server's write grant (a diagnostics upload): a file up to the grant's size is
 * stored and reported; a larger one is refused with 550 and leaves nothing on disk, as the HTTP
 * upload answers 413.
 */

let server: FtpServer;
let port: number;
let root: string;
const stored: string[] = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-ftp-'));
  port = await freePort();
  // Passive ports: a band of its own, away from the ephemeral range the system hands out.
  const pasvMin = 30_000 + Math.floor(Math.random() * 400) * 50;
  server = createFtpServer({
    port,
    host: '127.0.0.1',
    pasvUrl: '127.0.0.1',
    pasvMin,
    pasvMax: pasvMin + 49,
    onError: () => {},
    login: async (user, password) =>
      user === 'diag1' && password === 'token'
        ? { mode: 'write', root, maxBytes: 1000, onStored: (file) => void stored.push(file) }
        : undefined,
  });
  await server.start();
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

async function upload(name: string, bytes: number) {
  const client = new Client(10_000);
  try {
    await client.access({ host: '127.0.0.1', port, user: 'diag1', password: 'token' });
    return await client.uploadFrom(Readable.from([Buffer.alloc(bytes, 120)]), name);
  } finally {
    client.close();
  }
}

describe('FTP uploads', () => {
  it('stores a file within the grant’s size, and refuses a larger one leaving nothing behind', async () => {
    const ok = await upload('small.log', 1000);
    expect(ok.code).toBe(226);
    expect(fs.statSync(path.join(root, 'small.log')).size).toBe(1000);
    await expect.poll(() => stored.map((f) => path.basename(f))).toEqual(['small.log']);

    // The server cuts the data connection (the client may see that before the 550 on the control one).
    await expect(upload('large.log', 200_000)).rejects.toThrow(/550|too large|ECONNRESET|EPIPE/i);
    await expect.poll(() => fs.existsSync(path.join(root, 'large.log'))).toBe(false);
    expect(stored.map((f) => path.basename(f))).toEqual(['small.log']);
  });

  it('refuses a wrong password', async () => {
    const client = new Client(10_000);
    try {
      await expect(client.access({ host: '127.0.0.1', port, user: 'diag1', password: 'wrong' })).rejects.toThrow();
    } finally {
      client.close();
    }
  });
});
