import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCli } from './cli-options.js';
import { startFakeCsms, type FakeCsms } from './testing/fake-csms.js';

describe('command line', () => {
  it('parses options into fleet options', () => {
    const o = parseCli(
      [
        '--url',
        'ws://h:1/ocpp',
        '--count',
        '10',
        '--prefix',
        'X-',
        '--keys',
        'k.json',
        '--scenario',
        'charge',
        '--connectors',
        '1',
        '--duration',
        '60',
      ],
      () => '{"X-0001":"key-one"}',
    );
    expect(o.fleet).toMatchObject({ url: 'ws://h:1/ocpp', count: 10, prefix: 'X-', scenario: 'charge', connectors: 1 });
    expect(o.fleet.keys?.('X-0001')).toBe('key-one');
    expect(o.fleet.keys?.('X-0002')).toBeUndefined();
    expect(o.durationS).toBe(60);
    expect(parseCli([]).fleet).toMatchObject({ url: 'ws://127.0.0.1:8080/ocpp', count: 1, scenario: 'demo', connectors: 2 });
    expect(parseCli([]).fleet.point?.ocppVersion).toBeUndefined();
    expect(parseCli(['--ocpp', '2.0.1']).fleet.point).toMatchObject({ ocppVersion: '2.0.1' });
  });

  it('refuses bad input with a message', () => {
    expect(() => parseCli(['--count', 'many'])).toThrow(/--count/);
    expect(() => parseCli(['--scenario', 'party'])).toThrow(/--scenario/);
    expect(() => parseCli(['--url', 'http://x'])).toThrow(/--url/);
    expect(() => parseCli(['--key', 'a', '--keys', 'b.json'], () => '{}')).toThrow(/not both/);
    expect(() => parseCli(['--keys', 'b.json'], () => '[1]')).toThrow(/JSON object/);
    expect(() => parseCli(['--ocpp', '2.1'])).toThrow(/--ocpp/);
    expect(() => parseCli(['--bogus'])).toThrow();
  });
});

describe('csms-sim process', () => {
  let csms: FakeCsms | undefined;
  afterEach(async () => {
    await csms?.close();
  });

  it('prints status lines and exits cleanly on SIGINT, closing its connections', async () => {
    csms = await startFakeCsms();
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, '--url', csms.url, '--count', '3', '--scenario', 'idle', '--status-every', '1'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.on('exit', () => reject(new Error(`exited early:\n${out}`)));
      const check = setInterval(() => {
        if (/connected 3\/3 booted 3/.test(out)) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    expect(csms.connections()).toBe(3);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(out).toContain('interrupted, closing connections');
    expect(out).toMatch(/BootNotification\s+3\s+0\s+0/);
    for (let i = 0; i < 100 && csms.connections() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(csms.connections()).toBe(0);
  }, 30_000);
});
