import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { api } from '@csms/contract';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../src/db/client.js';
import { ADMIN_PASSWORD } from './harness.js';
import { createPoint, eventually, TestCharger } from './ocpp/support.js';

/*
 * CSMS_WORKERS: the real entry point with two worker processes sharing one port, their commands
 * over the IPC channels through the primary (no NATS_URL). Needs PostgreSQL (DATABASE_URL, CI's
 * second pass); that PGlite refuses several workers is checked on both passes.
 */

function start(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      CSMS_CAPTCHA: 'false',
      CSMS_LOG_LEVEL: 'warn',
      CSMS_WEB_DIST: '',
      CSMS_DEMO: 'false',
      NATS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

/** A request on a connection of its own, so that the primary hands each to the next worker. */
function request<T>(port: number, method: string, p: string, body?: unknown, token?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/prod-api${p}`,
        agent: false,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(JSON.parse(text) as T));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('CSMS_WORKERS', () => {
  it('refuses several workers on the embedded PGlite, naming DATABASE_URL', { timeout: 120_000 }, async () => {
    const { child, output } = start({ CSMS_WORKERS: '2', DATABASE_URL: '', PORT: '0' });
    expect(await exited(child)).toBe(1);
    expect(output()).toMatch(/CSMS_WORKERS=2 needs DATABASE_URL/);
  });

  const url = process.env.DATABASE_URL;
  const template = inject('pgTemplate');
  describe.skipIf(!url || !template)('two workers on PostgreSQL', () => {
    const name = `csms_w_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    let server: ReturnType<typeof start> | undefined;
    afterAll(async () => {
      if (server) {
        server.child.kill('SIGTERM');
        await exited(server.child);
      }
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });

    it('share the port, and a command reaches the charger from either worker', { timeout: 300_000 }, async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name} template ${template}`);
      await admin.end();
      const u = new URL(url!);
      u.pathname = `/${name}`;
      const port = 20000 + Math.floor(Math.random() * 20000);
      server = start({ CSMS_WORKERS: '2', DATABASE_URL: u.toString(), PORT: String(port), CSMS_ADMIN_PASSWORD: ADMIN_PASSWORD });
      const health = () => request<{ code: number; data: { ocppConnections: number } }>(port, 'GET', '/health').catch(() => null);
      await eventually(async () => (await health())?.code === 200, 120_000);

      const database = openPostgres(u.toString());
      try {
        const p = await createPoint(database.db);
        const charger = await TestCharger.connect(`http://127.0.0.1:${port}`, p.serialNumber, { key: p.key });
        charger.onCall = () => ({ status: 'Rejected' });
        // One worker holds the charger's socket, the other does not: both are serving the port.
        await eventually(async () => {
          const seen = new Set<number>();
          for (let i = 0; i < 6; i++) seen.add((await health())?.data.ocppConnections ?? -1);
          return seen.has(0) && seen.has(1);
        });
        const login = await request<{ data: { token: string } }>(port, 'POST', api.auth.login.path, {
          username: 'admin',
          password: ADMIN_PASSWORD,
        });
        const token = login.data.token;
        // Each command on a new connection: about half reach the worker without the socket and go over IPC.
        for (let i = 0; i < 6; i++) {
          const r = await request<{ code: number; data: { status: string } }>(
            port,
            'POST',
            api.pointAction.clearCache.path,
            { serialNumber: p.serialNumber },
            token,
          );
          expect(r).toMatchObject({ code: 200, data: { status: 'rejected' } });
        }
        await charger.close();
      } finally {
        await database.close();
      }
    });
  });
});
