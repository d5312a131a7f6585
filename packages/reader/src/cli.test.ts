import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './test-client.js';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGTERM')));

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, CSMS_READER_PORT: '' } });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', () => {
      const url = /listening on (ws:\/\/\S+):/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    void exited.then(() => reject(new Error(stderr)));
  });
  listening.catch(() => {}); // runs that are meant to fail never listen
  return { child, listening, exited, stderr: () => stderr };
}

describe('csms-card-reader command', { timeout: 30_000 }, () => {
  it('serves a keyboard-wedge reader typing into its stdin', async () => {
    const { child, listening } = run(['--mode', 'keyboard', '--port', '0', '--timeout', '5']);
    const client = await connect(await listening);
    const answer = client.ask();
    child.stdin.write('04:A1:B2:C3\n');
    expect(await answer).toEqual({ type: 'card', uid: '04A1B2C3' });
    client.close();
  });

  it('refuses bad arguments with usage and exit code 2', async () => {
    for (const args of [['--mode', 'magic'], ['--uid', 'xyz'], ['--port', 'http'], ['--wedge-format', 'oct'], ['--bogus']]) {
      const { exited, stderr } = run(args);
      expect(await exited).toBe(2);
      expect(stderr()).toContain('Usage: csms-card-reader');
    }
  });
});
