import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startReaderServer, type ReaderServer, type ReaderServerOptions } from './server.js';
import { connect, refusal } from './test-client.js';

const servers: ReaderServer[] = [];
const logs: string[] = [];
async function start(options: Partial<ReaderServerOptions> = {}) {
  const server = await startReaderServer({ mode: 'simulated', port: 0, log: (l) => logs.push(l), ...options });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  logs.length = 0;
});

describe('protocol over a real WebSocket', () => {
  it('answers read with the simulated UIDs in turn, several reads on one connection', async () => {
    const server = await start({ uids: ['04a1b2c3', '04:11:22:33:44:55:66'] });
    expect(server.url).toBe(`ws://127.0.0.1:${server.port}`);
    const client = await connect(server.url);
    expect(await client.ask()).toEqual({ type: 'card', uid: '04A1B2C3' });
    expect(await client.ask()).toEqual({ type: 'card', uid: '04112233445566' });
    expect(await client.ask({ type: 'read', timeoutMs: 500 })).toEqual({ type: 'card', uid: '04A1B2C3' });
    client.close();
  });

  it('makes up a fresh 7-byte UID per read by default, and answers noCard with an empty list', async () => {
    const server = await start();
    const client = await connect(server.url);
    const a = await client.ask();
    const b = await client.ask();
    expect(a).toMatchObject({ type: 'card', uid: expect.stringMatching(/^04[0-9A-F]{12}$/) });
    expect(b).not.toEqual(a);
    server.setUids([]);
    expect(await client.ask()).toEqual({ type: 'error', code: 'noCard' });
    server.setUids(['0A0B0C0D']);
    expect(await client.ask()).toEqual({ type: 'card', uid: '0A0B0C0D' });
    expect(() => server.setUids(['not a uid'])).toThrow(/not a card UID/);
    client.close();
  });

  it('refuses bad messages with badRequest and keeps serving', async () => {
    const server = await start({ uids: ['04A1B2C3'] });
    const client = await connect(server.url);
    const bad: unknown[] = [
      'not json',
      '[1,2]',
      'null',
      { type: 'write' },
      {},
      { type: 'read', timeoutMs: 0 },
      { type: 'read', timeoutMs: 1.5 },
      { type: 'read', timeoutMs: '1000' },
      { type: 'read', timeoutMs: 10_000_000 },
    ];
    for (const message of bad) {
      expect(await client.ask(typeof message === 'string' ? message : JSON.stringify(message))).toMatchObject({
        type: 'error',
        code: 'badRequest',
        detail: expect.any(String),
      });
    }
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next()).toMatchObject({ type: 'error', code: 'badRequest', detail: expect.stringMatching(/binary/) });
    // Oversized frames end that connection (1009), not the companion.
    client.send('x'.repeat(10_000));
    expect(await client.closed).toBe(1009);
    const again = await connect(server.url);
    expect(await again.ask()).toEqual({ type: 'card', uid: '04A1B2C3' });
    again.close();
  });

  it('switches mode at run time', async () => {
    const server = await start({ uids: ['04A1B2C3'] });
    const client = await connect(server.url);
    await server.setMode('pcsc', { loadPcsc: () => Promise.reject(new Error('Cannot find package nfc-pcsc')) });
    expect(server.mode).toBe('pcsc');
    expect(await client.ask()).toMatchObject({ type: 'error', code: 'noDriver', detail: expect.stringMatching(/nfc-pcsc/) });
    expect(() => server.setUids(['04A1B2C3'])).toThrow(/simulated/);
    await server.setMode('simulated', { uids: ['0A0B0C0D'] });
    expect(await client.ask()).toEqual({ type: 'card', uid: '0A0B0C0D' });
    client.close();
  });
});

describe('keyboard mode through the server', () => {
  it('answers the pending read with the next line typed, and noCard after the timeout', async () => {
    const input = new PassThrough();
    const server = await start({ mode: 'keyboard', input, timeoutMs: 5_000 });
    const client = await connect(server.url);
    const answer = client.ask();
    // The read is registered once the frame arrives; type only after that.
    await new Promise((r) => setTimeout(r, 50));
    input.write('04 a1 b2 c3\n');
    expect(await answer).toEqual({ type: 'card', uid: '04A1B2C3' });
    // The request may ask for less than the companion's own timeout.
    expect(await client.ask({ type: 'read', timeoutMs: 30 })).toEqual({ type: 'error', code: 'noCard' });
    client.close();
  });
});

describe('who may connect', () => {
  it('lets in pages of this computer and the configured console, refuses every other origin with 403', async () => {
    const server = await start({ uids: ['04A1B2C3'], origins: ['https://csms.example.com/index'] });
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1:8080', 'http://[::1]', 'https://csms.example.com']) {
      const client = await connect(server.url, origin);
      expect(await client.ask()).toEqual({ type: 'card', uid: '04A1B2C3' });
      client.close();
    }
    for (const origin of ['https://evil.example', 'http://csms.example.com', 'https://csms.example.com:8443', 'null', 'file://']) {
      expect(await refusal(server.url, origin)).toBe(403);
    }
    expect(logs.some((l) => l.includes('--origin https://evil.example'))).toBe(true);
    // Clients that are not browsers send no Origin.
    const script = await connect(server.url);
    expect(await script.ask()).toEqual({ type: 'card', uid: '04A1B2C3' });
    script.close();
  });

  it("'*' lets every page in", async () => {
    const server = await start({ uids: ['04A1B2C3'], origins: ['*'] });
    const client = await connect(server.url, 'https://anywhere.example');
    expect(await client.ask()).toEqual({ type: 'card', uid: '04A1B2C3' });
    client.close();
  });

  it('listens on loopback only and rejects bad options', async () => {
    await expect(startReaderServer({ mode: 'simulated', port: 0, host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    await expect(startReaderServer({ mode: 'simulated', port: 0, origins: ['csms.example.com'] })).rejects.toThrow(/origin/);
    await expect(startReaderServer({ mode: 'simulated', port: 0, uids: ['xyz'] })).rejects.toThrow(/not a card UID/);
  });

  it('reports a port in use instead of crashing', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    await expect(startReaderServer({ mode: 'simulated', port, log: () => {} })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    blocker.close();
  });
});
